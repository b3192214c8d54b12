/**
 * Resume at the step, never pay twice: from the event log, where each task caught mid-way picks
 * up. A worker round that finished (pass) and whose commit is still the task branch's head is
 * not run again, nor are the reviewers that passed it: resume goes on with the next reviewer,
 * the merge or the gates. A round whose reviewers said gaps hands their issues to the next
 * round, and so does a worker round that ended gaps or passed with no change of its own. A run
 * caught mid-way (started, never finished) is the only one run again.
 */
import { EXIT } from '../../errors.ts';
import type { Engine, ResumePoint, TaskRecord } from './context.ts';
import { revParse } from './git-ops.ts';
import { runsSinceStart, type RunEntry } from './state.ts';
import { EMPTY_CHANGE } from './worker-change.ts';

/** The runs of the task's last (re)start that finished; one stopped by Ctrl-C, a hang-up or TERM was caught mid-way: it runs again. */
function finishedRuns(record: TaskRecord): RunEntry[] {
  const stopped = [EXIT.interrupted, EXIT.hangup, EXIT.terminated] as number[];
  return runsSinceStart(record.fold).filter((r) => !stopped.includes(r.exit_code));
}

/** Sets the task's resume point (and the feedback its next round starts with) from the record's runs. */
export async function findResumePoint(engine: Engine, record: TaskRecord): Promise<void> {
  const { task } = record;
  const runs = finishedRuns(record);
  const worker = runs.filter((r) => r.role === task.worker).at(-1);
  if (!worker) return;
  const after = runs.filter((r) => r.round === worker.round && r.role !== task.worker);
  const gaps = after.find((r) => r.status !== 'pass');
  if (gaps) {
    // The round was judged: the next one starts with its issues.
    record.round = worker.round + 1;
    record.feedback = [{ role: gaps.role, issues: gaps.issues.length ? gaps.issues : [`${gaps.role} did not pass the change`] }];
    return;
  }
  if (worker.status === 'gaps' || (worker.status === 'pass' && !worker.git_range)) {
    // Judged by the worker's own answer, or a pass with no change of its own: the next round
    // starts with that, as it would have without the interruption (run-task.ts).
    record.round = worker.round + 1;
    record.feedback = [{ role: task.worker, issues: worker.status === 'gaps' ? (worker.issues.length ? worker.issues : ['the worker reported gaps']) : [EMPTY_CHANGE] }];
    return;
  }
  if (worker.status !== 'pass' || !worker.git_range) return;
  const head = await revParse(engine.ops, `refs/heads/${record.branch}`);
  const workerHead = worker.git_range.split('..')[1];
  if (!head || head !== workerHead) return;
  const passed = task.reviewers.filter((role) => after.some((r) => r.role === role && r.status === 'pass'));
  const point: ResumePoint = { round: worker.round, head, passed };
  record.round = worker.round;
  record.resumeAt = point;
}
