/** always_include's own 2 MiB cap, and how the core runs packer plugins (fallbacks, loops, failures). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARKERS } from '../../../core/files/constants.ts';
import { packFileContext } from '../../../core/context/pack.ts';
import { definePlugin, type Plugin } from '../../../core/plugin-api/index.ts';
import { makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { makeRole, packerRegistry } from './_helpers.ts';

describe('always_include cap', () => {
  it('packs up to 2 MiB, marks what would pass it, and warns', async () => {
    const mb = (c: string) => Buffer.alloc(900 * 1024, c);
    const repo = await makeRepo({ 'req/a.md': mb('a'), 'req/b.md': mb('b'), 'req/c.md': mb('c'), 'req/d.md': 'small\n', 'req/huge.md': Buffer.alloc(1024 * 1024 + 1, 'h') });
    const packed = await packFileContext({ role: makeRole({ always_include: ['req/*.md'] }), repoRoot: repo, targets: [], registry: packerRegistry() });
    assert.deepEqual(packed.parts.find((p) => p.key === 'always_include')?.files, ['req/a.md', 'req/b.md', 'req/d.md']);
    assert.match(packed.text, /### req\/c\.md\n\n\[Skipped: would exceed total size cap\]\n/);
    assert.match(packed.text, /### req\/huge\.md\n\n\[File exceeds size limit\]\n/);
    assert.ok(packed.text.endsWith(`\n${MARKERS.alwaysIncludeCapped(2 * 1024 * 1024)}`));
    assert.ok(packed.warnings.some((w) => w.startsWith('always_include is capped at 2048 KB')));
  });

  it('does not warn when exactly 2 MiB is packed and nothing is left out; one byte more does', async () => {
    const mib = (c: string) => Buffer.alloc(1024 * 1024, c);
    const repo = await makeRepo({ 'req/a.md': mib('a'), 'req/b.md': mib('b') });
    const exact = await packFileContext({ role: makeRole({ always_include: ['req/*.md'] }), repoRoot: repo, targets: [], registry: packerRegistry() });
    assert.deepEqual(exact.parts.find((p) => p.key === 'always_include')?.files, ['req/a.md', 'req/b.md']);
    assert.deepEqual(exact.warnings, []);
    assert.doesNotMatch(exact.text, /WARNING: always_include capped/);

    await writeFiles(repo, { 'one.md': 'x' });
    const capped = await packFileContext({ role: makeRole({ always_include: ['req/*.md', 'one.md'] }), repoRoot: repo, targets: [], registry: packerRegistry() });
    assert.ok(capped.warnings.some((w) => w.startsWith('always_include is capped at 2048 KB')), capped.warnings.join('\n'));
  });
});

describe('packer plugins through the core', () => {
  const fake = (name: string, pack: Plugin<'packer'>['pack']) => definePlugin({ kind: 'packer', name, pack });

  it('gives plugins runPacker (a fallback to another packer) and merges parts by key', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const viaGlob = fake('via-glob', async (request, ctx) => {
      const fallback = await ctx.runPacker('glob', request);
      return { parts: [...fallback.parts, { key: 'tree', content: '## Tree\n\na.ts', files: [] }], notices: ['via-glob: used glob'] };
    });
    const packed = await packFileContext({ role: makeRole({ include: ['**/*'], packers: ['via-glob'] }), repoRoot: repo, targets: [], registry: packerRegistry(viaGlob) });
    assert.deepEqual(packed.parts.map((p) => p.key), ['files', 'tree']);
    assert.deepEqual(packed.notices, ['via-glob: used glob']);
  });

  it('stops packers that call each other in a loop', async () => {
    const repo = await makeRepo();
    const a = fake('loop-a', (request, ctx) => ctx.runPacker('loop-b', request));
    const b = fake('loop-b', (request, ctx) => ctx.runPacker('loop-a', request));
    await assert.rejects(
      packFileContext({ role: makeRole({ include: ['**/*'] }), packers: ['loop-a'], repoRoot: repo, targets: [], registry: packerRegistry(a, b) }),
      { code: 'PACKER_LOOP' },
    );
  });

  it('attributes a plugin failure to the plugin, and lets safePath errors through with their code', async () => {
    const repo = await makeRepo();
    const broken = fake('broken', async () => {
      throw new Error('kaboom');
    });
    await assert.rejects(packFileContext({ role: makeRole({ include: ['x'] }), packers: ['broken'], repoRoot: repo, targets: [], registry: packerRegistry(broken) }), {
      code: 'PLUGIN_HOOK',
      message: /broken failed in pack: kaboom/,
    });
    const nosy = fake('nosy', async (_request, ctx) => ({ parts: [{ key: 'files', content: await ctx.safePath('../../etc/passwd') }], notices: [] }));
    await assert.rejects(packFileContext({ role: makeRole({ include: ['x'] }), packers: ['nosy'], repoRoot: repo, targets: [], registry: packerRegistry(nosy) }), {
      code: 'PATH_OUTSIDE_REPO',
    });
  });
});
