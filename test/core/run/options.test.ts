/** runRole's three arguments: what to run, where and how tuned, and the caller's hooks, apart. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { joinRunOptions, splitRunOptions, type RunRoleOptions } from '../../../core/run/options.ts';
import type { Registry } from '../../../core/registry.ts';

describe('run options', () => {
  it('tuning (time limits, grace, retry pacing) goes with the dependencies, not the request; hooks apart', () => {
    const registry = {} as Registry;
    const onNotice = () => {};
    const flat: RunRoleOptions = { role: 'reviewer', task: 'Review', cli: 'codex', allowCommands: ['npm test'], repoRoot: '/r', homeDir: '/h', env: {}, registry, trustedRepo: true, timeoutSec: 30, retries: 1, graceMs: 200, backoffMs: 10, onNotice };
    const { request, deps, hooks } = splitRunOptions(flat);
    assert.deepEqual(request, { role: 'reviewer', task: 'Review', cli: 'codex', allowCommands: ['npm test'] });
    assert.deepEqual(deps, { repoRoot: '/r', homeDir: '/h', env: {}, registry, trustedRepo: true, tuning: { timeoutSec: 30, retries: 1, graceMs: 200, backoffMs: 10 } });
    assert.deepEqual(hooks, { onNotice });
    assert.deepEqual(joinRunOptions(request, deps, hooks), flat);
  });
});
