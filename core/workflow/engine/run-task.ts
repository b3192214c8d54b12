/**
 * One task, start to end: its one worktree on its branch; per round the worker, then the
 * reviewers in order on the task's range (read-only: their edits are dropped); gaps send the
 * reviewers' issues into the worker's next round; a worker that passes with no change of its
 * own gets a gaps round instead (reviewers never see an empty range); all pass → the merge
 * queue (merge-queue.ts: a failing gate is the next round's feedback); a conflict → one more
 * worker round on the new tip, then `blocked` if it still conflicts. The task's branch always stays.
 */
import { EXIT } from '../../errors.ts';
import type { RunResult } from '../../run/run-role.ts';
import { roleLoadOptions } from '../../roles/load-options.ts';
import { loadRole } from '../../roles/load-role.ts';
import { notice, setState, type Engine, type TaskRecord } from './context.ts';
import { filesWithMarkers, headOf, isAncestor, mergeBase, openTaskWorktree, resetWorktree, startConflictMerge } from './git-ops.ts';
import { boundGit } from '../../git/bound-git.ts';
import { approveAllDecision } from './approval.ts';
import { integrate } from './merge-queue.ts';
import { brokenProblem, freeSlot, isWorkspaceBroken, keepLeftovers, afterWork, slotBroken } from './slot-guard.ts';
import { slotOf } from './slots.ts';
import { reviewerPrompt, workerPrompt } from './prompts.ts';
import { existingTargets, runOne, type RunOutcome } from './run-one.ts';
import { claimedFilesMismatch, EMPTY_CHANGE, emptyChange } from './worker-change.ts';
import { setUpSlot, slotExclude, slotHasSetup } from './slot-setup.ts';
import { next, startRound, startStep, type Feedback, type LoopState, type Outcome, type Step } from './round-step.ts';

function finish(engine: Engine, record: TaskRecord, state: 'gaps' | 'error' | 'blocked', issues: string[], exitCode: number | null = null, reason?: string): void {
  record.issues = issues;
  record.failedExitCode = exitCode;
  setState(engine, record, state, { reason: reason ?? `round ${record.round}: ${issues[0] ?? state}` });
}

/**
 * The v2 worker's own git_range against the range supervisor recorded: the engine's is the
 * truth. The claim's names (HEAD, HEAD~1) are the worktree's, so they are resolved there.
 */
async function checkWorkerRange(engine: Engine, record: TaskRecord, worktree: string, result: RunResult): Promise<void> {
  const claimed = result.output?.git_range;
  if (typeof claimed !== 'string' || !result.git_range || claimed === result.git_range) return;
  const [cb = '', ch = ''] = claimed.split(/\.\.\.?/);
  const [eb = '', eh = ''] = result.git_range.split('..');
  // Abbreviated ids of the engine's own range (what workers usually write) need no git.
  const abbreviates = (short: string, full: string) => /^[0-9a-f]{4,64}$/.test(short) && full.startsWith(short);
  if (abbreviates(cb, eb) && abbreviates(ch, eh)) return;
  const slot = slotOf(engine.ops.slots, worktree);
  if (slot && ![cb, ch].some((rev) => rev.startsWith('-'))) {
    // `--`: both are revisions, never options or paths; one git for the two.
    const read = await boundGit(slot.git, engine.ops.env).run(['rev-parse', `${cb}^{commit}`, `${ch}^{commit}`, '--']);
    if (read.ok && read.stdout.split('\n').slice(0, 2).join('..') === result.git_range) return;
  }
  notice(engine, `${record.task.id}: the worker reported git_range ${claimed}, but its run's commits are ${result.git_range}; the engine's range counts`);
}

/** What the worker may run, for its prompt: its role's allowed_commands and --allow-command (the run settles them again). */
async function workerCommands(engine: Engine, role: string): Promise<string[]> {
  const flags = engine.options.runDefaults?.allowCommands ?? [];
  try {
    const loaded = await loadRole(role, roleLoadOptions(engine.options.registry, engine.options));
    return [...new Set([...loaded.allowed_commands, ...flags])];
  } catch {
    return flags; // the run reports a role that does not load
  }
}

/** After the conflict round: the merge must be committed and free of conflict markers. */
async function conflictResolved(engine: Engine, head: string, tip: string, files: string[]): Promise<string | null> {
  if (!(await isAncestor(engine.ops, tip, head))) return `the merge of the integration branch was not committed; conflicting files: ${files.join(', ')}`;
  const marked = await filesWithMarkers(engine.ops, head, files);
  return marked.length ? `conflict markers remain in: ${marked.join(', ')}` : null;
}

/** The reviewers in order on `range`; the first that does not pass ends the round. */
async function review(engine: Engine, record: TaskRecord, worktree: string, head: string, range: string, passed: string[], mismatch: string | null): Promise<{ feedback: Feedback } | { outcome: RunOutcome }> {
  const feedback: Feedback = [];
  for (const role of record.task.reviewers) {
    if (passed.includes(role)) continue;
    const outcome = await runOne(engine, record, role, {
      task: reviewerPrompt(record.task, range, mismatch),
      workspace: { path: worktree, branch: record.branch, commit: false, git: slotOf(engine.ops.slots, worktree)?.git, exclude: slotExclude(engine, worktree) },
      review: range,
      targets: existingTargets(worktree, record.task.files),
    });
    // Read-only: whatever the reviewer changed or committed goes.
    await resetWorktree(engine.ops, worktree, head, slotExclude(engine, worktree));
    if (outcome.kind !== 'ran' || outcome.result.status === 'error') return { outcome };
    if (outcome.result.status !== 'pass') {
      feedback.push({ role, issues: outcome.result.issues.length ? outcome.result.issues : [`${role} did not pass the change (${outcome.result.reported_status ?? 'no status'})`] });
      break;
    }
  }
  return { feedback };
}

/** A run that ended the task (error) or the workflow's progress (halted); null: go on. */
function stopOn(engine: Engine, record: TaskRecord, outcome: RunOutcome, role: string): 'stop' | null {
  if (outcome.kind === 'halted') return 'stop';
  if (outcome.kind === 'failed') {
    finish(engine, record, 'error', [outcome.issue], outcome.exitCode, `round ${record.round}: ${role} could not run: ${outcome.issue}`);
    return 'stop';
  }
  if (outcome.result.status === 'error') {
    const { result } = outcome;
    const issues = result.issues.length ? result.issues : [`${role} ended with status error`];
    const why = result.failure ? `${result.failure.class}: ${result.failure.detail}` : issues[0];
    finish(engine, record, 'error', issues.map((i) => `[${role}] ${i}`), result.exit_code === EXIT.gaps ? EXIT.gaps : result.exit_code, `run ${result.run_id} (${role}, round ${record.round}) ended error: ${why}`);
    return 'stop';
  }
  return null;
}

/** The task in a worktree slot of its own for all its rounds; the slot is freed for the next task after. */
export async function runTask(engine: Engine, record: TaskRecord): Promise<void> {
  const worktree = engine.ops.slots.take();
  try {
    const tipAtStart = await engine.integrationBranch.known();
    const { created, head } = await openTaskWorktree(engine.ops, worktree, record.branch, tipAtStart);
    engine.store.append('worktree_ready', { task: record.task.id, path: worktree, created });
    // Set-up is shown with the round it prepares.
    record.round = startRound(record.decision, record.round);
    const setup = await setUpSlot(engine, record, worktree, created);
    if (setup === 'halted') return;
    if (setup) return finish(engine, record, 'error', [setup]);
    await rounds(engine, record, worktree, slotHasSetup(engine, record.task) ? null : head);
  } catch (error) {
    // A slot a CLI broke: set aside, the task ends workspace_broken, the workflow goes on.
    if (!isWorkspaceBroken(error)) throw error;
    await slotBroken(engine, record, worktree, brokenProblem(error));
  } finally {
    await freeSlot(engine, record, worktree);
  }
}

/**
 * Reviewers passed: a task that needs a person's approval waits (true) unless it has it, or
 * `--approve-all` gives it.
 */
function holdForApproval(engine: Engine, record: TaskRecord): boolean {
  if (!record.task.approve) return false;
  if (engine.options.approveAll) {
    approveAllDecision(engine, record);
    return false;
  }
  const id = engine.workflow.id;
  // An approval was of the work as it was then: a later worker round (a merge conflict resolved) is asked about again.
  const stale = record.fold.staleApproval;
  const again = stale ? ` again (${stale.by} approved round ${stale.round}'s work; round ${record.round} changed it)` : '';
  setState(engine, record, 'awaiting_approval', { reason: `reviewers passed; waiting for a person${again}: supervisor workflow approve ${id} ${record.task.id} (or reject ${id} ${record.task.id} --issues ...)` });
  return true;
}

/** A merge that conflicts: the merge of the new tip is started in the worktree for one more worker round. */
async function startConflictRound(engine: Engine, record: TaskRecord, worktree: string, files: string[]): Promise<{ tip: string; conflicts: string[] }> {
  const tip = await engine.integrationBranch.tip();
  const conflicts = await startConflictMerge(engine.ops, worktree, tip);
  engine.store.append('conflict', { task: record.task.id, files, tip });
  notice(engine, `${record.task.id}: merging into ${engine.integration} conflicts in ${files.join(', ')}; the worker gets one more round on the new tip`);
  return { tip, conflicts: conflicts.length ? conflicts : files };
}

/**
 * The worker's run of this round, or the round resume found finished (its commit on the branch):
 * not run again. `known`: the slot's HEAD as the engine's own git left it since its last check
 * (null: ask; the run checks the slot again before its CLI starts).
 */
async function workerRound(engine: Engine, record: TaskRecord, worktree: string, round: number, feedback: Feedback, conflicts: string[], known: string | null): Promise<{ outcome: RunOutcome } | { result: RunResult | null; passed: string[]; saved: string | null }> {
  const { task } = record;
  const resumeAt = record.resumeAt;
  record.resumeAt = null;
  if (resumeAt && resumeAt.round === round && (await headOf(engine.ops, worktree)) === resumeAt.head) {
    notice(engine, `${task.id}: resume: round ${round}'s worker finished before the interruption (its commit ${resumeAt.head.slice(0, 7)} is on ${record.branch}); it does not run again${resumeAt.passed.length ? `, nor ${resumeAt.passed.join(', ')}` : ''}`);
    return { result: null, passed: resumeAt.passed, saved: null };
  }
  const start = known ?? (await headOf(engine.ops, worktree));
  const allowedCommands = await workerCommands(engine, task.worker);
  const worker = await runOne(engine, record, task.worker, {
    task: workerPrompt(task, { round, feedback, conflicts, start, allowedCommands, gates: [...new Set([...task.gates, ...engine.workflow.gates])] }),
    workspace: { path: worktree, branch: record.branch, git: slotOf(engine.ops.slots, worktree)?.git, exclude: slotExclude(engine, worktree) },
    targets: existingTargets(worktree, task.files),
    gates: task.gates,
  });
  if (stopOn(engine, record, worker, task.worker)) return { outcome: worker };
  const result = (worker as { result: RunResult }).result;
  // Where the run left HEAD: its commits' end, or where it started when it made none.
  return { result, passed: [], saved: result.git_range?.split('..')[1] ?? start };
}

/** Where `head` forks from the integration branch as the engine knows it, with what it was asked with. */
async function forkPoint(engine: Engine, head: string): Promise<{ tip: string; head: string; base: string }> {
  const tip = await engine.integrationBranch.known();
  return { tip, head, base: await mergeBase(engine.ops, tip, head) };
}

/**
 * One worker round and its judgement: the worker (or the round resume found finished), the
 * slot checked, a conflict round's merge checked, then the worker's own gaps, an empty change,
 * or the reviewers. `feedback` in the result: the round's verdict; `stop`: the task ended here.
 */
async function workRound(engine: Engine, record: TaskRecord, worktree: string, step: Extract<Step, { do: 'work' }>, conflictTip: string | null, known: string | null): Promise<{ stop: true } | { stop: false; feedback: Feedback; head: string }> {
  const { task } = record;
  const { round } = step;
  record.round = round;
  const ran = await workerRound(engine, record, worktree, round, step.feedback, step.conflicts, known);
  if ('outcome' in ran) return { stop: true };
  const { result } = ran;
  // Three reads of the round's work at once (each a git on the critical path): the worker's
  // claimed range, the slot checked, the fork point from the integration branch (taken below
  // only when HEAD and the known tip are still what it was asked with). Same order of effects.
  const rangeChecked = result ? checkWorkerRange(engine, record, worktree, result) : null;
  const checked = afterWork(engine, worktree, ran.saved);
  checked.catch(() => {}); // awaited below, after the range's notice
  const early = ran.saved === null || conflictTip ? null : forkPoint(engine, ran.saved);
  early?.catch(() => {}); // used only if its inputs still hold
  let mismatch: string | null = null;
  if (result) {
    await rangeChecked;
    mismatch = claimedFilesMismatch(result);
    if (mismatch) notice(engine, `${task.id}: round ${round}: ${mismatch}`);
  }
  const { head, left } = await checked;
  if (left) {
    await keepLeftovers(engine, record, worktree, left);
    return { stop: true };
  }
  if (conflictTip) {
    const problem = await conflictResolved(engine, head, conflictTip, step.conflicts);
    if (problem) {
      finish(engine, record, 'blocked', [`merge conflict with the integration branch: ${problem}`]);
      return { stop: true };
    }
  }
  const tip = await engine.integrationBranch.known();
  const asked = await early?.catch(() => null);
  const base = asked && asked.tip === tip && asked.head === head ? asked.base : await mergeBase(engine.ops, tip, head);
  const empty = (result !== null && emptyChange(result)) || base === head;
  if (result && result.status === 'gaps') return { stop: false, head, feedback: [{ role: task.worker, issues: result.issues.length ? result.issues : ['the worker reported gaps'] }] };
  if (empty) {
    // Nothing to review or merge: the worker's pass is not believed.
    notice(engine, `${task.id}: round ${round}: the worker passed with no change of its own (nothing to review or merge)`);
    return { stop: false, head, feedback: [{ role: task.worker, issues: [EMPTY_CHANGE] }] };
  }
  const reviewed = await review(engine, record, worktree, head, `${base}..${head}`, ran.passed, mismatch);
  if ('outcome' in reviewed) {
    stopOn(engine, record, reviewed.outcome, reviewed.outcome.kind === 'ran' ? reviewed.outcome.result.role : (task.reviewers[0] ?? 'reviewer'));
    return { stop: true };
  }
  return { stop: false, head, feedback: reviewed.feedback };
}

/** The merge queue's verdict as the loop's outcome. */
async function mergeOutcome(engine: Engine, record: TaskRecord, head: string): Promise<Outcome> {
  const merged = await integrate(engine, record, head);
  if (merged.kind === 'done') return { kind: 'merged' };
  return merged;
}

/**
 * The executor of the round loop (round-step.ts decides, this does the I/O): from the task's
 * first step (a decision, a resume point, a retry) until a step ends it.
 */
async function rounds(engine: Engine, record: TaskRecord, worktree: string, startHead: string | null): Promise<void> {
  const { task } = record;
  let state: LoopState = { round: record.round, maxRounds: engine.options.maxRounds ?? task.max_rounds, approve: task.approve === true, branch: record.branch, conflictTip: null };
  let step = startStep(record.decision, record.round, record.feedback ?? []);
  record.feedback = null;
  if (step.do === 'work') state = { ...state, round: step.round };
  // The slot's HEAD as the engine's own git left it (null: ask): reviewers' edits are reset to it, a conflict merge leaves HEAD on it.
  let known = startHead;
  for (;;) {
    let outcome: Outcome;
    if (step.do === 'end') return;
    if (step.do === 'finish') return finish(engine, record, step.state, step.issues, null, step.reason);
    if (step.do === 'work') {
      const judged = await workRound(engine, record, worktree, step, state.conflictTip, known);
      if (judged.stop) return;
      known = judged.head;
      outcome = { kind: 'judged', feedback: judged.feedback };
    } else if (step.do === 'hold') {
      outcome = holdForApproval(engine, record) ? { kind: 'held' } : { kind: 'approved' };
    } else if (step.do === 'merge') {
      record.round = state.round;
      outcome = await mergeOutcome(engine, record, known ?? (await headOf(engine.ops, worktree)));
    } else {
      const started = await startConflictRound(engine, record, worktree, step.files);
      outcome = { kind: 'conflict_started', tip: started.tip, conflicts: started.conflicts };
    }
    ({ state, step } = next(state, outcome));
    if (outcome.kind === 'gate_failed' && step.do === 'work') setState(engine, record, 'running', { reason: `${outcome.reason}; the worker gets round ${step.round} with the gate's output` });
  }
}
