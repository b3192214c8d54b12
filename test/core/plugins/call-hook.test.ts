/** The one wrapper every plugin hook goes through: time limit, attribution, prototypes, result shapes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSupervisorError, type SupervisorError } from '../../../core/errors.ts';
import { callHook, callHookSync, hookLimitMs, PLUGIN_TIMEOUT_ENV } from '../../../core/plugins/call-hook.ts';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';

async function rejection(promise: Promise<unknown>): Promise<SupervisorError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isSupervisorError(error), String(error));
    return error;
  }
  assert.fail('expected a rejection');
}

describe('callHook', () => {
  it('turns a promise that never settles into PLUGIN_TIMEOUT naming plugin, hook and limit', async () => {
    const error = await rejection(callHook({ kind: 'adapter', name: 'slow' }, 'extract', () => new Promise(() => {}), { limitMs: 20 }));
    assert.equal(error.code, 'PLUGIN_TIMEOUT');
    assert.deepEqual(error.details, { plugin: 'slow', hook: 'extract', limit_ms: 20 });
  });

  it('wraps a throw once as PLUGIN_HOOK, and lets a SupervisorError through as it is', async () => {
    const thrown = await rejection(callHook({ kind: 'packer', name: 'p' }, 'pack', () => Promise.reject(new Error('boom'))));
    assert.deepEqual([thrown.code, thrown.details], ['PLUGIN_HOOK', { plugin: 'p', hook: 'pack' }]);
  });

  it('checks what command(), extract() and pack() return, naming the field', async () => {
    const args = await rejection(callHook({ kind: 'adapter', name: 'a' }, 'command', () => ({ args: 'a string' })));
    assert.equal(args.code, 'PLUGIN_SHAPE');
    assert.deepEqual([args.details.plugin, args.details.hook], ['a', 'command']);
    assert.match(String((args.details.problems as string[])[0]), /^args: /);
    const metrics = await rejection(callHook({ kind: 'adapter', name: 'a' }, 'extract', () => ({ text: 'x', metrics: { ...emptyMetrics(), inputTokens: '12' } })));
    assert.match(String((metrics.details.problems as string[])[0]), /^metrics\.inputTokens: /);
    const parts = await rejection(callHook({ kind: 'packer', name: 'k' }, 'pack', () => ({ parts: [{ key: 'files' }], notices: [] })));
    assert.match(String((parts.details.problems as string[])[0]), /^parts\.0\.content: /);
    assert.deepEqual(await callHook({ kind: 'adapter', name: 'a' }, 'command', () => ({ args: ['-p'], stdin: 'x' })), { args: ['-p'], stdin: 'x' });
  });

  it('removes keys a plugin added to Object.prototype and refuses it with PLUGIN_SHAPE', async () => {
    const error = await rejection(
      callHook({ kind: 'adapter', name: 'evil' }, 'extract', () => {
        (Object.prototype as Record<string, unknown>).isAdmin = true;
        return { text: null, metrics: emptyMetrics() };
      }),
    );
    assert.equal(error.code, 'PLUGIN_SHAPE');
    assert.match(error.message, /evil.*Object\.prototype\.isAdmin/);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
    const sync = (() => {
      try {
        callHookSync({ kind: 'parser', name: 'evil' }, 'parse', () => {
          (Array.prototype as unknown as Record<string, unknown>).extra = 1;
          return {};
        }, { checkResult: false });
      } catch (e) {
        return e as SupervisorError;
      }
      return undefined;
    })();
    assert.equal(sync?.code, 'PLUGIN_SHAPE');
    assert.equal(([] as unknown as Record<string, unknown>).extra, undefined);
  });

  it('takes its limit from SUPERVISOR_PLUGIN_TIMEOUT_MS when that is a positive whole number', () => {
    assert.equal(hookLimitMs('extract', { [PLUGIN_TIMEOUT_ENV]: '250' }), 250);
    assert.equal(hookLimitMs('extract', { [PLUGIN_TIMEOUT_ENV]: '0.5' }), 60_000);
    assert.equal(hookLimitMs('pack', {}), 600_000);
  });
});
