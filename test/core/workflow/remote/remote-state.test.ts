import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taskMergeMessage } from '../../../../core/workflow/engine/git-ops.ts';
import { remoteMessage, remotePublisher, MAX_CAS_RETRIES } from '../../../../core/workflow/remote/publisher.ts';
import { parseEvents } from '../../../../core/workflow/remote/task-state.ts';
import type { RemoteSession } from '../../../../core/workflow/remote/session.ts';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  assert.fail('expected an error');
}

describe('a workflow on a shared remote: its records', () => {
  it("the remote's merge message names the remote workflow and carries Supervisor-Task: <wf>/<task>", () => {
    const local = taskMergeMessage({ workflowId: 'wf-job-1a2b', taskId: 'api', title: 'the api', branch: 'supervisor/wf/wf-job-1a2b--api', runIds: ['r1'], reviewedBy: ['spec-reviewer'], approvedBy: null, style: 'merge' });
    const remote = remoteMessage(local, 'wf-job-1a2b', 'wf', 'api');
    assert.match(remote, /^Supervisor-Task: wf\/api$/m);
    assert.match(remote, /^Supervisor-Workflow: wf$/m);
    assert.doesNotMatch(remote, /wf-job-1a2b/);
  });

  it('events read back from a state ref are checked line by line (REMOTE_STATE_INVALID)', () => {
    const good = JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', kind: 'notice', message: 'hi' });
    assert.equal(parseEvents(`${good}\n`, 'refs/supervisor/state/w/t').length, 1);
    assert.equal(code(() => parseEvents(`${good}\nnot json\n`, 'refs/supervisor/state/w/t')), 'REMOTE_STATE_INVALID');
    assert.equal(code(() => parseEvents(`${JSON.stringify({ ts: 'x', kind: 'merged', task: 1 })}\n`, 'r')), 'REMOTE_STATE_INVALID');
  });

  it('the compare-and-swap backoff is bounded', () => {
    const publisher = remotePublisher({ workflowId: 'wf' } as RemoteSession, 'wf-job-1', 't', { casRetries: 0, landed: null });
    for (let n = 1; n <= MAX_CAS_RETRIES; n++) assert.ok((publisher.backoffMs(n) ?? -1) >= 0 && publisher.backoffMs(n)! <= 3000);
    assert.equal(publisher.backoffMs(MAX_CAS_RETRIES + 1), null);
  });
});
