/**
 * What git in a worktree needs of the user's repository: the worktree's admin folder
 * (`<repo>/.git/worktrees/<name>`, which git writes: index, HEAD) and the common `.git` (objects,
 * refs, config: read-only for the sandboxed CLI; supervisor commits from outside). Read from
 * the worktree's `.git` file: only for a worktree the core did not make (the request's `git`,
 * recorded before any CLI ran there, comes first; a CLI can rewrite `.git`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function gitDirs(cwd: string): { admin: string; common: string } | undefined {
  const dotGit = join(cwd, '.git');
  if (!existsSync(dotGit) || statSync(dotGit).isDirectory()) return undefined;
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
  if (!match) return undefined;
  const admin = resolve(cwd, match[1]!);
  const commondir = join(admin, 'commondir');
  return { admin, common: existsSync(commondir) ? resolve(admin, readFileSync(commondir, 'utf8').trim()) : dirname(dirname(admin)) };
}
