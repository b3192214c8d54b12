/**
 * One run of a role for a task, through `runRole` (the single-step engine's only door): the
 * CLI chosen (--cli ROLE=NAME, --cli NAME, the task's cli, its model through the model table,
 * the plan's default, else the role's own), what is left of the cost ceiling, the workflow's
 * ids in the environment, the run recorded in the task and the events. Each run reserves its
 * share of the cost ceiling first (ledger.ts); a quota or rate limit pauses every run (quota.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, isSupervisorError } from '../../errors.ts';
import { splitRunOptions } from '../../run/options.ts';
import type { RunResult, RunRoleOptions } from '../../run/run-role.ts';
import { plannedCli, plannedModel } from '../run-plan.ts';
import { formatUsd } from '../../money.ts';
import { notice, setState, type Engine, type TaskRecord } from './context.ts';
import { DEFAULT_QUOTA_WAIT_MS, isQuotaFailure, nextPause, noPause } from './quota.ts';

export type RunOutcome = { kind: 'ran'; result: RunResult } | { kind: 'halted' } | { kind: 'failed'; exitCode: number; issue: string };

export function cliFor(engine: Engine, record: TaskRecord, role: string): string | undefined {
  return plannedCli({ ...engine.options, workflow: engine.workflow }, record.task, role);
}

/** Halts the workflow (nothing new starts; it ends `stopped`, resumable) with the reason, once. */
export function haltStopped(engine: Engine, reason: string): void {
  if (engine.halt !== null) return;
  engine.halt = 'stopped';
  engine.haltReason = reason;
  notice(engine, reason);
}

/** A reservation of the ceiling for one run; null: the ceiling is reached (the workflow halts). */
function reserve(engine: Engine): { id: number; budget: number | undefined } | null {
  const reserved = engine.ledger.reserve(engine.jobs);
  if (reserved.ok) return { id: reserved.id, budget: reserved.budgetUsd };
  const { ceiling_usd, min_run_usd } = engine.ledger.summary();
  haltStopped(
    engine,
    `the cost ceiling of ${formatUsd(ceiling_usd ?? 0)} is reached (${formatUsd(engine.ledger.spentUsd)} spent, ${formatUsd(reserved.leftUsd)} left, below the ${formatUsd(min_run_usd)} a run needs): no new run starts; resume with a higher --max-cost-usd`,
  );
  return null;
}

/** What a run stopped at its budget reached: the ceiling itself, or only the run's share of it (then fewer jobs or a higher ceiling give a run more). */
function budgetReached(engine: Engine, budget: number | undefined): string {
  if (engine.maxCostUsd === null || budget === undefined) return "the role's max_budget_usd is reached: raise it, or set a --max-cost-usd for the workflow";
  const { min_run_usd } = engine.ledger.summary();
  const spent = formatUsd(engine.ledger.spentUsd);
  if (engine.ledger.leftUsd() < min_run_usd) return `the cost ceiling of ${formatUsd(engine.maxCostUsd)} is reached (${spent} spent): resume with a higher --max-cost-usd`;
  return `that is the run's share of the ceiling of ${formatUsd(engine.maxCostUsd)} (${spent} spent, ${formatUsd(engine.ledger.leftUsd())} left, shared among --jobs ${engine.jobs}), not the ceiling: resume with a higher --max-cost-usd, or fewer --jobs for a larger share`;
}

/** Waits out a quota pause before a run starts; false when the workflow halted meanwhile. */
async function waitForQuota(engine: Engine): Promise<boolean> {
  const { clock } = engine;
  while (!engine.halt && !engine.options.signal?.aborted && clock.now() < engine.quota.until) {
    await clock.sleep(Math.min(engine.quota.until - clock.now(), 250), engine.options.signal);
  }
  return !engine.halt && !engine.options.signal?.aborted;
}

/**
 * A run that ended on a quota or rate limit: the workflow pauses (every task's next run waits)
 * and this run is tried again; past the quota wait the workflow halts. True: try again.
 */
function pauseForQuota(engine: Engine, record: TaskRecord, role: string, result: RunResult): boolean {
  const detail = result.failure?.detail ?? 'a rate limit';
  const now = engine.clock.now();
  const next = nextPause(engine.quota, detail, now, engine.options.quotaWaitMs ?? DEFAULT_QUOTA_WAIT_MS);
  if (!next) {
    haltStopped(engine, `${record.task.id} (${role}): the CLI's quota or rate limit did not lift within the quota wait of ${Math.round((engine.options.quotaWaitMs ?? DEFAULT_QUOTA_WAIT_MS) / 1000)}s (${detail}); resume later`);
    return false;
  }
  const fresh = next.until > engine.quota.until;
  engine.quota = next;
  if (fresh) {
    engine.store.append('quota_pause', { task: record.task.id, role, run_id: result.run_id, until: new Date(next.until).toISOString(), wait_ms: next.until - now, detail });
    notice(engine, `${record.task.id} (${role}): quota or rate limit (${detail}); no new run starts for ${Math.ceil((next.until - now) / 1000)}s, then the run is tried again`);
  }
  return true;
}

/** A run that ended without a quota failure ends the streak; a pause that was on is announced over. */
function quotaLifted(engine: Engine): void {
  if (engine.quota.since === null) return;
  const waited = engine.clock.now() - engine.quota.since;
  engine.quota = noPause();
  engine.store.append('quota_resumed', { waited_ms: waited });
  notice(engine, `the quota pause is over after ${Math.round(waited / 1000)}s: runs start again`);
}

export async function runOne(
  engine: Engine,
  record: TaskRecord,
  role: string,
  extra: Pick<RunRoleOptions, 'task' | 'workspace' | 'review' | 'targets' | 'gates'>,
): Promise<RunOutcome> {
  for (;;) {
    if (!(await waitForQuota(engine))) return { kind: 'halted' };
    const outcome = await runOnce(engine, record, role, extra);
    if (outcome.kind === 'ran' && isQuotaFailure(outcome.result)) {
      if (pauseForQuota(engine, record, role, outcome.result)) continue;
      setState(engine, record, 'pending', { reason: engine.haltReason ?? 'quota' });
      return { kind: 'halted' };
    }
    if (outcome.kind === 'ran') quotaLifted(engine);
    return outcome;
  }
}

async function runOnce(
  engine: Engine,
  record: TaskRecord,
  role: string,
  extra: Pick<RunRoleOptions, 'task' | 'workspace' | 'review' | 'targets' | 'gates'>,
): Promise<RunOutcome> {
  if (engine.halt || engine.options.signal?.aborted) return { kind: 'halted' };
  const reservation = reserve(engine);
  if (reservation === null) return { kind: 'halted' };
  const budget = reservation.budget;
  const { options } = engine;
  const cli = cliFor(engine, record, role);
  const model = plannedModel(engine.workflow, record.task) ?? undefined;
  setState(engine, record, 'running', { role, ...(cli ? { cli } : {}) });
  const started = { run_id: null as string | null };
  const runOptions: RunRoleOptions = {
    ...options.runDefaults,
    ...extra,
    role,
    repoRoot: options.repoRoot,
    homeDir: options.homeDir,
    env: options.env,
    registry: options.registry,
    workflow: { id: engine.workflow.id, task: record.task.id, round: record.round, stateDir: engine.store.dir },
    ...(cli ? { cli } : {}),
    ...(model ? { model } : {}),
    ...(record.task.allowed_commands?.length ? { allowCommands: [...(options.runDefaults?.allowCommands ?? []), ...record.task.allowed_commands] } : {}),
    ...(budget === undefined ? {} : { maxCostUsd: budget }),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onEvent: (event) => {
      if (event.kind !== 'run_started') return;
      started.run_id = String(event.run_id);
      engine.store.append('run_started', { task: record.task.id, role, round: record.round, run_id: String(event.run_id), cli: typeof event.cli === 'string' ? event.cli : null });
    },
    onNotice: (message) => notice(engine, `${record.task.id} (${role}, round ${record.round}): ${message}`),
  };
  let result: RunResult;
  try {
    const { request, deps, hooks } = splitRunOptions(runOptions);
    result = await engine.runRole(request, deps, hooks);
  } catch (error) {
    engine.ledger.settle(reservation.id, 0);
    if (options.signal?.aborted) return { kind: 'halted' };
    const message = error instanceof Error ? error.message : String(error);
    const exitCode = isSupervisorError(error) ? error.exitCode : EXIT.usage;
    engine.store.append('run_finished', { task: record.task.id, role, round: record.round, run_id: started.run_id, status: 'error', exit_code: exitCode, error: message });
    return { kind: 'failed', exitCode, issue: `${role} could not run: ${message}` };
  }
  const cost = result.metrics.cost_usd;
  engine.ledger.settle(reservation.id, result.metrics.cost_known === false ? null : (cost ?? 0));
  if (result.metrics.cost_known === false && engine.ledger.hasCeiling && engine.ledger.unknownCostRuns === 1) {
    notice(engine, `the cost ceiling cannot be enforced: ${result.cli} reported no cost for run ${result.run_id}, and its tokens or its model's price are unknown (see the price table: ~/.supervisor/prices.yaml adds models); runs of unknown cost are counted as unknown, not as $0`);
  }
  engine.store.append('run_finished', {
    task: record.task.id,
    role,
    round: record.round,
    run_id: result.run_id,
    cli: result.cli,
    status: result.status,
    exit_code: result.exit_code,
    cost_usd: cost,
    cost_known: result.metrics.cost_known,
    cost_source: result.metrics.cost_source ?? null,
    input_tokens: result.metrics.input_tokens,
    output_tokens: result.metrics.output_tokens,
    duration_ms: result.metrics.duration_ms,
    started_at: result.started_at,
    finished_at: result.finished_at,
    git_range: result.git_range,
    issues: result.issues,
    ...(result.failure ? { failure: result.failure } : {}),
  });
  // Interrupted (130, or 129/143 for a hang-up or TERM): the task is not judged on this run.
  if (result.exit_code === EXIT.interrupted || options.signal?.aborted) return { kind: 'halted' };
  if (result.failure?.class === 'max_budget') {
    // Its budget was its share of the ceiling: the task waits (pending, its branch kept) for a higher one.
    haltStopped(engine, `${record.task.id} (${role}, round ${record.round}): run ${result.run_id} stopped at its budget of ${formatUsd(budget ?? 0)} (${result.failure.detail}); ${budgetReached(engine, budget)}`);
    setState(engine, record, 'pending', { reason: `budget: run ${result.run_id} (${role}, round ${record.round}) stopped at its budget of ${formatUsd(budget ?? 0)}; ${record.branch} is kept` });
    return { kind: 'halted' };
  }
  return { kind: 'ran', result };
}

/** The task's files that exist in its worktree, as targets. */
export function existingTargets(worktree: string, files: string[]): string[] {
  return files.filter((file) => !file.includes('*') && existsSync(join(worktree, file)));
}
