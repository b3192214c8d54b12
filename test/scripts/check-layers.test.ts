import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/check-layers.mjs', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/layers/${name}`, import.meta.url));
const check = (name: string) => spawnSync(process.execPath, [script, fixture(name)], { encoding: 'utf8' });

describe('scripts/check-layers.mjs', () => {
  it('fails on a cycle among files and among areas, type-only imports included, printing the imports that close it', () => {
    const { status, stderr } = check('cycle');
    assert.equal(status, 1, stderr);
    assert.match(stderr, /file cycle: core\/a\/first\.ts -> core\/b\/second\.ts -> core\/b\/third\.ts -> core\/a\/first\.ts/);
    assert.match(stderr, /area cycle among 2 areas \(core\/a, core\/b\)/);
    assert.match(stderr, /core\/a -> core\/b: core\/a\/first\.ts -> core\/b\/second\.ts/);
    assert.match(stderr, /core\/b -> core\/a: core\/b\/third\.ts -> core\/a\/first\.ts/);
  });

  it('fails when a built-in plugin imports anything of the core but the plugin API', () => {
    const { status, stderr } = check('builtin');
    assert.equal(status, 1, stderr);
    assert.match(stderr, /builtins-use-the-plugin-api: plugins\/packers\/glob\.ts imports core\/run\/step\.ts/);
    assert.doesNotMatch(stderr, /imports core\/plugin-api\/index\.ts/);
  });

  it('passes a tree whose imports go one way', () => {
    const { status, stderr } = check('clean');
    assert.equal(status, 0, stderr);
  });
});
