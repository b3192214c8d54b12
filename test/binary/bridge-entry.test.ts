/**
 * The network bridge in the binary (`supervisor __bridge`, started inside every sandbox in
 * `allow` mode) runs from a chunk of its own, without the app's bundle (scripts/pkg/sea-main.cjs,
 * ENTRY_CHUNKS), and still behaves as the command line's `__bridge`: the command's exit code,
 * a usage error rendered with its code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

describe('__bridge in the binary', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });
  after(async () => {
    if (box) await rm(dirname(box.binDir), { recursive: true, force: true });
  });

  it('starts its own chunk, not the app, and exits with the command\'s code', async () => {
    const run = await box.run(['__bridge', '--', 'sh', '-c', 'echo inside; exit 7'], { env: { SUPERVISOR_CODE_CACHE_CHECK: '1' } });
    assert.equal(run.code, 7, run.stderr);
    assert.equal(run.stdout, 'inside\n');
    assert.match(run.stderr, /^chunk bridge code cache: accepted$/m);
    assert.doesNotMatch(run.stderr, /^code cache:/m, 'the app bundle was not loaded');
  });

  it('renders a usage error with its code, as the command line does', async () => {
    const run = await box.run(['__bridge', '--listen', 'nonsense', '--', 'true']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^error \[USAGE\]/m);
  });
});
