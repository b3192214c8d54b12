/**
 * Isolation: each run gets its own git worktree, detached at HEAD, under
 * `.supervisor/worktrees/<run-id>`. Afterwards changes (untracked files included) are
 * committed on the branch `supervisor/<run-id>`; the user's checkout is never touched.
 * Outside a git repository (or when asked) the run happens in place, and says so.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git, gitOrThrow, type GitEnv } from './git.ts';

export interface Workspace {
  mode: 'worktree' | 'in-place';
  /** Where the CLI and the gates run. */
  path: string;
  /** The commit the worktree was created from (null in place). */
  base: string | null;
  /** Why the run is in place, when it is. */
  reason: string | null;
  /** The branch the worktree must stay on and commit to (a caller's, `RunRoleOptions.workspace`); the worktree is the caller's and is never removed. Undefined: detached, committed on `supervisor/<run-id>`. */
  branch?: string;
}

export interface RepoState {
  isRepo: boolean;
  /** HEAD's commit, or null in a repository without commits. */
  head: string | null;
  /** The checkout has uncommitted changes (they are not in a worktree made from HEAD). */
  dirty: boolean;
}

export interface WorkspaceChanges {
  branch: string;
  /** `base..head`, full commit ids. */
  gitRange: string;
  filesChanged: string[];
}

function branchName(runId: string): string {
  return `supervisor/${runId}`;
}

export interface InspectOptions {
  env?: GitEnv;
  /** false: skip `git status` (dirty is then false); --dry-run does not need it. */
  dirty?: boolean;
}

export async function inspectRepo(dir: string, options: InspectOptions = {}): Promise<RepoState> {
  const { env } = options;
  // Independent questions, asked at once (outside a repository the last two just fail).
  const [inside, head, status] = await Promise.all([
    git(dir, ['rev-parse', '--is-inside-work-tree'], env),
    git(dir, ['rev-parse', '--verify', '-q', 'HEAD'], env),
    options.dirty === false ? null : git(dir, ['status', '--porcelain', '-z'], env),
  ]);
  if (!inside.ok || inside.stdout.trim() !== 'true') return { isRepo: false, head: null, dirty: false };
  return { isRepo: true, head: head.ok ? head.stdout.trim() : null, dirty: status !== null && status.ok && status.stdout.length > 0 };
}

/** Why a run happens in place rather than in a worktree of its own (null: it gets one). */
export function inPlaceReason(useWorktree: boolean, repo: RepoState): string | null {
  if (!useWorktree) return '--no-worktree was given';
  if (!repo.isRepo) return 'not a git repository';
  if (!repo.head) return 'the repository has no commits yet';
  return null;
}

export interface OpenWorkspaceOptions {
  repoRoot: string;
  runId: string;
  worktreesDir: string;
  /** false: --no-worktree. */
  useWorktree: boolean;
  repo: RepoState;
  /** The environment git runs with (the run's). */
  env?: GitEnv;
  /** The commit the worktree starts from (--base, the reviewed head); default HEAD. */
  start?: string;
}

export async function openWorkspace(options: OpenWorkspaceOptions): Promise<Workspace> {
  const { repoRoot, repo, env } = options;
  const reason = inPlaceReason(options.useWorktree, repo);
  if (reason !== null || !repo.head) return { mode: 'in-place', path: repoRoot, base: null, reason };
  const path = join(options.worktreesDir, options.runId);
  const start = options.start ?? repo.head;
  const workspace: Workspace = { mode: 'worktree', path, base: start, reason: null };
  const existed = existsSync(path);
  try {
    await gitOrThrow(repoRoot, ['worktree', 'add', '--detach', '-q', path, start], env);
  } catch (error) {
    // A half-made checkout of ours (disk full, killed git) goes; anything that was there stays.
    if (!existed) await closeWorkspace(repoRoot, workspace, env).catch(() => {});
    throw error;
  }
  return workspace;
}

const FALLBACK_IDENTITY = ['-c', 'user.name=supervisor', '-c', 'user.email=supervisor@localhost'];

/**
 * Commits whatever the CLI left in the worktree (including commits it made itself) and
 * points `supervisor/<run-id>` at the result. Returns null when nothing changed.
 */
export async function commitWorkspace(workspace: Workspace, runId: string, message: string, env?: GitEnv): Promise<WorkspaceChanges | null> {
  if (workspace.mode !== 'worktree' || !workspace.base) return null;
  const cwd = workspace.path;
  const run = (args: string[]) => gitOrThrow(cwd, args, env);
  // The common read-only case (reviewers, planners) costs two parallel git calls.
  const [status, before] = await Promise.all([run(['status', '--porcelain', '-z']), run(['rev-parse', 'HEAD'])]);
  if (status === '' && before.trim() === workspace.base) return null;
  await run(['add', '-A']);
  const staged = await git(cwd, ['diff', '--cached', '--quiet'], env);
  if (!staged.ok) {
    const commit = ['-c', 'commit.gpgsign=false', '-c', 'gc.auto=0', 'commit', '-q', '--no-verify', '-m', message];
    const first = await git(cwd, commit, env);
    // No user.name/user.email configured: commit as "supervisor" rather than lose the work.
    if (!first.ok) await run([...FALLBACK_IDENTITY, ...commit]);
  }
  const head = (await run(['rev-parse', 'HEAD'])).trim();
  if (head === workspace.base) return null;
  // A caller-owned worktree has its branch checked out: the commit has moved it already.
  const branch = workspace.branch ?? branchName(runId);
  if (!workspace.branch) await run(['branch', branch, head]);
  const names = await run(['diff', '--name-only', '-z', '--no-renames', workspace.base, head]);
  return { branch, gitRange: `${workspace.base}..${head}`, filesChanged: names.split('\0').filter(Boolean) };
}

/** Removes the worktree (the branch stays). Falls back to deleting the folder and pruning. */
export async function closeWorkspace(repoRoot: string, workspace: Workspace, env?: GitEnv): Promise<void> {
  if (workspace.mode !== 'worktree' || workspace.branch) return;
  const removed = await git(repoRoot, ['worktree', 'remove', '--force', '--force', workspace.path], env);
  if (removed.ok) return;
  await rm(workspace.path, { recursive: true, force: true });
  await git(repoRoot, ['worktree', 'prune'], env);
}
