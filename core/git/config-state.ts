/**
 * When git's config may have changed: the driver guard (git.ts) is read once per state of the
 * config files a command reads, for bound git and for a main checkout alike.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type GitEnv = Record<string, string | undefined>;

/** The git dirs whose config files a command reads: the repository's common dir and the worktree's own (the same for a main checkout). */
export interface GitDirs {
  commonDir: string;
  gitDir: string;
}

/** The config files a git in `worktree` reads, where they may be: system, XDG, global, the repository's, the worktree's `config.worktree`. */
export function configFiles(worktree: GitDirs, env: GitEnv): string[] {
  const home = env.HOME ?? '';
  return [
    env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig',
    join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'),
    env.GIT_CONFIG_GLOBAL ?? join(home, '.gitconfig'),
    join(worktree.commonDir, 'config'),
    join(worktree.gitDir, 'config.worktree'),
  ];
}

/**
 * The config files a git command reads, by the state they are in: the files that exist (git's
 * own list: the system, global and repository config, and the worktree's `config.worktree`,
 * `<git dir>/config.worktree`, the main checkout's in the common dir), each with its change time
 * (a write always moves one, and no unprivileged process can set one back), and the variables
 * that pick the global ones. Two folders whose gits read the same files get the same state: a
 * linked worktree with no config of its own reads what its main checkout reads. Null when one
 * of them includes another file (`include.path`, `includeIf`): a change there would not show
 * here, so such a config is read every time.
 */
export function configState(worktree: GitDirs, env: GitEnv): string | null {
  const parts: string[] = [];
  for (const file of configFiles(worktree, env)) {
    // Followed through a symbolic link: an edit of the file it names must move the state too.
    const stat = statSync(file, { throwIfNoEntry: false, bigint: true });
    if (!stat) continue;
    const state = `${stat.ctimeNs}:${stat.ino}:${stat.dev}`;
    if (includesAnother(file, state)) return null;
    parts.push(`${file}:${state}`);
  }
  return [...parts, env.GIT_CONFIG_NOSYSTEM ?? '', env.GIT_CONFIG_COUNT ?? ''].join('\n');
}

/** Whether a config file includes another, read again only when the file changed (every git asks). */
const includes = new Map<string, { state: string; includes: boolean }>();
function includesAnother(file: string, state: string): boolean {
  const known = includes.get(file);
  if (known?.state === state) return known.includes;
  const found = /include/i.test(readFileSync(file, 'latin1'));
  includes.set(file, { state, includes: found });
  return found;
}

