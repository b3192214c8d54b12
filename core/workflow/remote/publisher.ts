/**
 * The merge queue's publisher for a shared remote (engine/publish.ts): the engine's candidate
 * is pushed to the remote's integration branch with a full-sha lease on the tip it was built
 * on; a lost lease is counted, the remote's new tip fetched, and the engine builds again there.
 */
import type { IntegrationPublisher } from '../engine/publish.ts';
import { remoteErrors } from '../../git/remote-errors.ts';
import { remoteRefs } from './names.ts';
import type { RemoteSession } from './session.ts';

/** Compare-and-swap retries at most, and the backoff between them (ms, doubled each time, with jitter). */
export const MAX_CAS_RETRIES = 12;
const FIRST_BACKOFF_MS = 20;
const MAX_BACKOFF_MS = 2000;

export interface PublishCounters {
  /** Pushes refused by their lease. */
  casRetries: number;
  /** The commit that landed on the remote (null: none yet). */
  landed: string | null;
}

/**
 * The engine's merge message as the remote's history carries it: the local workflow id (this
 * job's own) becomes the remote's, and the task trailer names the workflow too
 * (`Supervisor-Task: <wf>/<task>`, the integration rule).
 */
export function remoteMessage(local: string, localId: string, workflowId: string, taskId: string): string {
  return local
    .split('\n')
    .map((line) => (line === `Supervisor-Task: ${taskId}` ? `Supervisor-Task: ${workflowId}/${taskId}` : line.split(localId).join(workflowId)))
    .join('\n');
}

export function remotePublisher(session: RemoteSession, localId: string, taskId: string, counters: PublishCounters, maxRetries = MAX_CAS_RETRIES): IntegrationPublisher {
  const ref = remoteRefs.integration(session.workflowId);
  return {
    message: (local) => remoteMessage(local, localId, session.workflowId, taskId),
    async publish(commit, tip) {
      const pushed = await session.push([{ ref, next: commit, expected: tip }]);
      if (pushed.ok) counters.landed = commit;
      else counters.casRetries += 1;
      return pushed.ok;
    },
    async refresh() {
      const tip = await session.integrationTip();
      if (!tip) throw remoteErrors.stateInvalid(ref, 'the branch', 'was deleted on the remote while this job integrated');
      return { tip, integrated: (await session.integratedOn(tip)).has(taskId) };
    },
    backoffMs: (n) => (n > maxRetries ? null : Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (n - 1)) * (0.5 + Math.random())),
  };
}
