/**
 * Which files .gitignore rules match, tracked or not, as git itself judges them
 * (`git check-ignore --no-index`): for selections made without the glob packer's walk, such as
 * `always_include` globs. Outside a git repository, or without git, none are.
 */
import { runProcess } from '../process/run-process.ts';

export async function gitignoredAmong(root: string, paths: readonly string[], env: Record<string, string | undefined>): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const result = await runProcess({
    bin: 'git',
    args: ['check-ignore', '--no-index', '--stdin', '-z'],
    stdin: paths.map((p) => `${p}\0`).join(''),
    cwd: root,
    env: { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
    timeoutMs: 30_000,
    graceMs: 1000,
  });
  // Exit 1: none of them is ignored; 128: not a repository. Either way stdout names the ignored ones.
  return new Set(result.stdout.split('\0').filter(Boolean));
}
