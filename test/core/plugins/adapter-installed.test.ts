/** Whether an adapter's CLI is installed and runnable: its own `installed` hook, else PATH and `--version`. */
import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AdapterPlugin } from '../../../core/plugin-api/contracts.ts';
import { checkPluginShape } from '../../../core/plugin-api/shape.ts';
import { adapterInstalled } from '../../../core/plugins/adapter-installed.ts';
import { tempDir } from '../../helpers/git-repo.ts';

const adapter = (fields: Partial<AdapterPlugin>): AdapterPlugin => ({
  kind: 'adapter',
  name: 'mycli',
  bin: 'mycli',
  command: () => ({ args: [] }),
  extract: () => ({ text: null, metrics: { inputTokens: null, outputTokens: null, cachedTokens: null, costUsd: null, durationMs: null, turns: null, sessionId: null, model: null } }),
  ...fields,
});

async function binDir(script: string): Promise<string> {
  const dir = await tempDir('sv-bin-');
  await writeFile(join(dir, 'mycli'), `#!/bin/sh\n${script}\n`);
  await chmod(join(dir, 'mycli'), 0o755);
  return dir;
}

describe('adapterInstalled', () => {
  it('default: found on PATH and `--version` exits 0', async () => {
    const dir = await binDir('echo "mycli 1.2.3"');
    const got = await adapterInstalled(adapter({}), { env: { PATH: `${dir}:/usr/bin:/bin` }, cwd: dir });
    assert.equal(got.ok, true);
    assert.match(got.ok ? (got.detail ?? '') : '', /mycli 1\.2\.3/);
  });

  it('default: not on PATH, or a version check that fails, is not runnable, with what is missing', async () => {
    const missing = await adapterInstalled(adapter({}), { env: { PATH: '/nonexistent' }, cwd: '/' });
    assert.deepEqual([missing.ok, !missing.ok && missing.missing], [false, 'mycli (not found on PATH)']);
    const dir = await binDir('echo "libfoo.so: cannot open shared object file" >&2; exit 127');
    const broken = await adapterInstalled(adapter({}), { env: { PATH: `${dir}:/usr/bin:/bin` }, cwd: dir });
    assert.equal(broken.ok, false);
    assert.match(!broken.ok ? broken.missing : '', /exited 127: libfoo\.so/);
  });

  it("the adapter's own installed() hook decides, and a wrong answer is the plugin's fault", async () => {
    const got = await adapterInstalled(adapter({ installed: (ctx) => ({ ok: false, missing: `login for ${ctx.which('sh') ? 'sh' : '?'}`, hint: 'log in' }) }), { env: { PATH: '/usr/bin:/bin' }, cwd: '/' });
    assert.deepEqual(got, { ok: false, missing: 'login for sh', hint: 'log in' });
    await assert.rejects(adapterInstalled(adapter({ installed: () => ({ ok: 'yes' }) as never }), { env: {}, cwd: '/' }), { code: 'PLUGIN_SHAPE' });
    assert.deepEqual(await adapterInstalled(adapter({ selfHosted: true }), { env: {}, cwd: '/' }), { ok: true, detail: 'answers through supervisor itself' });
  });

  it('the plugin shape checks commandPermissions and installed', () => {
    assert.equal(checkPluginShape(adapter({ commandPermissions: 'list', installed: () => ({ ok: true }) })).ok, true);
    assert.equal(checkPluginShape(adapter({ commandPermissions: 'some' as never })).ok, false);
    assert.equal(checkPluginShape(adapter({ installed: 'yes' as never })).ok, false);
  });
});
