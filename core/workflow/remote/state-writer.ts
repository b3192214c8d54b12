/**
 * Writes one task's state ref through a job: each write is a new commit on the ref's last one,
 * pushed by compare-and-swap on the value this job last saw; a lost lease (another attempt of
 * the same task wrote meanwhile) re-reads the ref and writes on it, a few times at most.
 */
import type { WorkflowEvent } from '../engine/events.ts';
import { remoteRefs } from './names.ts';
import type { RemoteSession } from './session.ts';
import { readTaskState, writeTaskState, type RemoteTaskStatus, type TaskStateFile } from './task-state.ts';
import { remoteErrors } from '../../git/remote-errors.ts';

const WRITE_TRIES = 4;

export interface TaskStateUpdate {
  status: RemoteTaskStatus;
  rounds?: number;
  cost_usd?: number;
  cost_known?: boolean;
  integrated_commit?: string | null;
  cas_retries?: number;
}

export class TaskStateWriter {
  private readonly session: RemoteSession;
  private readonly taskId: string;
  /** The ref's value as this job last saw it (the lease); null: absent. */
  private current: string | null;
  /** Events of earlier attempts, as the ref held them. */
  private earlier: WorkflowEvent[];
  readonly attempt: number;
  private last: TaskStateFile | null;

  private constructor(session: RemoteSession, taskId: string, current: string | null, earlier: WorkflowEvent[], last: TaskStateFile | null) {
    this.session = session;
    this.taskId = taskId;
    this.current = current;
    this.earlier = earlier;
    this.last = last;
    this.attempt = (last?.attempt ?? 0) + 1;
  }

  /** The writer of a task whose state ref the snapshot fetched as `commit` (null: none yet); the state read is checked. */
  static async open(session: RemoteSession, taskId: string, commit: string | null): Promise<TaskStateWriter> {
    if (!commit) return new TaskStateWriter(session, taskId, null, [], null);
    const read = await readTaskState(session.ctx, commit, remoteRefs.state(session.workflowId, taskId), { workflow: session.workflowId, task: taskId });
    return new TaskStateWriter(session, taskId, commit, read.events, read.task);
  }

  /** The state the ref held when this job started (null: none). */
  get previous(): TaskStateFile | null {
    return this.last;
  }

  /** Pushes the task's state with `events` (this attempt's) after the earlier attempts'. */
  async write(update: TaskStateUpdate, events: readonly WorkflowEvent[] = []): Promise<void> {
    const ref = remoteRefs.state(this.session.workflowId, this.taskId);
    for (let tries = 1; ; tries++) {
      const file: TaskStateFile = {
        workflow_id: this.session.workflowId,
        task_id: this.taskId,
        status: update.status,
        rounds: update.rounds ?? 0,
        cost_usd: update.cost_usd ?? 0,
        cost_known: update.cost_known ?? true,
        integrated_commit: update.integrated_commit ?? null,
        attempt: this.attempt,
        updated_at: new Date().toISOString(),
        ...(update.cas_retries === undefined ? {} : { cas_retries: update.cas_retries }),
      };
      const commit = await writeTaskState(this.session.ctx, file, [...this.earlier, ...events], this.current);
      const pushed = await this.session.push([{ ref, next: commit, expected: this.current }]);
      if (pushed.ok) {
        this.current = commit;
        this.last = file;
        return;
      }
      if (tries >= WRITE_TRIES) throw remoteErrors.unreachable(this.session.ctx.remote.given, `${ref} kept moving under this job's state writes (${tries} tries)`);
      await this.reread(ref);
    }
  }

  /** Another writer moved the ref: take its value and events as the base of ours. */
  private async reread(ref: string): Promise<void> {
    const commit = await this.session.fetchOne(ref);
    if (!commit) {
      this.current = null;
      return;
    }
    const read = await readTaskState(this.session.ctx, commit, ref, { workflow: this.session.workflowId, task: this.taskId });
    this.current = commit;
    this.earlier = read.events;
  }
}
