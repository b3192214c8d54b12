/**
 * `workflow run` and `workflow resume`: set up (state folder, integration branch at the base),
 * schedule the tasks, and write the result. A new run never continues an earlier one: an
 * unfinished run of the same plan is refused with the command that resumes it; a finished one
 * leaves its id and branches alone and the new run gets `<id>-2`, `-3`, ... (claim-id.ts).
 */
import { resolveCommit } from '../../run/start-point.ts';
import { endProcesses } from '../../process/end-processes.ts';
import { DEFAULT_GRACE_MS } from '../../process/run-process.ts';
import { processesTaggedWith } from '../../process/tagged-processes.ts';
import { errors } from '../../errors.ts';
import { inPlaceReason, inspectRepo } from '../../run/worktree.ts';
import type { WorkflowTask } from '../../plugin-api/workflow-model.ts';
import { refuseUntrustedPlanCommands } from '../plan-commands.ts';
import { notice, setState, taskCost, taskRecord, type Engine, type WorkflowRunOptions } from './context.ts';
import { engineErrors } from './errors.ts';
import type { GitOps, SlotGitOps } from './git-ops.ts';
import { SlotPool } from './slot-pool.ts';
import { leaveSlots, restoreSlots } from './slot-keep.ts';
import { guardIntegration, reportIntegrationMoved } from './integration-guard.ts';
import { IntegrationBranch } from './integration-ref.ts';
import { integrationBranch, taskBranch, workflowPaths } from './names.ts';
import { RESUMABLE, workflowExitCode, type WorkflowResult, type WorkflowStatus } from './result.ts';
import { createEventHooks, type EventHooks } from './event-hooks.ts';
import { schedule } from './schedule.ts';
import { finalGates } from './final-gates.ts';
import { CostLedger, DEFAULT_MIN_RUN_USD } from './ledger.ts';
import { sumMetrics, taskViewsOf } from './task-view.ts';
import { noPause } from './quota.ts';
import { replay, restore } from './restore.ts';
import { applyEvent, foldEvents, initialState } from './state.ts';
import { claimId } from './claim-id.ts';
import { clockOf, dateOf } from './clock.ts';
import { FINAL_TASK_STATES, listWorkflowIds, WorkflowStore } from './store.ts';

const DEFAULT_JOBS = 2;

/** `workflow run` needs a repository with a commit; refused as `run` refuses what it cannot work in. */
async function checkRepository(options: WorkflowRunOptions): Promise<void> {
  const repo = await inspectRepo(options.repoRoot, { env: options.env, dirty: false });
  if (repo.bare) throw errors.bareRepository(options.repoRoot);
  if (!repo.isRepo || !repo.head) throw errors.notARepository(options.repoRoot, inPlaceReason(true, repo) ?? 'not a git repository');
}

function makeEngine(options: WorkflowRunOptions, id: string, base: string, store: WorkflowStore, runRole: Engine['runRole']): Engine {
  const workflow = { ...options.workflow, id };
  const maxCost = options.maxCostUsd ?? workflow.max_cost_usd;
  const state = initialState(workflow);
  const paths = workflowPaths(options.repoRoot, id);
  const ops: SlotGitOps = { repoRoot: options.repoRoot, env: options.env, slots: new SlotPool(paths) };
  const integration = integrationBranch(id);
  const engine: Engine = {
    options: { ...options, workflow },
    workflow,
    store,
    ops,
    paths,
    integration,
    base,
    jobs: Math.max(1, Math.floor(options.jobs ?? workflow.jobs ?? DEFAULT_JOBS)),
    tasks: new Map(workflow.tasks.map((t: WorkflowTask) => [t.id, taskRecord(t, taskBranch(id, t.id), state.tasks.get(t.id)!)])),
    ledger: new CostLedger(maxCost ?? null, options.minRunUsd ?? DEFAULT_MIN_RUN_USD),
    maxCostUsd: maxCost ?? null,
    halt: null,
    haltReason: null,
    quota: noPause(),
    queue: { candidates: 0, waited_ms: 0, gates_ms: 0 },
    notices: [],
    state,
    integrationBranch: new IntegrationBranch(ops, integration),
    runRole,
    hooks: attachHooks(store, options, workflow),
    clock: clockOf(options),
  };
  engine.ops.onIntegrationMoved = (moved) => reportIntegrationMoved(engine, moved);
  // Every event this process writes is applied as it is written: the engine's state is the record's.
  store.onApplied = (event) => applyEvent(state, event);
  return engine;
}

/** The plan's on_event and --on-event, fed every event from the moment the engine exists. */
function attachHooks(store: WorkflowStore, options: WorkflowRunOptions, workflow: WorkflowRunOptions['workflow']): EventHooks {
  const commands = [...(workflow.on_event ?? []), ...(options.onEvent ?? [])];
  const hooks = createEventHooks(commands, { cwd: options.repoRoot, env: { ...options.env, SUPERVISOR_WORKFLOW_ID: workflow.id, SUPERVISOR_WORKFLOW_DIR: store.dir }, ...(options.onNotice ? { onNotice: options.onNotice } : {}) });
  if (commands.length) store.onEvent = (event) => hooks.emit(event);
  return hooks;
}

async function defaultRunRole(): Promise<Engine['runRole']> {
  return (await import('../../run/run-role.ts')).runRole;
}

export async function runWorkflow(options: WorkflowRunOptions): Promise<WorkflowResult> {
  const ops: GitOps = { repoRoot: options.repoRoot, env: options.env };
  refuseUntrustedPlanCommands(options.workflow, options.repoRoot, options.planCommandsTrusted ?? options.runDefaults?.trustedRepo === true);
  // Named as the user gave it: a plan's `**Plan Baseline:**` from another repository is common, and --base overrides it.
  const baseFrom = options.base !== undefined ? '--base' : options.workflow.base !== null ? "the plan's base (--base overrides it):" : 'HEAD';
  // Asked together (each a git on the way to the first task); not a repository is said first.
  const [repository, resolved] = await Promise.allSettled([checkRepository(options), resolveCommit(options.repoRoot, options.base ?? options.workflow.base ?? 'HEAD', baseFrom, options.env)]);
  if (repository.status === 'rejected') throw repository.reason;
  if (resolved.status === 'rejected') throw resolved.reason;
  const base = resolved.value;
  const { store, lock } = await claimId(options, ops);
  try {
    const id = store.id;
    const engine = makeEngine(options, id, base, store, options.runRole ?? (await defaultRunRole()));
    store.create(engine.workflow);
    store.append('workflow_started', {
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
    // The checkout's state is read while the branch is made (only the notice waits for it).
    const checkout = baseFrom === 'HEAD' ? inspectRepo(options.repoRoot, { env: options.env }) : null;
    checkout?.catch(() => {});
    await engine.integrationBranch.open(base);
    if (checkout && (await checkout).dirty) {
      notice(engine, `your checkout has uncommitted changes; the integration branch starts from HEAD (${base.slice(0, 7)}) without them`);
    }
    for (const record of engine.tasks.values()) setState(engine, record, 'pending');
    options.onStart?.({ workflow_id: id, branch: engine.integration });
    return await drive(engine);
  } finally {
    lock.release();
  }
}

/** How resume and retry continue a recorded workflow. */
export interface Continuation {
  /** Refuses what the command cannot continue (its result read back; null: none yet). */
  check: (finished: WorkflowResult | null) => void;
  /** Fields of the workflow_resumed event (retry: true, its tasks). */
  extra?: Record<string, unknown>;
  /** Changes to the rebuilt records before the tasks are scheduled (retry reopens tasks). */
  prepare?: (engine: Engine) => Promise<void>;
}

/**
 * Continues a recorded workflow (resume, retry) under its lock: its settings, a new engine,
 * orphans ended, stale slots dropped, the task records rebuilt from the events, then scheduled.
 */
export async function continueWorkflow(id: string, options: Omit<WorkflowRunOptions, 'workflow'>, how: Continuation): Promise<WorkflowResult> {
  const store = new WorkflowStore(options.repoRoot, id, dateOf(options));
  if (!store.exists()) throw engineErrors.notFound(id, listWorkflowIds(options.repoRoot));
  const lock = store.lock();
  try {
    return await continueLocked(store, id, options, how);
  } finally {
    lock.release();
  }
}

async function continueLocked(store: WorkflowStore, id: string, options: Omit<WorkflowRunOptions, 'workflow'>, how: Continuation): Promise<WorkflowResult> {
  const { plan: workflow, events, result: finished } = store.read();
  how.check(finished);
  refuseUntrustedPlanCommands(workflow, options.repoRoot, options.planCommandsTrusted ?? options.runDefaults?.trustedRepo === true);
  // The settings a workflow runs with: the start's, then each resume's, then this command's.
  const settings = foldEvents(workflow, events).settings;
  const cli = options.cli ?? settings.cli ?? undefined;
  const merged: WorkflowRunOptions = {
    ...options,
    workflow,
    jobs: options.jobs ?? settings.jobs ?? undefined,
    maxCostUsd: options.maxCostUsd ?? settings.max_cost_usd ?? undefined,
    minRunUsd: options.minRunUsd ?? settings.min_run_usd ?? undefined,
    quotaWaitMs: options.quotaWaitMs ?? settings.quota_wait_ms ?? undefined,
    maxRounds: options.maxRounds ?? settings.max_rounds ?? undefined,
    ...(cli ? { cli } : {}),
  };
  const engine = makeEngine(merged, id, String(settings.base), store, options.runRole ?? (await defaultRunRole()));
  replay(engine, events);
  store.append('workflow_resumed', { workflow_id: id, pid: process.pid, jobs: engine.jobs, max_cost_usd: engine.maxCostUsd, min_run_usd: options.minRunUsd ?? null, quota_wait_ms: options.quotaWaitMs ?? null, ...how.extra });
  await engine.integrationBranch.open(engine.base);
  engine.ops.slots.generation = engine.state.resumes;
  await endOrphans(engine, id);
  // The slots the last command kept come back checked (set-up once); the rest go. New slots get new names.
  await restoreSlots(engine, events);
  await restore(engine);
  await how.prepare?.(engine);
  options.onStart?.({ workflow_id: id, branch: engine.integration });
  return drive(engine);
}

export function resumeWorkflow(id: string, options: Omit<WorkflowRunOptions, 'workflow'>): Promise<WorkflowResult> {
  return continueWorkflow(id, options, {
    check: (finished) => {
      if (finished && !RESUMABLE.includes(finished.status)) throw engineErrors.finished(id, finished.status);
    },
  });
}

/** Tasks this process took over as they stand (integrated earlier, awaiting a person): the live table starts from the record. */
function showRestored(engine: Engine): void {
  for (const record of engine.tasks.values()) {
    if (record.state === 'pending' && record.round === 0) continue;
    engine.options.onProgress?.({ task: record.task.id, state: record.state, round: record.round, cost_usd: taskCost(record), restored: true });
  }
}

async function drive(engine: Engine): Promise<WorkflowResult> {
  const startedAt = new Date(engine.clock.now());
  showRestored(engine);
  try {
    try {
      await schedule(engine);
      await finalGates(engine);
    } finally {
      await cleanUp(engine);
    }
    return await finishResult(engine, startedAt);
  } finally {
    await engine.hooks.drain();
  }
}

/** The worktree slots go (the branches hold the work), or stay for the next command with their set-up (slot-keep.ts). */
async function cleanUp(engine: Engine): Promise<void> {
  await leaveSlots(engine);
}

/**
 * A CLI orphaned by a kill -9 of the workflow may still be running (and committing on its task
 * branch): every process carrying this workflow's state folder is ended before anything is
 * picked up (by its folder, not its id: another repository's workflow may have the same id).
 */
async function endOrphans(engine: Engine, id: string): Promise<void> {
  const ended = await endProcesses(processesTaggedWith('SUPERVISOR_WORKFLOW_DIR', engine.store.dir), engine.options.runDefaults?.graceMs ?? DEFAULT_GRACE_MS);
  if (ended.signalled.length) notice(engine, `resume: ended ${ended.signalled.length} process${ended.signalled.length === 1 ? '' : 'es'} left running by the interrupted workflow (pids ${ended.signalled.join(', ')})`);
  if (ended.remaining.length) throw engineErrors.busy(id, ended.remaining[0]!);
}


function statusOf(engine: Engine, tip: string): WorkflowStatus {
  const records = [...engine.tasks.values()];
  if (engine.options.signal?.aborted) return 'interrupted';
  const unfinished = records.some((r) => !FINAL_TASK_STATES.includes(r.state));
  if (unfinished) {
    if (engine.halt === 'interrupted') return 'interrupted';
    return !engine.halt && records.some((r) => r.state === 'awaiting_approval') ? 'awaiting_approval' : 'stopped';
  }
  // With gates, pass needs them passed on the final tip itself (a kill during the gates, or gates that judged a commit a CLI put there, is no pass).
  const gatesPassed = engine.state.gates.passed === true && engine.state.gates.tip === tip;
  if (records.every((r) => r.state === 'integrated') && (engine.workflow.gates.length === 0 || gatesPassed)) return 'pass';
  return 'gaps';
}

async function finishResult(engine: Engine, startedAt: Date): Promise<WorkflowResult> {
  await guardIntegration(engine);
  // Where the engine left the branch (guardIntegration put it back there if a CLI moved it).
  const tip = await engine.integrationBranch.known().catch(() => engine.base);
  const status = statusOf(engine, tip);
  for (const record of engine.tasks.values()) {
    if (FINAL_TASK_STATES.includes(record.state) || record.state === 'pending' || record.state === 'awaiting_approval') continue;
    // Caught mid-run by Ctrl-C, the ceiling or a quota: pending again, resumable.
    setState(engine, record, 'pending', { reason: `${status}: ${engine.haltReason ?? (status === 'interrupted' ? `interrupted in round ${record.round}` : 'the workflow stopped')}; resume continues it from ${record.branch}` });
  }
  const gates = engine.state.gates;
  if (status === 'gaps' && gates.passed === false) notice(engine, `the workflow's gate \`${gates.failed}\` fails on ${engine.integration}`);
  // The record's state after the last state change above: the task views and the retries both come from it.
  const tasks = taskViewsOf(engine.workflow, engine.state);
  const failedCodes = [...engine.tasks.values()].filter((r) => r.state === 'error').map((r) => r.failedExitCode ?? 1);
  const onlyErrors = [...engine.tasks.values()].every((r) => ['integrated', 'error', 'skipped'].includes(r.state));
  const result: WorkflowResult = {
    workflow_id: engine.workflow.id,
    name: engine.workflow.name,
    status,
    exit_code: workflowExitCode(status, onlyErrors && gates.passed !== false ? failedCodes : [], engine.options.signal?.reason),
    branch: engine.integration,
    git_range: `${engine.base}..${tip}`,
    tasks,
    gates: { passed: gates.passed, failed: gates.failed },
    budget: engine.ledger.summary(),
    merge_queue: { gates_on: engine.workflow.gates.length ? (engine.workflow.gates_on ?? 'merge') : null, ...engine.queue },
    stop_reason: status === 'stopped' ? engine.haltReason : null,
    retries: engine.state.retries.map((r) => ({ ...r, tasks: [...r.tasks] })),
    metrics: sumMetrics(tasks),
    notices: engine.notices,
    state_dir: engine.store.dir,
    started_at: startedAt.toISOString(),
    finished_at: new Date(engine.clock.now()).toISOString(),
  };
  engine.store.writeResult(result);
  engine.store.append('workflow_finished', { status, exit_code: result.exit_code, tip, worktree_slots: engine.ops.slots.made.length });
  return result;
}
