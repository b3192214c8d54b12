/** What the MCP server started: a cancelled request aborts its work as Ctrl-C (SIGINT); stopAll aborts everything with its reason, waits, and refuses new work. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Activity } from '../../../core/mcp/activity.ts';
import { SupervisorError } from '../../../core/errors.ts';

/** Work that ends only when its signal aborts, answering with the reason. */
const untilAborted = (signal: AbortSignal) => new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));

describe('mcp activity', () => {
  it("a cancelled request's signal aborts its work with SIGINT", async () => {
    const activity = new Activity();
    const request = new AbortController();
    const work = activity.start(untilAborted, request.signal);
    assert.equal(activity.running, 1);
    request.abort('cancelled by the client');
    assert.equal(await work, 'SIGINT');
    assert.equal(activity.running, 0);
  });

  it('stopAll aborts every running piece of work with its reason, waits for all, and refuses new work', async () => {
    const activity = new Activity();
    const done: unknown[] = [];
    void activity.start(async (signal) => done.push(await untilAborted(signal)));
    void activity.start(async (signal) => done.push(await untilAborted(signal)));
    await activity.stopAll('SIGHUP');
    assert.deepEqual(done, ['SIGHUP', 'SIGHUP']);
    assert.throws(() => activity.start(untilAborted), (e: SupervisorError) => e.code === 'MCP_STOPPING');
  });
});
