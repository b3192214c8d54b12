/**
 * Isolation: each run gets its own git worktree, detached at HEAD, under
 * `.supervisor/worktrees/<run-id>`. Afterwards changes (untracked files included) are
 * committed on the branch `supervisor/<run-id>`; the user's checkout is never touched: every
 * git command for the worktree is bound to it (bound-git.ts), and checked before committing.
 * Outside a git repository (or when asked) the run happens in place, and says so. A bare
 * repository is refused: it has no checkout, and in place the CLI would write into git's files.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from '../errors.ts';
import { boundGit, commonDirOf, locateWorktree, type BoundGit, type BoundWorktree } from '../git/bound-git.ts';
import { checkWorktree, gitOf, type WorktreeCheck } from '../git/verified-worktree.ts';
import { addDetachedWorktree } from '../git/add-worktree.ts';
import { removeWorktree } from '../git/remove-worktree.ts';
import { git, isObjectId, type GitEnv } from '../git/git.ts';
import { gitErrors } from '../git/errors.ts';
import { isUserWork } from './checkout-guard.ts';
import { excludePathspecs } from './setup.ts';
import { ensureWorktreesDir } from '../state-dir.ts';
import { contentNotices, droppedGitlinksNotice, readContents, unstageMissingGitlinks, type WorktreeContents } from '../git/worktree-contents.ts';

export interface Workspace {
  mode: 'worktree' | 'in-place';
  /** Where the CLI and the gates run. */
  path: string;
  /** The commit the worktree was created from (null in place). */
  base: string | null;
  /** Why the run is in place, when it is. */
  reason: string | null;
  /** Where the worktree's git dir is (found when it was made); git for it is bound to this. */
  git?: BoundWorktree;
  /** The branch the worktree must stay on and commit to (a caller's, `RunRoleOptions.workspace`); the worktree is the caller's and is never removed. Undefined: detached, committed on `supervisor/<run-id>`. */
  branch?: string;
  /** What set-up left in the worktree (setup.ts): never committed, and no notice about it. */
  exclude?: string[];
}

export interface RepoState {
  isRepo: boolean;
  /** A bare repository, or the inside of a .git folder: no checkout to work in. */
  bare?: boolean;
  /** HEAD's commit, or null in a repository without commits. */
  head: string | null;
  /** The checkout has uncommitted changes (they are not in a worktree made from HEAD). */
  dirty: boolean;
  /** The repository's common git dir (absolute, real), read with the rest before any CLI ran. */
  commonDir?: string;
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
  // Asked at once (outside a repository both just fail). One rev-parse answers the three
  // questions, the common dir, then HEAD's commit; on an unborn HEAD it fails after the four.
  const [inside, status] = await Promise.all([
    git(dir, ['rev-parse', '--is-inside-work-tree', '--is-bare-repository', '--is-inside-git-dir', '--git-common-dir', 'HEAD', '--'], env),
    options.dirty === false ? null : git(dir, ['--no-optional-locks', 'status', '--porcelain', '-z'], env),
  ]);
  const [worktree, bare, inGitDir, common = '', head = ''] = inside.stdout.trim().split('\n');
  if (worktree !== 'true' && (bare === 'true' || inGitDir === 'true')) return { isRepo: false, bare: true, head: null, dirty: false };
  if (worktree !== 'true') return { isRepo: false, head: null, dirty: false };
  const commonDir = common ? realCommonDir(dir, common) : undefined;
  return { isRepo: true, head: inside.ok && isObjectId(head) ? head : null, dirty: status !== null && status.ok && hasUserChanges(status.stdout), ...(commonDir ? { commonDir } : {}) };
}

/** The common dir rev-parse printed, real; undefined when it cannot be resolved (git is then asked again). */
function realCommonDir(dir: string, printed: string): string | undefined {
  try {
    return commonDirOf(dir, printed);
  } catch {
    return undefined;
  }
}

/**
 * Whether `git status --porcelain -z` lists a change of the user's (isUserWork, checkout-guard.ts).
 * The entry after a rename or copy is its old path, skipped.
 */
function hasUserChanges(porcelain: string): boolean {
  const entries = porcelain.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (!entry) continue;
    if (entry[0] === 'R' || entry[0] === 'C') i++;
    if (isUserWork(entry, entry.slice(3))) return true;
  }
  return false;
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
  if (repo.bare) throw errors.bareRepository(repoRoot);
  const reason = inPlaceReason(options.useWorktree, repo);
  if (reason !== null || !repo.head) return { mode: 'in-place', path: repoRoot, base: null, reason };
  // The repository's worktrees folder, made 0700 and checked (SECURITY I4) only when a worktree is made.
  ensureWorktreesDir(repoRoot);
  const path = join(options.worktreesDir, options.runId);
  const start = options.start ?? repo.head;
  const workspace: Workspace = { mode: 'worktree', path, base: start, reason: null };
  const existed = existsSync(path);
  try {
    await addDetachedWorktree(repoRoot, repo.commonDir, path, start, env);
    workspace.git = await locateWorktree(repoRoot, path, env, repo.commonDir);
  } catch (error) {
    // A half-made checkout of ours (disk full, killed git) goes; anything that was there stays.
    if (!existed) await closeWorkspace(repoRoot, workspace, env).catch(() => {});
    throw error;
  }
  return workspace;
}

const FALLBACK_IDENTITY = ['-c', 'user.name=supervisor', '-c', 'user.email=supervisor@localhost'];

export interface SaveOptions {
  runId: string;
  message: string;
  /** The main checkout (where a submodule's commits may already exist). */
  repoRoot: string;
  env?: GitEnv;
  /** Stops between git steps (Ctrl-C during the commit). */
  signal?: AbortSignal;
  /** The worktree's check (checkSavedWorktree), when the caller made it after the CLI ended. */
  checked?: Promise<WorktreeCheck>;
}

/**
 * The check a worktree must pass before its work is committed: still the worktree it was, on
 * its branch when it has one, HEAD on the line of the commit it started from. Null: nothing
 * to commit in (not a worktree of ours, or no commit to start from).
 */
export function checkSavedWorktree(workspace: Workspace, env?: GitEnv): Promise<WorktreeCheck> | null {
  if (workspace.mode !== 'worktree' || !workspace.base || !workspace.git) return null;
  return checkWorktree(workspace.git, { base: workspace.base, ...(workspace.branch === undefined ? {} : { branch: workspace.branch }) }, env);
}

export interface SavedWorkspace {
  changes: WorkspaceChanges | null;
  /** What the commit could not hold (submodule work, nested repositories, ignored files). */
  notices: string[];
  /** Keep the worktree: it holds work the commit does not. */
  keep: boolean;
}

function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw errors.interrupted();
}

/**
 * Commits whatever the CLI left in the worktree (including commits it made itself) and points
 * the run's branch at the result, with git bound to the worktree and only after checking it
 * is still the worktree it was (WORKSPACE_BROKEN otherwise: nothing committed). A branch that
 * cannot be made (a name clash) is COMMIT_FAILED; the commit stays in the kept worktree.
 */
export async function saveWorkspace(workspace: Workspace, options: SaveOptions): Promise<SavedWorkspace> {
  if (workspace.mode !== 'worktree' || !workspace.base) return { changes: null, notices: [], keep: false };
  if (!workspace.git) throw errors.workspaceBroken(workspace.path, 'where its git dir is was never recorded, so git cannot be bound to it');
  const base = workspace.base;
  const bound = boundGit(workspace.git, options.env);
  // The common read-only case (reviewers, planners) costs the check and one status, in parallel.
  const [check, status] = await Promise.all([
    options.checked ?? checkSavedWorktree(workspace, options.env)!,
    bound.run(['status', '--porcelain=v2', '-z', '--ignored=traditional', '--untracked-files=normal']),
  ]);
  if (check.problem) throw errors.workspaceBroken(workspace.path, check.problem);
  if (!status.ok) throw gitErrors.failed(['status'], status.stderr, status.code);
  stopIfAborted(options.signal);
  // From here git commits: only in the worktree as it was checked (GIT_WORKTREE_UNVERIFIED once a command ran there since).
  const committing = gitOf(check.verified!, options.env);
  const contents = withoutSetup(readContents(status.stdout, workspace.path), workspace.exclude ?? []);
  const kept = `the worktree is kept at ${workspace.path}`;
  const notices = contentNotices(contents, kept);
  let keep = contents.submodules.length > 0 || contents.nestedRepos.length > 0;
  if (!contents.changed && check.head === base) return { changes: null, notices, keep };
  // The run commits on a detached HEAD: a CLI that checked out a branch in the worktree (even
  // the user's own, with --ignore-other-worktrees) must not have that branch moved by our commit.
  if (workspace.branch === undefined && check.branchRef) {
    await committing.runOrThrow(['update-ref', '--no-deref', '-m', 'supervisor: detach before committing', 'HEAD', check.head, check.head]);
  }
  await committing.runOrThrow(['add', '-A', ...(workspace.exclude?.length ? ['--', '.', ...excludePathspecs(workspace.exclude)] : [])]);
  const mayHoldGitlinks = contents.gitlinks || contents.nestedRepos.length > 0 || contents.submodules.length > 0;
  const dropped = mayHoldGitlinks ? await unstageMissingGitlinks(committing, base, options.repoRoot, options.env) : [];
  const droppedNotice = droppedGitlinksNotice(dropped, contents, kept);
  if (droppedNotice) notices.push(droppedNotice);
  keep ||= dropped.length > 0;
  stopIfAborted(options.signal);
  await commitStaged(committing, options.message);
  // HEAD and what changed since the base, asked at once (nothing runs in the worktree now).
  const [headOut, names] = await Promise.all([committing.runOrThrow(['rev-parse', 'HEAD']), committing.runOrThrow(['diff', '--name-only', '-z', '--no-renames', base, 'HEAD'])]);
  const head = headOut.trim();
  if (head === base) return { changes: null, notices, keep };
  stopIfAborted(options.signal);
  const branch = workspace.branch ?? branchName(options.runId);
  if (workspace.branch === undefined) {
    // Never moves an existing branch: one the CLI made under the run's name, or a branch
    // named `supervisor` (which makes every `supervisor/...` name impossible), is a failure.
    const made = await committing.run(['branch', '--no-track', branch, head]);
    if (!made.ok) throw errors.commitFailed(workspace.path, `the branch ${branch} could not be created at commit ${head} (${made.stderr.trim().split('\n')[0]})`);
  }
  return { changes: { branch, gitRange: `${base}..${head}`, filesChanged: names.split('\0').filter(Boolean) }, notices, keep };
}

/** The worktree's contents less what set-up left there (it is not the run's work). */
function withoutSetup<T extends WorktreeContents>(contents: T, exclude: readonly string[]): T {
  if (!exclude.length) return contents;
  const prefixes = exclude.map((path) => path.replace(/\/?$/, '/'));
  const mine = (path: string) => !prefixes.some((prefix) => `${path.replace(/\/?$/, '/')}`.startsWith(prefix));
  return { ...contents, ignored: contents.ignored.filter(mine), nestedRepos: contents.nestedRepos.filter(mine), submodules: contents.submodules.filter(mine) };
}

/**
 * Commits what is staged (if anything). The commit is tried first (there is almost always
 * something to commit here); only when it fails is the index asked whether anything was staged.
 */
async function commitStaged(bound: BoundGit, message: string): Promise<void> {
  const commit = ['-c', 'commit.gpgsign=false', '-c', 'gc.auto=0', 'commit', '-q', '--no-verify', '-m', message];
  const first = await bound.run(commit);
  // Staged, yet not committed: no user.name/user.email configured; commit as "supervisor" rather than lose the work.
  if (!first.ok && !(await bound.run(['diff', '--cached', '--quiet'])).ok) await bound.runOrThrow([...FALLBACK_IDENTITY, ...commit]);
}

/** saveWorkspace's changes alone (null when nothing changed); its notices are dropped. */
export async function commitWorkspace(workspace: Workspace, runId: string, message: string, env?: GitEnv, repoRoot = workspace.path): Promise<WorkspaceChanges | null> {
  return (await saveWorkspace(workspace, { runId, message, env, repoRoot })).changes;
}

/**
 * A kept worktree is left on the run's branch, not detached, so work can go on there: the
 * branch the commit made, or a new one at the worktree's HEAD when nothing changed. Returns the
 * branch, or null when a branch of that name points elsewhere (it is then left alone) or the
 * worktree is no longer one git can be bound to.
 */
export async function attachWorkspaceBranch(workspace: Workspace, runId: string, env?: GitEnv): Promise<string | null> {
  if (workspace.mode !== 'worktree' || !workspace.git || workspace.branch !== undefined) return null;
  const bound = boundGit(workspace.git, env);
  const branch = branchName(runId);
  const [head, existing] = await Promise.all([
    bound.runOrThrow(['rev-parse', 'HEAD']),
    bound.run(['rev-parse', '--verify', '-q', `refs/heads/${branch}`]),
  ]);
  if (existing.ok && existing.stdout.trim() !== head.trim()) return null;
  await bound.runOrThrow(['checkout', '-q', ...(existing.ok ? [branch] : ['-b', branch])]);
  return branch;
}

/** Removes the worktree (the branch stays): by its recorded folders, else through git (core/git/remove-worktree.ts). */
export async function closeWorkspace(repoRoot: string, workspace: Workspace, env?: GitEnv): Promise<void> {
  if (workspace.mode !== 'worktree' || workspace.branch) return;
  await removeWorktree(repoRoot, workspace.path, workspace.git, env);
}
