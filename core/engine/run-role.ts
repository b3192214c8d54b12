/**
 * `runRole`: the main job. Prepare (role, adapter, prompt), open the run log and the
 * workspace, run attempts until one gives a final answer or the retry policy stops, commit
 * the worktree's changes on `supervisor/<run-id>`, clean up, and return one result.
 * Cleanup always runs: the worktree is removed (unless kept) even when something throws.
 */
import { basename, join } from 'node:path';
import { errors, isSupervisorError } from '../errors.ts';
import type { Failure } from '../plugin/contracts.ts';
import { clip } from './answer.ts';
import { attemptLoop, type LoopOutcome } from './attempt-loop.ts';
import { sumMetrics } from './metrics.ts';
import type { RunRoleOptions } from './options.ts';
import { resolvePeers } from './peers.ts';
import { prepareRun, type PreparedRun } from './prepare.ts';
import { nothingToReviewNotice } from './review-notice.ts';
import { needsEarlyPlace, settlePlace, type RunPlace } from './run-place.ts';
import { roleEnv } from './request.ts';
import { exitCodeFor, failureIssue, issuesOf, type RunResult } from './result.ts';
import { statusForFailure, type StopReason } from './retry-policy.ts';
import { newRunId } from './run-id.ts';
import { recoverStaleWorktrees } from './recover.ts';
import { RunLog } from './run-log.ts';
import { ensureStateDir } from './state-dir.ts';
import type { RunStatus } from './status-map.ts';
import { closeWorkspace, commitWorkspace, inspectRepo, openWorkspace, type Workspace, type WorkspaceChanges } from './worktree.ts';

export type { RunRoleOptions } from './options.ts';
export type { RunResult } from './result.ts';

export async function runRole(options: RunRoleOptions): Promise<RunResult> {
  const t0 = performance.now(); // duration_ms covers preparing (packing) too
  const early = needsEarlyPlace(options) ? await openEarly(options) : null;
  let prepared: PreparedRun;
  try {
    prepared = await prepareRun(options, early ? { contextRoot: early.place.contextRoot, ...(early.place.review ? { gitRange: early.place.review } : {}) } : undefined);
    if (options.signal?.aborted) throw errors.interrupted();
  } catch (error) {
    if (early) await closeWorkspace(options.repoRoot, early.place.workspace, options.env).catch(() => {});
    throw error;
  }
  const { peers, role } = prepared;
  const startedAt = early?.startedAt ?? peers.now();
  const runId = early?.runId ?? newRunId(role.name, startedAt, peers.randomHex);
  const paths = ensureStateDir(options.repoRoot);
  const log = new RunLog(join(paths.runs, runId), peers.now, options.onEvent);
  const notices: string[] = [...prepared.notices];
  const notice = (message: string) => {
    notices.push(message);
    log.event('notice', { message });
    options.onNotice?.(message);
  };
  logStart(log, prepared, options, runId);
  const nothing = nothingToReviewNotice(role, prepared.built, early?.place.review ?? null);
  if (nothing) notice(nothing);
  for (const message of await recoverStaleWorktrees(options.repoRoot, paths, peers.now, options.env)) notice(message);

  const workspace = early ? logEarlyWorkspace(early.place, log) : await openLoggedWorkspace(options, runId, paths.worktrees, log, notice);
  const env = { ...options.env, ...roleEnv(role.name, options.workflow) };
  let loop: LoopOutcome;
  try {
    loop = await attemptLoop({ prepared, log, workspace, runId, env, signal: options.signal, notice });
  } catch (error) {
    // A plugin bug mid-run: what the earlier attempts did is committed (or the worktree kept)
    // like at the end of any run, then the error goes on.
    const interrupted = options.signal?.aborted === true;
    await finishWorkspace(options, workspace, runId, { status: 'error', interrupted, log, notice }).catch(() => {});
    const detail = isSupervisorError(error) ? { code: error.code, message: error.message } : { code: 'INTERNAL', message: String(error) };
    log.event('run_finished', { status: 'error', exit_code: isSupervisorError(error) ? error.exitCode : 2, error: detail });
    throw error;
  }
  const { status, output, issues, failure, stop } = judge(loop);

  const finish = await finishWorkspace(options, workspace, runId, { status, interrupted: failure?.class === 'interrupted', log, notice });
  const finishedAt = peers.now();
  const result: RunResult = {
    run_id: runId,
    role: role.name,
    base_role: role.base_role,
    cli: prepared.adapterName,
    status,
    exit_code: exitCodeFor(status, failure),
    output,
    reported_status: loop.last?.mapped?.reported ?? null,
    issues,
    failure: failure
      ? { class: failure.class, detail: failure.detail, ...(failure.httpStatus === undefined ? {} : { http_status: failure.httpStatus }) }
      : null,
    stop_reason: stop,
    metrics: sumMetrics(loop.attempts, Math.round(performance.now() - t0), prepared.settings.maxCostUsd),
    git_range: finish.changes?.gitRange ?? null,
    branch: finish.changes?.branch ?? null,
    files_changed: workspace.mode === 'worktree' ? (finish.changes?.filesChanged ?? []) : null,
    worktree: { mode: workspace.mode, path: workspace.path, kept: finish.kept, reason: workspace.reason },
    run_dir: log.dir,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    notices,
  };
  log.write('result.json', `${JSON.stringify(result, null, 2)}\n`);
  log.event('run_finished', { status, exit_code: result.exit_code, failure: result.failure, attempts: result.metrics.attempts });
  return result;
}

function logStart(log: RunLog, prepared: PreparedRun, options: RunRoleOptions, runId: string): void {
  const { role, built } = prepared;
  log.event('run_started', {
    run_id: runId,
    role: role.name,
    base_role: role.base_role,
    cli: prepared.adapterName,
    task: clip(options.task, 2000),
    targets: options.targets ?? [],
    repo_root: options.repoRoot,
    pid: process.pid,
    settings: prepared.settings,
  });
  for (const message of prepared.notices) log.event('notice', { message });
  log.write('prompt.md', built.prompt);
  log.event('prompt_built', {
    file: 'prompt.md',
    bytes: Buffer.byteLength(built.prompt),
    tokens: built.stats.promptTokens,
    template: built.template,
    output_schema: built.outputSchema.name,
    pruned: built.stats.pruned,
  });
}

/** The run's verdict from its last attempt: status, answer, issues, failure and why it stopped. */
function judge(loop: LoopOutcome): { status: RunStatus; output: Record<string, unknown> | null; issues: string[]; failure: Failure | null; stop: StopReason | null } {
  const { last, failure } = loop;
  const output = last?.output ?? null;
  const mapped = failure ? null : (last?.mapped ?? null);
  const status = failure ? statusForFailure(failure) : (mapped?.status ?? 'error');
  const stop = failure ? loop.stop : null;
  const issues = issuesOf(output);
  if (mapped && !mapped.known) issues.push(`the answer's status ${JSON.stringify(mapped.reported)} is not a known status word, so the run counts as gaps`);
  if (failure) issues.push(failureIssue(failure, stop));
  return { status, output, issues, failure, stop };
}

/**
 * --base, --review or a caller's worktree: the place is settled before packing, under a run id
 * made from the role as named (the loaded role's name is not known yet).
 */
async function openEarly(options: RunRoleOptions): Promise<{ place: RunPlace; runId: string; startedAt: Date }> {
  const peers = await resolvePeers(options.peers);
  const startedAt = peers.now();
  const runId = newRunId(basename(options.role).replace(/\.ya?ml$/i, ''), startedAt, peers.randomHex);
  const paths = ensureStateDir(options.repoRoot);
  return { place: await settlePlace(options, runId, paths.worktrees), runId, startedAt };
}

function logEarlyWorkspace(place: RunPlace, log: RunLog): Workspace {
  const { workspace, review } = place;
  log.event('workspace_ready', {
    mode: workspace.mode,
    path: workspace.path,
    base: workspace.base,
    reason: null,
    ...(workspace.branch ? { caller_branch: workspace.branch } : {}),
    ...(review ? { review: { base: review.base, head: review.head, spec: review.spec } } : {}),
  });
  return workspace;
}

async function openLoggedWorkspace(
  options: RunRoleOptions,
  runId: string,
  worktreesDir: string,
  log: RunLog,
  notice: (m: string) => void,
): Promise<Workspace> {
  const repo = await inspectRepo(options.repoRoot, { env: options.env });
  let workspace: Workspace;
  try {
    workspace = await openWorkspace({ repoRoot: options.repoRoot, runId, worktreesDir, useWorktree: options.worktree !== false, repo, env: options.env });
  } catch (error) {
    const failure = errors.worktreeFailed(options.repoRoot, error);
    log.event('run_finished', { status: 'error', exit_code: failure.exitCode, error: { code: failure.code, message: failure.message } });
    throw failure;
  }
  if (workspace.mode === 'in-place') notice(`running in place (${workspace.reason}): the CLI works directly in ${workspace.path}`);
  else if (repo.dirty) notice(`your checkout has uncommitted changes; the worktree starts from HEAD (${repo.head?.slice(0, 7)}) without them`);
  log.event('workspace_ready', { mode: workspace.mode, path: workspace.path, base: workspace.base, reason: workspace.reason });
  return workspace;
}

interface FinishInput {
  status: string;
  interrupted: boolean;
  log: RunLog;
  notice: (m: string) => void;
}

async function finishWorkspace(
  options: RunRoleOptions,
  workspace: Workspace,
  runId: string,
  input: FinishInput,
): Promise<{ changes: WorkspaceChanges | null; kept: boolean }> {
  if (workspace.mode !== 'worktree') return { changes: null, kept: false };
  let kept = options.keepWorktree === true || workspace.branch !== undefined;
  let changes: WorkspaceChanges | null = null;
  // A caller-owned worktree left uncommitted on request (a reviewer's): the caller discards it.
  const commit = options.workspace?.commit !== false;
  // Ctrl-C means "stop now": the partial work is dropped unless the user asked to keep it.
  if (!input.interrupted && commit) {
    const title = options.task.split('\n')[0]!.trim().slice(0, 60);
    try {
      changes = await commitWorkspace(workspace, runId, `supervisor ${options.role}: ${title}\n\nRun ${runId}, status ${input.status}.`, options.env);
      if (changes) input.log.event('committed', { branch: changes.branch, git_range: changes.gitRange, files_changed: changes.filesChanged });
    } catch (error) {
      kept = true;
      input.notice(`could not commit the run's changes (${clip(String(error instanceof Error ? error.message : error), 300)}); the worktree is kept at ${workspace.path}`);
    }
  }
  if (workspace.branch) {
    // The caller's worktree: it stays, and saying so on every run would be noise.
  } else if (kept) {
    input.notice(`worktree kept at ${workspace.path} (remove it with: git worktree remove --force ${workspace.path})`);
  } else {
    await closeWorkspace(options.repoRoot, workspace, options.env);
    input.log.event('workspace_removed', { path: workspace.path });
  }
  return { changes, kept };
}
