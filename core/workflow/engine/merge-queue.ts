/**
 * The gated merge queue: a task is integrated only when the workflow's gates pass on the merged
 * result. One candidate at a time (the integration branch's queue; tasks reach it in DAG order, as a task
 * starts only after its dependencies are integrated): the candidate merge commit is built
 * without a checkout (buildTaskCommit), the gates run once in a worktree of it, and only then
 * does the integration branch move, by compare-and-swap (IntegrationBranch.move). A failing gate leaves the
 * branch where it was: the integration branch never holds a merge that failed the gates.
 * `gates_on: end` merges first and runs the gates on the integration branch after (the old way).
 */
import { notice, setState, type Engine, type TaskRecord } from './context.ts';
import { engineErrors } from './errors.ts';
import { buildTaskCommit, commitTree, taskMergeMessage } from './git-ops.ts';
import type { HeldIntegration } from './integration-ref.ts';
import { runGatesAt, runGatesOnIntegration } from './integration-gates.ts';

export type Integration =
  | { kind: 'done' }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'gate_failed'; command: string; feedback: string; reason: string }
  /** Interrupted while the candidate's gates ran: nothing moved. */
  | { kind: 'halted' };

/** The gate's failure as the worker's next-round feedback. */
function gateFeedback(verdict: { command: string; exitCode: number | null; timedOut: boolean; output: string }, candidate: string): string {
  const how = verdict.timedOut ? 'timed out' : `exited ${verdict.exitCode}`;
  return `the workflow gate \`${verdict.command}\` ${how} on the merge of your branch into the integration branch (candidate ${candidate.slice(0, 7)}); fix your change so it passes. Its output ends with:\n${verdict.output.trim() || '(no output)'}`;
}

export async function integrate(engine: Engine, record: TaskRecord, head: string): Promise<Integration> {
  setState(engine, record, 'integrating', { reason: `round ${record.round} passed review; waiting for the merge queue` });
  const asked = engine.clock.now();
  return engine.integrationBranch.exclusive(async (branch) => {
    engine.queue.waited_ms += engine.clock.now() - asked;
    const { task } = record;
    const built = taskMergeMessage({
      workflowId: engine.workflow.id,
      taskId: task.id,
      title: task.title,
      branch: record.branch,
      runIds: record.runs.map((r) => r.run_id),
      reviewedBy: task.reviewers,
      approvedBy: task.approve ? record.approvedBy : null,
      style: engine.workflow.merge,
    });
    const publisher = engine.options.publisher;
    const message = publisher ? publisher.message(built) : built;
    for (let retries = 0; ; retries++) {
      const step = await candidateStep(engine, record, branch, head, message, retries);
      if (step !== 'retry') return step;
    }
  });
}

/**
 * One candidate: built on the branch's tip, gated, published to the shared remote when there is
 * one (a lost lease: the branch follows the remote's new tip and the caller builds again), then
 * the branch moves. `retries`: lost leases so far.
 */
async function candidateStep(engine: Engine, record: TaskRecord, branch: HeldIntegration, head: string, message: string, retries: number): Promise<Integration | 'retry'> {
  const { task } = record;
  const publisher = engine.options.publisher;
  // Checked (a branch a CLI moved or deleted is restored and reported) while the candidate is
  // built on where the engine left it, which is where a restore puts it back.
  const known = await branch.known();
  const [tip, guess] = await Promise.all([branch.tip(), buildTaskCommit(engine.ops, known, head, message, engine.workflow.merge)]);
  let built = tip === known ? guess : await buildTaskCommit(engine.ops, tip, head, message, engine.workflow.merge);
  if (!built.ok) return { kind: 'conflict', files: built.conflicts };
  // The remote's history must carry the task's commit (its trailer says it is integrated), even when the work is in the tip already.
  if (publisher && built.commit === tip) built = { ok: true, commit: await commitTree(engine.ops, `${tip}^{tree}`, [tip], message), fastForward: false };
  const gated = engine.workflow.gates.length > 0 && (engine.workflow.gates_on ?? 'merge') === 'merge';
  if (gated) {
    engine.queue.candidates += 1;
    setState(engine, record, 'integrating', { reason: `testing candidate ${built.commit.slice(0, 7)} (${task.id} merged on ${tip.slice(0, 7)}) with the workflow's gates` });
    const t0 = engine.clock.now();
    const verdict = await runGatesAt(engine, built.commit, { task: task.id, on: 'candidate' });
    engine.queue.gates_ms += engine.clock.now() - t0;
    if (verdict.passed === null) return { kind: 'halted' };
    if (!verdict.passed) {
      const reason = `gate \`${verdict.command}\` failed on candidate ${built.commit.slice(0, 7)} (round ${record.round}, ${verdict.timedOut ? 'timed out' : `exit ${verdict.exitCode}`}); ${engine.integration} did not move`;
      return { kind: 'gate_failed', command: verdict.command, feedback: gateFeedback(verdict, built.commit), reason };
    }
  }
  if (publisher && !(await publisher.publish(built.commit, tip))) return leaseLost(engine, record, branch, tip, retries + 1);
  await branch.move(built.commit, tip, message);
  engine.store.append('merged', { task: task.id, head, tip: built.commit, fast_forward: built.fastForward, gated, ...(publisher ? { cas_retries: retries } : {}) });
  record.issues = [];
  setState(engine, record, 'integrated', { reason: `merged into ${engine.integration} at ${built.commit.slice(0, 7)} in round ${record.round}${gated ? ' after its gates passed' : ''}${retries ? ` after ${retries} lost compare-and-swap${retries === 1 ? '' : 's'}` : ''}` });
  if (!gated) await runGatesOnIntegration(engine, built.commit);
  return { kind: 'done' };
}

/**
 * The remote moved between our fetch and our push: the branch follows the remote's new tip and
 * the candidate is built again there (its gates run again: the base changed), after a bounded
 * backoff. Another job that integrated this very task meanwhile ends it integrated, once.
 */
async function leaseLost(engine: Engine, record: TaskRecord, branch: HeldIntegration, tip: string, retries: number): Promise<Integration | 'retry'> {
  const publisher = engine.options.publisher!;
  const wait = publisher.backoffMs(retries);
  if (wait === null) throw engineErrors.remoteContended(engine.integration, retries - 1);
  const now = await publisher.refresh();
  notice(engine, `${record.task.id}: the remote's ${engine.integration} moved (now ${now.tip.slice(0, 7)}) before our push: compare-and-swap retry ${retries}, the candidate is built again there`);
  await branch.move(now.tip, tip, 'supervisor workflow: follow the remote');
  if (now.integrated) {
    engine.store.append('merged', { task: record.task.id, head: now.tip, tip: now.tip, gated: false, cas_retries: retries });
    setState(engine, record, 'integrated', { reason: `another job integrated ${record.task.id} on the remote first (${now.tip.slice(0, 7)})` });
    return { kind: 'done' };
  }
  await engine.clock.sleep(wait, engine.options.signal);
  return engine.options.signal?.aborted ? { kind: 'halted' } : 'retry';
}
