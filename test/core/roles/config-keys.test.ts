/** Issue 14 item 8: unknown config/context keys are reported; role and command line share ranges; x-replay is relative to the role file. */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const roleFile = (body: string) => `extends: reviewer\ndescription: A test role.\n${body}`;

describe('role config and context keys', () => {
  it('reports unknown keys with a suggestion, and accepts the core\'s, the plugins\' and x- keys', async () => {
    const repo = await makeRepo();
    await writeFiles(join(repo, '.supervisor/roles'), {
      'typos.yaml': roleFile('config:\n  max_retry: 2\n  timout: 60\ncontext:\n  includes: ["src/**"]\n'),
      'fine.yaml': roleFile('config:\n  max_retries: 0\n  gate_timeout: 60\n  x-team: core\ncontext:\n  repomix_online: false\n  gitignore: true\n  style: xml\n'),
    });
    const typos = await runCli(['roles', 'validate', '.supervisor/roles/typos.yaml'], { cwd: repo });
    assert.equal(typos.code, 2);
    assert.match(typos.stderr, /\/config\/max_retry: unknown config key "max_retry"; did you mean "max_retries"\?/);
    assert.match(typos.stderr, /\/config\/timout: unknown config key "timout"; did you mean "timeout"\?/);
    assert.match(typos.stderr, /\/context\/includes: unknown context key "includes"; did you mean "include"\?/);
    const run = await runCli(['run', 'typos', '--task', 'x', '--cli', 'replay'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /ROLE_INVALID/);
    const fine = await runCli(['roles', 'validate', '.supervisor/roles/fine.yaml'], { cwd: repo });
    assert.equal(fine.code, 0, fine.stderr);
  });

  it('a plugin declares the keys it reads (configKeys, contextKeys)', async () => {
    const repo = await makeRepo();
    await writeFiles(repo, {
      'plugins/knobby.mjs': "export default { kind: 'adapter', name: 'knobby', bin: 'true', configKeys: ['knob'], command: () => ({ args: [] }), extract: () => ({ text: null, metrics: {} }) };\n",
      'plugins/packy.mjs': "export default { kind: 'packer', name: 'packy', contextKeys: ['depth'], pack: async () => ({ parts: [], notices: [] }) };\n",
      '.supervisor/roles/knob.yaml': roleFile('config:\n  knob: 3\ncontext:\n  depth: 2\n'),
    });
    const without = await runCli(['roles', 'validate', '.supervisor/roles/knob.yaml'], { cwd: repo });
    assert.equal(without.code, 2);
    assert.match(without.stderr, /unknown config key "knob"/);
    assert.match(without.stderr, /unknown context key "depth"/);
    const withPlugins = await runCli(['--plugin', 'plugins/knobby.mjs', '--plugin', 'plugins/packy.mjs', 'roles', 'validate', '.supervisor/roles/knob.yaml'], { cwd: repo });
    assert.equal(withPlugins.code, 0, withPlugins.stderr);
  });

  it('the role and the command line accept the same ranges', async () => {
    const repo = await makeRepo();
    for (const [value, ok] of [['0', true], ['10', true], ['11', false], ['-1', false], ['1.5', false]] as const) {
      await writeFiles(join(repo, '.supervisor/roles'), { 'r.yaml': roleFile(`config:\n  max_retries: ${value}\n`) });
      const role = await runCli(['roles', 'validate', '.supervisor/roles/r.yaml'], { cwd: repo });
      const flag = await runCli(['run', 'reviewer', '--cli', 'replay', '--task', 'x', '--retries', value, '--dry-run'], { cwd: repo });
      assert.equal(role.code === 0, ok, `max_retries: ${value}: ${role.stderr}`);
      assert.equal(flag.code === 0, ok, `--retries ${value}: ${flag.stderr}`);
    }
  });

  it('x-replay is relative to the role file, wherever supervisor runs', async () => {
    const repo = await makeRepo({ 'src/a.js': 'export const a = 1;\n' });
    const roles = join(repo, '.supervisor/roles');
    await writeFiles(roles, {
      'replayed.yaml': roleFile('cli: replay\nx-replay: replies/approve.md\n'),
      'replies/approve.md': '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n',
    });
    await mkdir(join(repo, 'src'), { recursive: true });
    const run = await runCli(['run', 'replayed', '--task', 'x', '--json'], { cwd: join(repo, 'src') });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`answers from ${join(roles, 'replies', 'approve.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});
