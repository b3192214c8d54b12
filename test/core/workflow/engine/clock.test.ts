/**
 * The workflow engine's injected clock: a quota pause waits through the clock's sleep, and
 * the record's times (event timestamps, the pause's end, the result's start and end) are the
 * clock's, not the system's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunDeps, RunHooks, RunRequest } from '../../../../core/run/options.ts';
import type { RunResult } from '../../../../core/run/run-role.ts';
import { runRole } from '../../../../core/run/run-role.ts';
import { builtinEntries } from '../../../../core/plugins/load.ts';
import { createRegistry } from '../../../../core/registry.ts';
import type { Clock } from '../../../../core/workflow/engine/clock.ts';
import { runWorkflow } from '../../../../core/workflow/engine/run-workflow.ts';
import { WorkflowStore } from '../../../../core/workflow/engine/store.ts';
import { makeRepo, tempDir } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

/** A clock that stands still until the engine sleeps: each sleep moves it on by what was asked. */
function fakeClock(start: number): Clock & { slept: number[] } {
  let time = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => time,
    sleep: async (ms) => {
      slept.push(ms);
      time += ms;
    },
  };
}

const START = Date.parse('2031-02-03T04:05:06.000Z');

describe('the workflow engine on an injected clock', () => {
  it('a quota pause sleeps through the clock, and every recorded time is the clock\'s', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const clock = fakeClock(START);
    let limited = false;
    // The first worker run ends on a rate limit (after really running), as a CLI's 429 would.
    const quotaOnce = async (request: RunRequest, deps: RunDeps, hooks?: RunHooks): Promise<RunResult> => {
      const result = await runRole(request, deps, hooks);
      if (limited || request.role !== 'worker') return result;
      limited = true;
      return { ...result, status: 'error', failure: { class: 'api_error', detail: 'Rate limited (429)', http_status: 429 } };
    };
    const result = await runWorkflow({
      repoRoot: repo,
      homeDir: await tempDir(),
      env: { ...process.env },
      registry: createRegistry(builtinEntries()),
      cli: { byRole: {}, all: 'replay' },
      runDefaults: { graceMs: 200, backoffMs: 10 },
      workflow: workflow([task('a')]),
      runRole: quotaOnce,
      clock,
    });
    assert.equal(result.status, 'pass', JSON.stringify(result, null, 2));
    // The first backoff is 1 s: slept through the clock, in steps of at most 250 ms.
    assert.deepEqual(clock.slept, [250, 250, 250, 250]);
    assert.equal(result.started_at, new Date(START).toISOString());
    assert.equal(result.finished_at, new Date(START + 1000).toISOString());
    const events = new WorkflowStore(repo, result.workflow_id).events();
    const pause = events.find((e) => e.kind === 'quota_pause');
    assert.ok(pause && pause.kind === 'quota_pause');
    assert.equal(pause.until, new Date(START + 1000).toISOString());
    assert.equal(pause.wait_ms, 1000);
    const resumed = events.find((e) => e.kind === 'quota_resumed');
    assert.ok(resumed && resumed.kind === 'quota_resumed');
    assert.equal(resumed.waited_ms, 1000);
    // Every event is stamped by the clock: before the pause at its start, after it 1 s on.
    const stamps = new Set(events.map((e) => e.ts));
    assert.deepEqual([...stamps].sort(), [new Date(START).toISOString(), new Date(START + 1000).toISOString()]);
  });
});
