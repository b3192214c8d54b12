/**
 * `workflow run` and `workflow resume`: set up (state folder, integration branch at the base),
 * schedule the tasks, and write the result. A new run never continues an earlier one: an
 * unfinished run of the same plan is refused with the command that resumes it; a finished one
 * leaves its id and branches alone and the new run gets `<id>-2`, `-3`, ...
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { resolveCommit } from '../../engine/start-point.ts';
import { endProcesses } from '../../process/end-processes.ts';
import { DEFAULT_GRACE_MS } from '../../process/run-process.ts';
import { processesTaggedWith } from '../../process/tagged-processes.ts';
import { alive } from '../../engine/runs-store.ts';
import type { WorkflowTask } from '../model.ts';
import { notice, recordMetrics, setState, type Engine, type TaskRecord, type WorkflowRunOptions } from './context.ts';
import { engineErrors } from './errors.ts';
import { ensureBranch, removeWorktree, revParse, type GitOps } from './git-ops.ts';
import { gatesWorktree, integrationBranch, slotsDir, taskBranch, workflowPaths } from './names.ts';
import { addMetrics, emptyMetrics, workflowExitCode, type WorkflowResult, type WorkflowStatus } from './result.ts';
import { schedule } from './schedule.ts';
import { finalGates } from './final-gates.ts';
import { CostLedger, DEFAULT_MIN_RUN_USD } from './ledger.ts';
import { noPause } from './quota.ts';
import { lastSettings, restore } from './restore.ts';
import { FINAL_TASK_STATES, listWorkflowIds, ownerPid, WorkflowStore } from './store.ts';

const DEFAULT_JOBS = 2;

function newRecord(workflowId: string, task: WorkflowTask): TaskRecord {
  return { task, branch: taskBranch(workflowId, task.id), state: 'pending', round: 0, rounds: 0, issues: [], runs: [], failedExitCode: null, why: null, resumeAt: null, feedback: null };
}

function unfinished(store: WorkflowStore): boolean {
  const result = store.result();
  return !result || result.status === 'interrupted' || result.status === 'stopped';
}

/**
 * The first free id: the plan's, else `<id>-2`, `-3`, ... (a finished run keeps its own). An
 * unfinished run of the same file, even of an edited version of it, is refused with the command
 * that resumes it: a new run never quietly starts beside it.
 */
async function freshId(options: WorkflowRunOptions, ops: GitOps): Promise<string> {
  const id = options.workflow.id;
  for (const other of listWorkflowIds(options.repoRoot)) {
    const store = new WorkflowStore(options.repoRoot, other);
    if (store.plan().source.file === options.workflow.source.file && unfinished(store)) throw engineErrors.unfinished(other, options.workflow.source.file);
  }
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? id : `${id}-${n}`;
    const store = new WorkflowStore(options.repoRoot, candidate);
    if (store.exists()) {
      if (unfinished(store)) throw engineErrors.unfinished(candidate, options.workflow.source.file);
      continue;
    }
    if (await revParse(ops, `refs/heads/${integrationBranch(candidate)}`)) continue;
    return candidate;
  }
}

function makeEngine(options: WorkflowRunOptions, id: string, base: string, store: WorkflowStore, runRole: Engine['runRole']): Engine {
  const workflow = { ...options.workflow, id };
  const maxCost = options.maxCostUsd ?? workflow.max_cost_usd;
  return {
    options: { ...options, workflow },
    workflow,
    store,
    ops: { repoRoot: options.repoRoot, env: options.env },
    paths: workflowPaths(options.repoRoot, id),
    integration: integrationBranch(id),
    base,
    jobs: Math.max(1, Math.floor(options.jobs ?? workflow.jobs ?? DEFAULT_JOBS)),
    tasks: new Map(workflow.tasks.map((t) => [t.id, newRecord(id, t)])),
    ledger: new CostLedger(maxCost ?? null, options.minRunUsd ?? DEFAULT_MIN_RUN_USD),
    maxCostUsd: maxCost ?? null,
    halt: null,
    haltReason: null,
    quota: noPause(),
    queue: { candidates: 0, waited_ms: 0, gates_ms: 0 },
    notices: [],
    gates: { passed: null, failed: null },
    slots: [],
    freeSlots: [],
    generation: 0,
    integrationLock: Promise.resolve(),
    runRole,
  };
}

async function defaultRunRole(): Promise<Engine['runRole']> {
  return (await import('../../engine/run-role.ts')).runRole;
}

export async function runWorkflow(options: WorkflowRunOptions): Promise<WorkflowResult> {
  const ops: GitOps = { repoRoot: options.repoRoot, env: options.env };
  const id = await freshId(options, ops);
  // Named as the user gave it: a plan's `**Plan Baseline:**` from another repository is common, and --base overrides it.
  const baseFrom = options.base !== undefined ? '--base' : options.workflow.base !== null ? "the plan's base (--base overrides it):" : 'HEAD';
  const base = await resolveCommit(options.repoRoot, options.base ?? options.workflow.base ?? 'HEAD', baseFrom, options.env);
  const store = new WorkflowStore(options.repoRoot, id, options.now);
  const engine = makeEngine(options, id, base, store, options.runRole ?? (await defaultRunRole()));
  store.create(engine.workflow);
  await ensureBranch(ops, engine.integration, base);
  store.event('workflow_started', {
    workflow_id: id,
    file: options.workflow.source.file,
    base,
    branch: engine.integration,
    jobs: engine.jobs,
    max_cost_usd: engine.maxCostUsd,
    min_run_usd: options.minRunUsd ?? null,
    quota_wait_ms: options.quotaWaitMs ?? null,
    max_rounds: options.maxRounds ?? null,
    cli: options.cli ?? null,
    pid: process.pid,
  });
  for (const record of engine.tasks.values()) setState(engine, record, 'pending');
  return drive(engine);
}

/**
 * Opens a recorded workflow again (resume, retry): its settings, a new engine, orphans ended,
 * stale slots dropped, the task records rebuilt from the events. `check` refuses what the
 * command cannot continue; `extra` goes into the workflow_resumed event.
 */
export async function reopenWorkflow(id: string, options: Omit<WorkflowRunOptions, 'workflow'>, check: (finished: WorkflowResult | null) => void, extra: Record<string, unknown> = {}): Promise<Engine> {
  const store = new WorkflowStore(options.repoRoot, id, options.now);
  if (!store.exists()) throw engineErrors.notFound(id, listWorkflowIds(options.repoRoot));
  const events = store.events();
  const pid = ownerPid(events);
  if (pid !== null && pid !== process.pid && alive(pid)) throw engineErrors.busy(id, pid);
  check(store.result());
  const started = lastSettings(events);
  const workflow = store.plan();
  const cli = (options.cli ?? started.cli ?? undefined) as WorkflowRunOptions['cli'];
  const merged: WorkflowRunOptions = {
    ...options,
    workflow,
    jobs: options.jobs ?? (started.jobs as number | undefined),
    maxCostUsd: options.maxCostUsd ?? ((started.max_cost_usd as number | null) ?? undefined),
    minRunUsd: options.minRunUsd ?? ((started.min_run_usd as number | null) ?? undefined),
    quotaWaitMs: options.quotaWaitMs ?? ((started.quota_wait_ms as number | null) ?? undefined),
    maxRounds: options.maxRounds ?? ((started.max_rounds as number | null) ?? undefined),
    ...(cli ? { cli } : {}),
  };
  const engine = makeEngine(merged, id, String(started.base), store, options.runRole ?? (await defaultRunRole()));
  store.event('workflow_resumed', { workflow_id: id, pid: process.pid, jobs: engine.jobs, max_cost_usd: engine.maxCostUsd, min_run_usd: options.minRunUsd ?? null, quota_wait_ms: options.quotaWaitMs ?? null, ...extra });
  await ensureBranch(engine.ops, engine.integration, engine.base);
  engine.generation = events.filter((e) => e.kind === 'workflow_resumed').length + 1;
  await endOrphans(engine, id);
  await dropStaleSlots(engine);
  await restore(engine, events);
  return engine;
}

export async function resumeWorkflow(id: string, options: Omit<WorkflowRunOptions, 'workflow'>): Promise<WorkflowResult> {
  const engine = await reopenWorkflow(id, options, (finished) => {
    if (finished && finished.status !== 'interrupted' && finished.status !== 'stopped') throw engineErrors.finished(id, finished.status);
  });
  return drive(engine);
}

export async function drive(engine: Engine): Promise<WorkflowResult> {
  const startedAt = engine.options.now?.() ?? new Date();
  try {
    await schedule(engine);
    await finalGates(engine);
  } finally {
    await cleanUp(engine);
  }
  return finishResult(engine, startedAt);
}

/** The worktree slots go (the branches hold the work); so does the gates' worktree. */
async function cleanUp(engine: Engine): Promise<void> {
  await Promise.all([...engine.slots, gatesWorktree(engine.paths)].map((path) => (existsSync(path) ? removeWorktree(engine.ops, path).catch(() => {}) : undefined)));
}

/**
 * A CLI orphaned by a kill -9 of the workflow may still be running (and committing on its task
 * branch): every process carrying this workflow's id is ended before anything is picked up.
 */
async function endOrphans(engine: Engine, id: string): Promise<void> {
  const ended = await endProcesses(processesTaggedWith('SUPERVISOR_WORKFLOW_ID', id), engine.options.runDefaults?.graceMs ?? DEFAULT_GRACE_MS);
  if (ended.signalled.length) notice(engine, `resume: ended ${ended.signalled.length} process${ended.signalled.length === 1 ? '' : 'es'} left running by the interrupted workflow (pids ${ended.signalled.join(', ')})`);
  if (ended.remaining.length) throw engineErrors.busy(id, ended.remaining[0]!);
}

/**
 * Slots a killed run left go (their branches are then free to check out again); anything
 * uncommitted in them is dropped, as a task caught mid-run restarts from its branch's last
 * commit. New slots get new names, so a CLI the kill orphaned cannot write into them.
 */
async function dropStaleSlots(engine: Engine): Promise<void> {
  const dir = slotsDir(engine.paths);
  if (!existsSync(dir)) return;
  await Promise.all(readdirSync(dir).map((name) => removeWorktree(engine.ops, join(dir, name)).catch(() => {})));
}

function statusOf(engine: Engine): WorkflowStatus {
  const records = [...engine.tasks.values()];
  if (engine.options.signal?.aborted) return 'interrupted';
  const unfinished = records.some((r) => !FINAL_TASK_STATES.includes(r.state));
  if (unfinished) return engine.halt === 'interrupted' ? 'interrupted' : 'stopped';
  // With gates, pass needs them passed on the final tip (a kill during the gates is no pass).
  if (records.every((r) => r.state === 'integrated') && (engine.workflow.gates.length === 0 || engine.gates.passed === true)) return 'pass';
  return 'gaps';
}

async function finishResult(engine: Engine, startedAt: Date): Promise<WorkflowResult> {
  const status = statusOf(engine);
  for (const record of engine.tasks.values()) {
    if (FINAL_TASK_STATES.includes(record.state) || record.state === 'pending') continue;
    // Caught mid-run by Ctrl-C, the ceiling or a quota: pending again, resumable.
    setState(engine, record, 'pending', { reason: `${status}: ${engine.haltReason ?? (status === 'interrupted' ? `interrupted in round ${record.round}` : 'the workflow stopped')}; resume continues it from ${record.branch}` });
  }
  if (status === 'gaps' && engine.gates.passed === false) notice(engine, `the workflow's gate \`${engine.gates.failed}\` fails on ${engine.integration}`);
  const tip = (await revParse(engine.ops, `refs/heads/${engine.integration}`)) ?? engine.base;
  const tasks = [...engine.tasks.values()].map((record) => ({
    id: record.task.id,
    title: record.task.title,
    status: record.state,
    rounds: record.rounds,
    branch: record.branch,
    issues: record.issues,
    why: record.why,
    metrics: recordMetrics(record),
    runs: record.runs.map(({ input_tokens: _i, output_tokens: _o, duration_ms: _d, cost_known: _k, ...run }) => run),
  }));
  const failedCodes = [...engine.tasks.values()].filter((r) => r.state === 'error').map((r) => r.failedExitCode ?? 1);
  const onlyErrors = [...engine.tasks.values()].every((r) => ['integrated', 'error', 'skipped'].includes(r.state));
  const result: WorkflowResult = {
    workflow_id: engine.workflow.id,
    name: engine.workflow.name,
    status,
    exit_code: workflowExitCode(status, onlyErrors && engine.gates.passed !== false ? failedCodes : [], engine.options.signal?.reason),
    branch: engine.integration,
    git_range: `${engine.base}..${tip}`,
    tasks,
    gates: { passed: engine.gates.passed, failed: engine.gates.failed },
    budget: engine.ledger.summary(),
    merge_queue: { gates_on: engine.workflow.gates.length ? (engine.workflow.gates_on ?? 'merge') : null, ...engine.queue },
    stop_reason: status === 'stopped' ? engine.haltReason : null,
    retries: engine.store.events().filter((e) => e.kind === 'workflow_resumed' && e.retry === true).map((e) => ({ at: e.ts, tasks: (e.tasks as string[]) ?? [], fresh: e.fresh === true })),
    metrics: tasks.reduce((sum, t) => addMetrics(sum, t.metrics), emptyMetrics()),
    notices: engine.notices,
    state_dir: engine.store.dir,
    started_at: startedAt.toISOString(),
    finished_at: (engine.options.now?.() ?? new Date()).toISOString(),
  };
  engine.store.writeResult(result);
  engine.store.event('workflow_finished', { status, exit_code: result.exit_code, tip, worktree_slots: engine.slots.length });
  return result;
}
