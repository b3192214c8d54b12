/**
 * Which files .gitignore rules match, tracked or not, as git itself judges them
 * (`git check-ignore --no-index`): for selections made without the glob packer's walk, such as
 * `always_include` globs. Outside a git repository, or without git, none are.
 */
import { runProcess } from '../process/run-process.ts';

const BATCH = 500;

export async function gitignoredAmong(root: string, paths: readonly string[], env: Record<string, string | undefined>): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < paths.length; start += BATCH) {
    const batch = paths.slice(start, start + BATCH);
    const result = await runProcess({
      bin: 'git',
      args: ['-c', 'core.quotepath=off', 'check-ignore', '--no-index', '-z', '--', ...batch],
      cwd: root,
      env: { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
      timeoutMs: 30_000,
      graceMs: 1000,
    });
    // Exit 1: none of them is ignored; 128: not a repository. Either way stdout names the ignored ones.
    for (const name of result.stdout.split('\0')) if (name) found.add(name);
  }
  return found;
}
