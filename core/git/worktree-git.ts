/**
 * A worktree's git folders as the core recorded them when it made the worktree, before any CLI
 * ran there: what git in the worktree writes (`admin`: `<common>/worktrees/<name>`, its index
 * and HEAD) and reads (`common`: the repository's objects, refs, config). A plugin binds or
 * allows these, never what the worktree's `.git` file says by then (a CLI can rewrite it).
 */
export interface WorktreeGit {
  admin: string;
  common: string;
}
