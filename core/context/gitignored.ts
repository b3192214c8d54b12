/**
 * Which files .gitignore rules match, tracked or not, as git itself judges them
 * (`git check-ignore --no-index`, run through core/git): for selections made without the glob packer's walk, such as
 * `always_include` globs. Outside a git repository, or without git, none are.
 */
import { git, type GitEnv } from '../git/git.ts';

/** Through core/git: no hooks, the config's filters and drivers switched off, no GIT_DIR-style variables. */
export async function gitignoredAmong(root: string, paths: readonly string[], env: GitEnv): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const stdin = paths.map((p) => `${p}\0`).join('');
  const result = await git(root, ['check-ignore', '--no-index', '--stdin', '-z'], { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }, stdin);
  // Exit 1: none of them is ignored; 128: not a repository. Either way stdout names the ignored ones.
  return new Set(result.stdout.split('\0').filter(Boolean));
}
