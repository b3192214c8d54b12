/**
 * The run's workspace around its attempts: opened and logged (`workspace_ready`, with the git
 * folders recovery binds to), and at the end saved (committed on the run's branch), kept or
 * removed. A caller's worktree (a workflow task's) always stays.
 */
import { errors, isSupervisorError } from '../errors.ts';
import type { Failure } from '../plugin-api/contracts.ts';
import { describeStop } from '../process/stop-signals.ts';
import { clip } from './answer.ts';
import { linkProblem } from '../git/bound-git.ts';
import type { WorktreeCheck } from '../git/verified-worktree.ts';
import { hasUncommittedWork, type CheckoutState } from './checkout-guard.ts';
import type { RunRoleOptions } from './options.ts';
import type { RunPlace } from './run-place.ts';
import type { RunLog } from './run-log.ts';
import type { OpenedAhead } from './workspace-ahead.ts';
import { attachWorkspaceBranch, closeWorkspace, saveWorkspace, type Workspace, type WorkspaceChanges } from './worktree.ts';

/** Where the run works, as the log records it: recovery binds git to the recorded folders, not to whatever the folder's .git says by then. */
function workspaceReady(workspace: Workspace, reason: string | null): Record<string, unknown> {
  return {
    mode: workspace.mode,
    path: workspace.path,
    base: workspace.base,
    reason,
    ...(workspace.git ? { git_dir: workspace.git.gitDir, common_dir: workspace.git.commonDir } : {}),
  };
}

/**
 * A run's workspace opened while its prompt was packed (workspace-ahead.ts), logged
 * (`workspace_ready`, the notices: work left out of the worktree as the checkout's record shows it);
 * its failure is the run's (WORKTREE_FAILED, as run_finished).
 */
export function logWorkspaceAhead(options: RunRoleOptions, opened: OpenedAhead, checkout: CheckoutState | null, log: RunLog, notice: (m: string) => void): Workspace {
  const { workspace, repo } = opened;
  if (!workspace) {
    const failure = errors.worktreeFailed(options.repoRoot, opened.failure);
    log.event('run_finished', { status: 'error', exit_code: failure.exitCode, error: { code: failure.code, message: failure.message } });
    throw failure;
  }
  if (workspace.mode === 'in-place') notice(`running in place (${workspace.reason}): the CLI works directly in ${workspace.path}`);
  else if (checkout && hasUncommittedWork(checkout)) notice(`your checkout has uncommitted changes; the worktree starts from HEAD (${repo.head?.slice(0, 7)}) without them`);
  log.event('workspace_ready', workspaceReady(workspace, workspace.reason));
  return workspace;
}

export interface FinishInput {
  status: string;
  interrupted: boolean;
  log: RunLog;
  notice: (m: string) => void;
  /** The worktree's check made after the CLI ended (the commit uses it). */
  checked?: Promise<WorktreeCheck>;
}

export async function finishWorkspace(
  options: RunRoleOptions,
  workspace: Workspace,
  runId: string,
  input: FinishInput,
): Promise<{ changes: WorkspaceChanges | null; kept: boolean; failure: Failure | null }> {
  if (workspace.mode !== 'worktree') return { changes: null, kept: false, failure: null };
  // A caller's worktree (a workflow task's) is the caller's: it always stays.
  const callers = workspace.branch !== undefined;
  let kept = options.keepWorktree === true || callers;
  let changes: WorkspaceChanges | null = null;
  let failure: Failure | null = null;
  // Left uncommitted on request (a reviewer's edits in a caller's worktree): the caller discards them.
  const commit = options.workspace?.commit !== false;
  // Ctrl-C means "stop now": the partial work is dropped unless the user asked to keep it.
  if (!input.interrupted && commit) {
    // The task's first line with text, without a markdown heading's marks (a workflow's task text starts "# Task ...").
    const title = (options.task.split('\n').find((line) => line.trim()) ?? '').trim().replace(/^#+\s*/, '').slice(0, 60);
    const message = `supervisor ${options.role}: ${title}\n\nRun ${runId}, status ${input.status}.`;
    try {
      const saved = await saveWorkspace(workspace, { runId, message, repoRoot: options.repoRoot, env: options.env, signal: options.signal, ...(input.checked ? { checked: input.checked } : {}) });
      changes = saved.changes;
      saved.notices.forEach(input.notice);
      if (saved.keep) kept = true;
      if (changes) input.log.event('committed', { branch: changes.branch, git_range: changes.gitRange, files_changed: changes.filesChanged });
    } catch (error) {
      failure = saveFailure(error, options.signal);
      // A stop drops the partial work like any other stop; anything else keeps it to look at.
      if (failure.class !== 'interrupted') kept = true;
      input.log.event('notice', { message: `the run's work was not saved: ${failure.class}: ${failure.detail}` });
    }
  }
  // Stopped before the check: a folder that is no longer our worktree is not ours to delete.
  const broken = !kept && workspace.git ? linkProblem(workspace.git) : null;
  if (broken) {
    kept = true;
    failure ??= { class: 'workspace_broken', detail: errors.workspaceBroken(workspace.path, broken).message };
  }
  if (callers && failure?.class !== 'workspace_broken') {
    // The caller's worktree: it stays, and saying so on every run would be noise.
  } else if (kept) {
    input.notice(
      failure?.class === 'workspace_broken'
        ? `the folder ${workspace.path} is kept for inspection; nothing was committed and your checkout was not touched (remove it with: rm -rf ${workspace.path} && git worktree prune)`
        : `worktree kept at ${workspace.path}${await keptBranch(workspace, runId, options)} (remove it with: git worktree remove --force ${workspace.path})`,
    );
  } else {
    await closeWorkspace(options.repoRoot, workspace, options.env);
    input.log.event('workspace_removed', { path: workspace.path });
  }
  return { changes, kept, failure };
}

/** Why saving the work failed, as the run's failure. */
function saveFailure(error: unknown, signal: AbortSignal | undefined): Failure {
  const message = clip(error instanceof Error ? error.message : String(error), 500);
  if (signal?.aborted || (isSupervisorError(error) && error.code === 'INTERRUPTED')) {
    return { class: 'interrupted', detail: `stopped by ${describeStop(signal?.reason)} while the run's work was being saved; nothing was committed` };
  }
  if (isSupervisorError(error) && error.code === 'WORKSPACE_BROKEN') return { class: 'workspace_broken', detail: message };
  if (isSupervisorError(error) && error.code === 'COMMIT_FAILED') return { class: 'commit_failed', detail: message };
  return { class: 'commit_failed', detail: `the run's changes could not be committed: ${message}` };
}

/** ` on branch <name>` when the kept worktree could be put on the run's branch (--keep-worktree). */
async function keptBranch(workspace: Workspace, runId: string, options: RunRoleOptions): Promise<string> {
  const branch = await attachWorkspaceBranch(workspace, runId, options.env).catch(() => null);
  return branch ? ` on branch ${branch}` : '';
}

export function logEarlyWorkspace(place: RunPlace, log: RunLog): Workspace {
  const { workspace, review } = place;
  log.event('workspace_ready', {
    ...workspaceReady(workspace, null),
    ...(workspace.branch ? { caller_branch: workspace.branch } : {}),
    ...(review ? { review: { base: review.base, head: review.head, spec: review.spec } } : {}),
  });
  return workspace;
}
