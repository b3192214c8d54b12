/**
 * `runRole`: the main job. Prepare (role, adapter, prompt), open the run log and the
 * workspace, run attempts until one gives a final answer or the retry policy stops, commit
 * the worktree's changes on `supervisor/<run-id>`, clean up, and return one result.
 * Cleanup always runs: the worktree is removed (unless kept) even when something throws.
 */
import { join } from 'node:path';
import { isSupervisorError } from '../errors.ts';
import { runAttempt, type AttemptEnv, type AttemptOutcome } from './attempt.ts';
import { clip } from './answer.ts';
import { gateFeedback, stricterInstructions } from './feedback.ts';
import { knownCost, sumMetrics, type AttemptMetrics } from './metrics.ts';
import type { RunRoleOptions } from './options.ts';
import { prepareRun, type PreparedRun } from './prepare.ts';
import { exitCodeFor, issuesOf, type RunResult } from './result.ts';
import { decideRetry, failureGroup, statusForFailure, STOP_REASON_TEXT, type StopReason } from './retry-policy.ts';
import { newRunId } from './run-id.ts';
import { RunLog } from './run-log.ts';
import { ensureStateDir } from './state-dir.ts';
import { closeWorkspace, commitWorkspace, inspectRepo, openWorkspace, type Workspace, type WorkspaceChanges } from './worktree.ts';
import type { Failure } from '../plugin/contracts.ts';
import { errors } from '../errors.ts';

export type { RunRoleOptions } from './options.ts';
export type { RunResult } from './result.ts';

interface LoopOutcome {
  last: AttemptOutcome | null;
  failure: Failure | null;
  stop: StopReason | null;
  attempts: AttemptMetrics[];
}

export async function runRole(options: RunRoleOptions): Promise<RunResult> {
  const prepared = await prepareRun(options);
  if (options.signal?.aborted) throw errors.interrupted();
  const { peers, role, built } = prepared;
  const startedAt = peers.now();
  const t0 = performance.now();
  const runId = newRunId(role.name, startedAt, peers.randomHex);
  const paths = ensureStateDir(options.repoRoot);
  const log = new RunLog(join(paths.runs, runId), peers.now, options.onEvent);
  const notices: string[] = [...prepared.notices];
  const notice = (message: string) => {
    notices.push(message);
    log.event('notice', { message });
    options.onNotice?.(message);
  };
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

  const workspace = await openLoggedWorkspace(options, runId, paths.worktrees, log, notice);
  let loop: LoopOutcome;
  try {
    loop = await attemptLoop({ prepared, log, workspace, runId, env: options.env, signal: options.signal, notice }, options);
  } catch (error) {
    if (!options.keepWorktree) await closeWorkspace(options.repoRoot, workspace).catch(() => {});
    const detail = isSupervisorError(error) ? { code: error.code, message: error.message } : { code: 'INTERNAL', message: String(error) };
    log.event('run_finished', { status: 'error', exit_code: isSupervisorError(error) ? error.exitCode : 2, error: detail });
    throw error;
  }
  const { last, failure, stop } = loop;
  const output = last?.output ?? null;
  const mapped = failure ? null : (last?.mapped ?? null);
  const status = failure ? statusForFailure(failure) : (mapped?.status ?? 'error');
  const issues = issuesOf(output);
  if (mapped && !mapped.known) issues.push(`the answer's status ${JSON.stringify(mapped.reported)} is not a known status word, so the run counts as gaps`);
  if (failure) issues.push(`${failure.class}: ${failure.detail}${stop && stop !== 'not_retryable' ? ` (stopped: ${STOP_REASON_TEXT[stop]})` : ''}`);

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
    reported_status: last?.mapped?.reported ?? null,
    issues,
    failure: failure
      ? { class: failure.class, detail: failure.detail, ...(failure.httpStatus === undefined ? {} : { http_status: failure.httpStatus }) }
      : null,
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

async function openLoggedWorkspace(
  options: RunRoleOptions,
  runId: string,
  worktreesDir: string,
  log: RunLog,
  notice: (m: string) => void,
): Promise<Workspace> {
  const repo = await inspectRepo(options.repoRoot);
  let workspace: Workspace;
  try {
    workspace = await openWorkspace({ repoRoot: options.repoRoot, runId, worktreesDir, useWorktree: options.worktree !== false, repo });
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

async function attemptLoop(env: AttemptEnv, options: RunRoleOptions): Promise<LoopOutcome> {
  const { prepared, log } = env;
  const { settings, built } = prepared;
  const attempts: AttemptMetrics[] = [];
  let last: AttemptOutcome | null = null;
  let feedback = '';
  let answerRetries = 0;
  let consecutiveCli = 0;
  let costWarned = false;
  for (let n = 1; ; n++) {
    if (options.signal?.aborted) {
      const failure: Failure = { class: 'interrupted', detail: 'interrupted between attempts' };
      log.event('interrupted', { before_attempt: n });
      return { last, failure, stop: 'not_retryable', attempts };
    }
    const budget = settings.maxCostUsd === null ? undefined : Math.max(0, settings.maxCostUsd - knownCost(attempts));
    const prompt = built.prompt + feedback;
    if (feedback) log.write(`attempt-${n}.prompt.md`, prompt);
    last = await runAttempt(env, n, prompt, budget);
    attempts.push(last.metrics);
    if (settings.maxCostUsd !== null && last.metrics.ran && typeof last.metrics.metrics?.costUsd !== 'number' && !costWarned) {
      costWarned = true;
      env.notice(`${prepared.adapterName} reported no cost for attempt ${n}: the cost ceiling of $${settings.maxCostUsd} cannot count it`);
    }
    const failure = last.failure;
    if (!failure) return { last, failure: null, stop: null, attempts };
    if (failure.class === 'interrupted') log.event('interrupted', { attempt: n });
    consecutiveCli = failureGroup(failure) === 'cli' ? consecutiveCli + 1 : 0;
    const decision = decideRetry(failure, {
      attempts: n,
      maxRetries: settings.maxRetries,
      answerRetries,
      consecutiveCliFailures: consecutiveCli,
      breakerThreshold: settings.breakerThreshold,
      backoffMs: settings.backoffMs,
      costUsd: knownCost(attempts),
      maxCostUsd: settings.maxCostUsd,
    });
    if (!decision.retry) {
      log.event('stopped', { attempt: n, reason: decision.reason, detail: STOP_REASON_TEXT[decision.reason], failure });
      if (decision.reason === 'cost_ceiling') env.notice(`cost ceiling of $${settings.maxCostUsd} reached after attempt ${n}: no more attempts`);
      return { last, failure, stop: decision.reason, attempts };
    }
    if (decision.mode === 'stricter') {
      answerRetries++;
      feedback = stricterInstructions(failure, n, prepared.formatText);
    } else if (decision.mode === 'gate_feedback' && last.gate) {
      feedback = gateFeedback(last.gate, n);
    }
    log.event('retry', { next_attempt: n + 1, mode: decision.mode, because: failure.class, delay_ms: decision.delayMs });
    await prepared.peers.sleep(decision.delayMs, options.signal);
  }
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
  let kept = options.keepWorktree === true;
  let changes: WorkspaceChanges | null = null;
  // Ctrl-C means "stop now": the partial work is dropped unless the user asked to keep it.
  if (!input.interrupted) {
    const title = options.task.split('\n')[0]!.trim().slice(0, 60);
    try {
      changes = await commitWorkspace(workspace, runId, `supervisor ${options.role}: ${title}\n\nRun ${runId}, status ${input.status}.`);
      if (changes) input.log.event('committed', { branch: changes.branch, git_range: changes.gitRange, files_changed: changes.filesChanged });
    } catch (error) {
      kept = true;
      input.notice(`could not commit the run's changes (${clip(String(error instanceof Error ? error.message : error), 300)}); the worktree is kept at ${workspace.path}`);
    }
  }
  if (kept) {
    input.notice(`worktree kept at ${workspace.path} (remove it with: git worktree remove --force ${workspace.path})`);
  } else {
    await closeWorkspace(options.repoRoot, workspace);
    input.log.event('workspace_removed', { path: workspace.path });
  }
  return { changes, kept };
}
