/**
 * The registry's sorted names and entries: the order of localeCompare, which plain names (the
 * built-ins') get without setting up ICU's collator (compareNames).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareNames, createRegistry } from '../../core/registry.ts';
import type { Plugin } from '../../core/plugin-api/contracts.ts';

const NAMES = ['replay', 'claude', 'codex-2', 'codex', 'a-b', 'a1', 'ab', 'a_b', 'Zed', 'zed', 'Gemini', 'cline', 'x-', 'x', '9lives', 'émile'];

describe('registry order', () => {
  it('compareNames orders every pair as localeCompare does', () => {
    for (const a of NAMES) for (const b of NAMES) assert.equal(Math.sign(compareNames(a, b)), Math.sign(a.localeCompare(b)), `${a} vs ${b}`);
  });

  it('names and list are sorted by kind, then name, as localeCompare sorts them', () => {
    const plugin = (kind: string, name: string) => ({ plugin: { kind, name } as unknown as Plugin, source: 'builtin', layer: 'builtin' });
    const registry = createRegistry([...NAMES.map((name) => plugin('adapter', name)), plugin('parser', 'v2-headers'), plugin('packer', 'glob')]);
    assert.deepEqual(registry.names('adapter'), [...NAMES].sort((a, b) => a.localeCompare(b)));
    assert.deepEqual(registry.list().map((e) => e.plugin.kind), [...Array(NAMES.length).fill('adapter'), 'packer', 'parser']);
  });
});
