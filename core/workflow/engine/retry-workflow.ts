/**
 * `workflow retry`: a finished or stopped workflow continued on the same integration branch.
 * The named tasks (default: every task that ended error, gaps, blocked or skipped) run again,
 * and so, as they pass, do the tasks skipped because of them; integrated tasks never run again.
 * A task continues from its branch, its rounds counted anew; `fresh` starts it over from the
 * integration tip (its old branch head is in the event). The retry is an event and in the result.
 */
import { gitOrThrow } from '../../git/git.ts';
import { setState, type Engine, type TaskRecord, type WorkflowRunOptions } from './context.ts';
import { engineErrors } from './errors.ts';
import { revParse } from './git-ops.ts';
import type { WorkflowResult } from './result.ts';
import { continueWorkflow } from './run-workflow.ts';
import type { TaskState } from './store.ts';

const RETRYABLE: readonly TaskState[] = ['error', 'gaps', 'blocked', 'skipped'];

export interface RetryOptions {
  /** Start the tasks over from the integration tip instead of their branches. */
  fresh?: boolean;
}

/** The named tasks (checked) or every retryable one, and the skipped tasks that depend on them. */
function chosenTasks(engine: Engine, names: string[]): TaskRecord[] {
  const records = [...engine.tasks.values()];
  const retryable = records.filter((r) => RETRYABLE.includes(r.state)).map((r) => r.task.id);
  if (!names.length) {
    if (!retryable.length) throw engineErrors.nothingToRetry(engine.workflow.id);
    return records.filter((r) => RETRYABLE.includes(r.state));
  }
  const chosen = new Set<string>();
  for (const name of names) {
    const record = engine.tasks.get(name);
    if (!record) throw engineErrors.retryTask(engine.workflow.id, name, 'no such task in the workflow', retryable);
    if (record.state === 'integrated') throw engineErrors.retryTask(engine.workflow.id, name, 'the task is integrated; integrated tasks never run again', retryable);
    chosen.add(name);
  }
  // Skipped because of a chosen task (directly or through another skipped one): they run as it passes.
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of records) {
      if (chosen.has(r.task.id) || r.state !== 'skipped') continue;
      if (r.task.depends_on.some((d) => chosen.has(d))) {
        chosen.add(r.task.id);
        grew = true;
      }
    }
  }
  return records.filter((r) => chosen.has(r.task.id));
}

async function reopenTask(engine: Engine, record: TaskRecord, fresh: boolean): Promise<void> {
  const was = record.state;
  const old = await revParse(engine.ops, `refs/heads/${record.branch}`);
  if (fresh && old) {
    // The branch goes (compare-and-swap on its old head); the task starts again from the integration tip.
    await gitOrThrow(engine.ops.repoRoot, ['update-ref', '-m', 'supervisor workflow retry --fresh', '-d', `refs/heads/${record.branch}`, old], engine.ops.env);
  }
  record.round = 0;
  record.issues = [];
  record.failedExitCode = null;
  record.resumeAt = null;
  record.feedback = null;
  const from = fresh ? `over from the integration tip${old ? ` (its old branch head was ${old.slice(0, 7)})` : ''}` : old ? `from ${record.branch} at ${old.slice(0, 7)}` : 'from the integration tip';
  setState(engine, record, 'pending', { reason: `retry: it had ended ${was}; it runs again ${from}, rounds counted anew`, retry: true });
}

export function retryWorkflow(id: string, names: string[], options: Omit<WorkflowRunOptions, 'workflow'> & RetryOptions): Promise<WorkflowResult> {
  const fresh = options.fresh === true;
  return continueWorkflow(id, options, {
    check: (finished) => {
      if (!finished) throw engineErrors.unfinishedRetry(id);
    },
    extra: { retry: true, tasks: names, fresh },
    prepare: async (engine) => {
      const chosen = chosenTasks(engine, names);
      engine.store.append('notice', { message: `retry: ${chosen.map((r) => r.task.id).join(', ')}${fresh ? ' (fresh)' : ''}` });
      for (const record of chosen) await reopenTask(engine, record, fresh);
    },
  });
}
