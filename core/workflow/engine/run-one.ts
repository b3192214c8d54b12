/**
 * One run of a role for a task, through `runRole` (the single-step engine's only door): the
 * CLI chosen (--cli ROLE=NAME, --cli NAME, the task's cli, its model through the model table,
 * the plan's default, else the role's own), what is left of the cost ceiling, the workflow's
 * ids in the environment, the run recorded in the task and the events.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, isSupervisorError } from '../../errors.ts';
import type { RunResult, RunRoleOptions } from '../../engine/run-role.ts';
import { notice, setState, type Engine, type TaskRecord } from './context.ts';

export type RunOutcome = { kind: 'ran'; result: RunResult } | { kind: 'halted' } | { kind: 'failed'; exitCode: number; issue: string };

export function cliFor(engine: Engine, record: TaskRecord, role: string): string | undefined {
  const { cli, cliForModel } = engine.options;
  const { task } = record;
  const fromModel = task.model && cliForModel ? cliForModel(task.model, engine.workflow.models) : null;
  return cli?.byRole[role] ?? cli?.all ?? task.cli ?? fromModel ?? engine.workflow.defaults.cli ?? undefined;
}

/** Stops starting runs once the ceiling is reached; the workflow then ends `stopped`, resumable with a higher one. */
function remainingBudget(engine: Engine): number | undefined | null {
  if (engine.maxCostUsd === null) return undefined;
  const left = engine.maxCostUsd - engine.spent;
  if (left > 0) return left;
  if (engine.halt === null) {
    engine.halt = 'stopped';
    notice(engine, `the cost ceiling of $${engine.maxCostUsd} is reached ($${engine.spent.toFixed(4)} spent): no new run starts; resume with a higher --max-cost-usd`);
  }
  return null;
}

export async function runOne(
  engine: Engine,
  record: TaskRecord,
  role: string,
  extra: Pick<RunRoleOptions, 'task' | 'workspace' | 'review' | 'targets' | 'gates'>,
): Promise<RunOutcome> {
  if (engine.halt || engine.options.signal?.aborted) return { kind: 'halted' };
  const budget = remainingBudget(engine);
  if (budget === null) return { kind: 'halted' };
  const { options } = engine;
  const cli = cliFor(engine, record, role);
  const model = record.task.model ?? engine.workflow.defaults.model ?? undefined;
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
    workflow: { id: engine.workflow.id, task: record.task.id, round: record.round },
    ...(cli ? { cli } : {}),
    ...(model ? { model } : {}),
    ...(budget === undefined ? {} : { maxCostUsd: budget }),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onEvent: (event) => {
      if (event.kind !== 'run_started') return;
      started.run_id = String(event.run_id);
      engine.store.event('run_started', { task: record.task.id, role, round: record.round, run_id: event.run_id, cli: event.cli });
    },
    onNotice: (message) => notice(engine, `${record.task.id} (${role}, round ${record.round}): ${message}`),
  };
  let result: RunResult;
  try {
    result = await engine.runRole(runOptions);
  } catch (error) {
    if (options.signal?.aborted) return { kind: 'halted' };
    const message = error instanceof Error ? error.message : String(error);
    const exitCode = isSupervisorError(error) ? error.exitCode : EXIT.usage;
    engine.store.event('run_finished', { task: record.task.id, role, round: record.round, run_id: started.run_id, status: 'error', exit_code: exitCode, error: message });
    return { kind: 'failed', exitCode, issue: `${role} could not run: ${message}` };
  }
  const cost = result.metrics.cost_usd;
  engine.spent += cost ?? 0;
  record.runs.push({
    run_id: result.run_id,
    role,
    round: record.round,
    cli: result.cli,
    status: result.status,
    exit_code: result.exit_code,
    cost_usd: cost,
    started_at: result.started_at,
    finished_at: result.finished_at,
    input_tokens: result.metrics.input_tokens,
    output_tokens: result.metrics.output_tokens,
    duration_ms: result.metrics.duration_ms,
    cost_known: result.metrics.cost_known,
  });
  engine.store.event('run_finished', {
    task: record.task.id,
    role,
    round: record.round,
    run_id: result.run_id,
    cli: result.cli,
    status: result.status,
    exit_code: result.exit_code,
    cost_usd: cost,
    cost_known: result.metrics.cost_known,
    input_tokens: result.metrics.input_tokens,
    output_tokens: result.metrics.output_tokens,
    duration_ms: result.metrics.duration_ms,
    started_at: result.started_at,
    finished_at: result.finished_at,
    git_range: result.git_range,
  });
  // Interrupted (130, or 129/143 for a hang-up or TERM): the task is not judged on this run.
  if (result.exit_code === EXIT.interrupted || options.signal?.aborted) return { kind: 'halted' };
  return { kind: 'ran', result };
}

/** The task's files that exist in its worktree, as targets. */
export function existingTargets(worktree: string, files: string[]): string[] {
  return files.filter((file) => !file.includes('*') && existsSync(join(worktree, file)));
}
