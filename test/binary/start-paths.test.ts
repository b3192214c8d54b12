/**
 * What the binary loads at start, by command (scripts/pkg/sea-main.cjs): the network bridge
 * (`supervisor __bridge`, started inside every sandbox in `allow` mode) runs from a chunk of its
 * own without the app's bundle, and still behaves as the command line's `__bridge`; help and
 * version load the small code cache, every other command the one made after a warm run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeRepo } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

describe('what the binary loads at start', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });
  after(async () => {
    if (box) await rm(dirname(box.binDir), { recursive: true, force: true });
  });

  it('__bridge starts its own chunk, not the app, and exits with the command\'s code', async () => {
    const run = await box.run(['__bridge', '--', 'sh', '-c', 'echo inside; exit 7'], { env: { SUPERVISOR_CODE_CACHE_CHECK: '1' } });
    assert.equal(run.code, 7, run.stderr);
    assert.equal(run.stdout, 'inside\n');
    assert.match(run.stderr, /^chunk bridge code cache: accepted$/m);
    assert.doesNotMatch(run.stderr, /^code cache:/m, 'the app bundle was not loaded');
  });

  it('__bridge renders a usage error with its code, as the command line does', async () => {
    const run = await box.run(['__bridge', '--listen', 'nonsense', '--', 'true']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^error \[USAGE\]/m);
  });

  it('help and version load the small code cache, a command that works the run\'s', async () => {
    const env = { SUPERVISOR_CODE_CACHE_CHECK: '1' };
    for (const args of [['--version'], ['--help'], ['run', '--help']]) {
      const run = await box.run(args, { env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^code cache: accepted \(supervisor\.cache\)$/m, args.join(' '));
    }
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const pack = await box.run(['pack', '--target', 'math.js'], { cwd: repo, env });
    assert.equal(pack.code, 0, pack.stderr);
    assert.match(pack.stderr, /^code cache: accepted \(supervisor-run\.cache\)$/m);
  });
});
