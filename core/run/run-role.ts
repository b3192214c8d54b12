/**
 * `runRole`: the main job. Prepare (role, adapter, prompt), open the run log and the
 * workspace, run attempts until one gives a final answer or the retry policy stops, commit
 * the worktree's changes on `supervisor/<run-id>`, clean up, and return one result.
 * Cleanup always runs: the worktree is removed (unless kept) even when something throws.
 * Around the CLI: the user's checkout is recorded before and compared after (a CLI that
 * escaped its worktree fails the run as `escaped_worktree`), processes the run left behind
 * are ended, and a stop signal (Ctrl-C, SIGHUP, SIGTERM) stops packing and committing too.
 */
import { join } from 'node:path';
import { errors, isSupervisorError } from '../errors.ts';
import type { Failure } from '../plugin-api/contracts.ts';
import { describeStop, stopExitCode } from '../process/stop-signals.ts';
import { untilStopped } from './until-stopped.ts';
import { processGroupOf } from '../process/tagged-processes.ts';
import { clip } from './answer.ts';
import { attemptLoop, type LoopOutcome } from './attempt-loop.ts';
import { readBoundGuardAhead } from '../git/bound-git.ts';
import type { WorktreeCheck } from '../git/verified-worktree.ts';
import { compareCheckout, createdRefs, recordCheckout, type CheckoutState } from './checkout-guard.ts';
import { sumMetrics } from './metrics.ts';
import { joinRunOptions, type RunDeps, type RunHooks, type RunRequest, type RunRoleOptions } from './options.ts';
import { prepareRun, roleEditsFiles, type PreparedRun } from './prepare.ts';
import { nothingToReviewNotice } from './review-notice.ts';
import { needsEarlyPlace, openEarly, type EarlyPlace } from './run-place.ts';
import { roleEnv } from './request.ts';
import { changeNotices } from './change-notices.ts';
import { snakeKeys } from '../text/snake-keys.ts';
import { exitCodeFor, failureIssue, issuesOf, type RunResult } from './result.ts';
import { statusForFailure, type StopReason } from './retry-policy.ts';
import { recoverStaleWorktrees } from './recover.ts';
import { RunLog } from './run-log.ts';
import { setUpRun } from './run-setup.ts';
import { describeTargets, endRunProcesses, startRunStandby } from './run-processes.ts';
import { checkStateFilesEarly, ensureStateDir } from '../state-dir.ts';
import type { RunStatus } from './status-map.ts';
import { checkSavedWorktree, closeWorkspace, inspectRepo, type RepoState } from './worktree.ts';
import { finishWorkspace, logEarlyWorkspace, logWorkspaceAhead } from './run-workspace.ts';
import { workspaceAhead, type WorkspaceAhead } from './workspace-ahead.ts';

export type { RunDeps, RunHooks, RunRequest, RunRoleOptions, RunTuning } from './options.ts';
export { splitRunOptions } from './options.ts';
export type { RunResult } from './result.ts';

/** Runs `request` with `deps` (tuning inside: time limits, grace, retries' pacing), telling `hooks`. */
export async function runRole(request: RunRequest, deps: RunDeps, hooks: RunHooks = {}): Promise<RunResult> {
  const options = joinRunOptions(request, deps, hooks);
  const t0 = performance.now(); // duration_ms covers preparing (packing) too
  // Asked while the run is prepared (packing is the long part); a run placed early needs it
  // first. Whether the checkout holds uncommitted work is read from its record (checkout-guard.ts).
  const inspected = untilStopped(inspectRepo(options.repoRoot, { env: options.env, dirty: false }), options.signal);
  // Refused (a bare repository) before any worktree is opened from it, early or ahead.
  const checked = inspected.then((r) => checkedRepo(r, options));
  const stateChecked = checkStateFilesEarly(options.repoRoot).catch(() => {});
  const early = needsEarlyPlace(options) ? await openEarly(options, checked) : null;
  // Any other run's worktree is made while its prompt is packed, once its role is trusted.
  const ahead = early ? null : workspaceAhead(options, checked, stateChecked);
  let prepared: PreparedRun;
  const place = early ? { contextRoot: early.place.contextRoot, ...(early.place.review ? { gitRange: early.place.review } : {}) } : undefined;
  const preparing = prepareRun(options, place, { ahead: true, ...(ahead ? { onTrusted: ahead.start } : {}) });
  try {
    [prepared] = await Promise.all([untilStopped(preparing, options.signal), checked]);
  } catch (error) {
    // What the sandbox started ahead ends once the preparing does (a stop does not wait for it).
    void preparing.then((ready) => ready.sandboxAhead.release(), () => {});
    if (early) await closeWorkspace(options.repoRoot, early.place.workspace, options.env).catch(() => {});
    await ahead?.closeAhead();
    throw error;
  }
  try {
    return await runPrepared(options, { t0, prepared, early, ahead, stateChecked });
  } catch (error) {
    await ahead?.closeAhead(); // a worktree the run had not taken yet (its log failed, say)
    throw error;
  } finally {
    await prepared.sandboxAhead.release();
  }
}

interface Prepared {
  /** When the run began (duration_ms covers preparing too). */
  t0: number;
  prepared: PreparedRun;
  early: EarlyPlace | null;
  /** The worktree made while the prompt was packed (null: placed early). */
  ahead: WorkspaceAhead | null;
  stateChecked: Promise<void>;
}

/** The run once prepared: its log, workspace, attempts, commit and result. */
async function runPrepared(options: RunRoleOptions, { t0, prepared, early, ahead, stateChecked }: Prepared): Promise<RunResult> {
  const { peers, role } = prepared;
  // Placed early, or made while the prompt was packed (started now if the preparing did not).
  const made = early ? null : ahead!.claim(role, peers);
  const { startedAt, runId } = early ?? made!;
  await stateChecked;
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

  // The user's checkout as it is before any CLI runs (a run placed early always has a worktree;
  // the others' is recorded while theirs is made, workspace-ahead.ts).
  const opened = early
    ? Promise.all([logEarlyWorkspace(early.place, log), recordCheckout(options.repoRoot, options.env)])
    : made!.opened.then(async (ready) => {
        const record = await ready.checkout;
        return [logWorkspaceAhead(options, ready, record, log, notice), record] as const;
      });
  // The CLI's cgroup joined ahead (workspace-ahead.ts), else now while the worktree is made; ended
  // with the run's processes, or here when the run stops before its attempts.
  startRunStandby(runId);
  const beforeAttempts = <T>(step: Promise<T>) => step.catch((error: unknown) => endLeftovers(runId, prepared.settings.graceMs, notice).then(() => Promise.reject(error)));
  const [workspace, checkout] = await beforeAttempts(opened);
  ahead?.take();
  // The worktree's driver guard read as the CLI starts, not after it (bound-git.ts).
  if (workspace.git) readBoundGuardAhead(workspace.git, options.env);
  const env = { ...options.env, ...roleEnv(role.name, options.workflow) };
  await beforeAttempts(setUpRun({ options, prepared, workspace, env, runId, log, notice }));
  let loop: LoopOutcome;
  try {
    loop = await attemptLoop({ prepared, log, workspace, runId, env, signal: options.signal, notice });
  } catch (error) {
    // A plugin bug mid-run: what the earlier attempts did is committed (or the worktree kept)
    // like at the end of any run, then the error goes on.
    const interrupted = options.signal?.aborted === true;
    await endLeftovers(runId, prepared.settings.graceMs, notice);
    await finishWorkspace(options, workspace, runId, { status: 'error', interrupted, log, notice }).catch(() => {});
    const detail = isSupervisorError(error) ? { code: error.code, message: error.message } : { code: 'INTERNAL', message: String(error) };
    log.event('run_finished', { status: 'error', exit_code: isSupervisorError(error) ? error.exitCode : 2, error: detail });
    throw error;
  }
  const verdict = judge(loop);
  await endLeftovers(runId, prepared.settings.graceMs, notice);
  // The worktree checked once the CLI's processes are gone: it names the branch the worktree is
  // on (a branch the CLI made there is the run's own) and clears it for the commit.
  const checked = checkSavedWorktree(workspace, options.env) ?? undefined;
  checked?.catch(() => {}); // awaited below; a stop may skip the commit
  const interrupted = verdict.failure?.class === 'interrupted';
  const finish = await finishWorkspace(options, workspace, runId, { status: verdict.status, interrupted, log, notice, ...(checked ? { checked } : {}) });
  if (finish.failure && !interrupted) overrule(verdict, finish.failure);
  // SECURITY I1: compared after our own commit step too (git of ours led astray would show here).
  if (checkout) {
    const { escaped, ownBranches, refs } = await escapedChanges(options, checkout, checked);
    // The refs the CLI created (a CLI's checkpoints), recorded for `gc` to remove exactly these.
    if (refs.length) log.event('refs_created', { refs });
    if (ownBranches.length) notice(`the CLI created branch${ownBranches.length > 1 ? 'es' : ''} ${ownBranches.join(', ')} in your repository (its worktree is on it); the run's work is committed on its own branch`);
    if (escaped) {
      notice(escaped);
      if (verdict.failure?.class !== 'interrupted') overrule(verdict, { class: 'escaped_worktree', detail: escaped });
    }
  }
  // Stopped while the work was being saved: the run is interrupted, not a pass.
  if (options.signal?.aborted && verdict.failure?.class !== 'interrupted') {
    log.event('interrupted', { while: 'saving the run\'s work' });
    overrule(verdict, { class: 'interrupted', detail: `stopped by ${describeStop(options.signal.reason)} while the run's work was being saved` });
  }
  const { status, output, issues, failure, stop } = verdict;
  const filesChanged = workspace.mode === 'worktree' ? (finish.changes?.filesChanged ?? []) : null;
  const changeCheck = { output, filesChanged, allowEdits: roleEditsFiles(role), role: role.name, branch: finish.changes?.branch ?? null };
  for (const message of changeNotices(changeCheck)) notice(message);
  const finishedAt = peers.now();
  const result: RunResult = {
    run_id: runId,
    role: role.name,
    base_role: role.base_role,
    cli: prepared.adapterName,
    status,
    exit_code: failure?.class === 'interrupted' ? stopExitCode(options.signal?.reason) : exitCodeFor(status, failure),
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
    files_changed: filesChanged,
    worktree: { mode: workspace.mode, path: workspace.path, kept: finish.kept, reason: workspace.reason },
    run_dir: log.dir,
    workflow_id: options.workflow?.id ?? null,
    task_id: options.workflow?.task ?? null,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    notices,
  };
  log.writeJson('result.json', result);
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
    ...(options.workflow ? { workflow_id: options.workflow.id, task_id: options.workflow.task, round: options.workflow.round } : {}),
    pid: process.pid,
    pgid: processGroupOf(process.pid),
    settings: snakeKeys(prepared.settings),
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
    left_out: built.stats.leftOut ?? [],
    truncated: built.stats.truncated ?? [],
  });
}

/** Processes of the run that outlived their CLI (a daemon that left the process group): ended. */
async function endLeftovers(runId: string, graceMs: number, notice: (m: string) => void): Promise<void> {
  const ended = await endRunProcesses(runId, [], graceMs);
  if (ended.signalled.length) notice(`ended processes the run left running after its CLI exited: ${describeTargets(ended.signalled)}`);
  if (ended.remaining.length) notice(`could not end processes of the run: ${describeTargets(ended.remaining)}`);
}

/**
 * What the CLI changed in the user's checkout or branch list, as one sentence (null: nothing),
 * and the branches it created that its own worktree is on (named, not a failure).
 */
async function escapedChanges(options: RunRoleOptions, before: CheckoutState, checked: Promise<WorktreeCheck> | undefined): Promise<{ escaped: string | null; ownBranches: string[]; refs: { ref: string; oid: string }[] }> {
  const [after, check] = await Promise.all([recordCheckout(options.repoRoot, options.env, before), checked?.catch(() => null)]);
  // A stop may end the git that records the checkout: a half-read record proves nothing.
  if (!before.complete || !after.complete) return { escaped: null, ownBranches: [], refs: [] };
  const own = check?.branchRef ? [check.branchRef.replace(/^refs\/heads\//, '')] : [];
  const { changes, createdBranches } = compareCheckout(before, after, own);
  const ownBranches = createdBranches.filter((b) => own.includes(b));
  return { escaped: changes.length ? `the CLI changed your repository outside its worktree: ${changes.join('; ')}` : null, ownBranches, refs: createdRefs(before, after) };
}

interface Verdict {
  status: RunStatus;
  output: Record<string, unknown> | null;
  issues: string[];
  failure: Failure | null;
  stop: StopReason | null;
}

/** A failure found after the attempts (the checkout, the commit, a stop) decides the run. */
function overrule(verdict: Verdict, failure: Failure): void {
  verdict.status = 'error';
  verdict.failure = failure;
  verdict.stop = 'not_retryable';
  verdict.issues.push(failureIssue(failure, null));
}

/** The run's verdict from its last attempt: status, answer, issues, failure and why it stopped. */
function judge(loop: LoopOutcome): Verdict {
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

/** The repository, refused when bare: no checkout to isolate, and in place the CLI would write into git's own files. */
function checkedRepo(repo: RepoState, options: RunRoleOptions): RepoState {
  if (repo.bare) throw errors.bareRepository(options.repoRoot);
  return repo;
}
