/**
 * An untrusted repository runs no code without consent (issue 13 item 7), through the built
 * binary: its plugins, its templates and its node_modules/.bin/repomix load only after
 * `supervisor trust` (or with --trust), a notice says what was left out and how to trust it,
 * and role files cannot name files outside their folder and the repository.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, beforeEach, describe, it } from 'node:test';
import { makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

describe('repository trust, in the binary', binarySuite(), () => {
  let box: Sandbox;
  let repo: string;
  let marker: string;
  before(async () => {
    box = await makeSandbox();
  });
  beforeEach(async () => {
    marker = join(await tempDir('sv-marker-'), 'ran');
    const plant = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'plugin')`;
    repo = await makeRepo({
      'README.md': '# cloned\n',
      '.supervisor/plugins/evil.cjs': `${plant};\nmodule.exports = { kind: 'parser', name: 'evil', parse: (text, ctx) => ctx.validate({}) };\n`,
      '.supervisor/prompts/implement.eta': 'PROJECT TEMPLATE <% process.stderr.write("TEMPLATE RAN") %>\n',
      'node_modules/.bin/repomix': `#!/bin/sh\necho repomix > ${JSON.stringify(marker)}\nexit 1\n`,
    });
    await chmod(join(repo, 'node_modules', '.bin', 'repomix'), 0o755);
  });

  const notice = (path: string) => new RegExp(`not loaded: .*Trust it with: supervisor trust ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

  it("loads none of a cloned repository's plugins, templates or repomix, and says how to trust it", async () => {
    const real = await realpath(repo);
    const listed = await box.run(['plugins', 'list', '--json'], { cwd: repo });
    assert.equal(listed.code, 0, listed.stderr);
    const evil = (JSON.parse(listed.stdout) as { name: string; status: string }[]).find((p) => p.name === 'evil');
    assert.equal(evil?.status, 'untrusted');
    assert.match(listed.stderr, notice(real));

    const prompt = await box.run(['prompt', 'implementer', '--task', 'Add a test'], { cwd: repo });
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.doesNotMatch(prompt.stdout, /PROJECT TEMPLATE/);
    assert.doesNotMatch(prompt.stderr, /TEMPLATE RAN/);
    assert.match(prompt.stderr, /not loaded: templates implement\.eta/);

    const pack = await box.run(['pack', '--packer', 'repomix', '--include', 'README.md'], { cwd: repo });
    assert.equal(pack.code, 0, pack.stderr);
    assert.match(pack.stderr, /repomix.*was not run: this repository is not trusted/);
    assert.match(pack.stdout, /# cloned/);

    const doctor = await box.run(['doctor', '--json'], { cwd: repo });
    assert.equal(doctor.code, 0, doctor.stderr);
    const report = JSON.parse(doctor.stdout) as { trust: { trusted: boolean; path: string }; repomix: { not_trusted?: boolean } };
    assert.deepEqual([report.trust.trusted, report.trust.path, report.repomix.not_trusted], [false, real, true]);
    assert.equal(existsSync(marker), false, 'no code of the repository ran');
  });

  it('supervisor trust lets them load, --list shows it, --remove takes it back; --trust trusts for one command', async () => {
    const real = await realpath(repo);
    const trusted = await box.run(['trust'], { cwd: repo });
    assert.equal(trusted.code, 0, trusted.stderr);
    const list = await box.run(['trust', '--list', '--json'], { cwd: repo });
    assert.deepEqual((JSON.parse(list.stdout) as { trusted: string[] }).trusted, [real]);
    const doctor = await box.run(['doctor'], { cwd: repo });
    assert.match(doctor.stdout, /trust: trusted/);
    const prompt = await box.run(['prompt', 'implementer', '--task', 'Add a test'], { cwd: repo });
    assert.match(prompt.stdout, /PROJECT TEMPLATE/);
    assert.equal(existsSync(marker), true, 'the trusted repository\'s plugin loaded');

    await rm(marker);
    assert.equal((await box.run(['trust', '--remove'], { cwd: repo })).code, 0);
    await box.run(['plugins', 'list'], { cwd: repo });
    assert.equal(existsSync(marker), false);
    const once = await box.run(['plugins', 'list', '--json', '--trust'], { cwd: repo });
    assert.equal((JSON.parse(once.stdout) as { name: string; status: string }[]).find((p) => p.name === 'evil')?.status, 'loaded');
    assert.equal(existsSync(marker), true);
    assert.deepEqual((JSON.parse((await box.run(['trust', '--list', '--json'], { cwd: repo })).stdout) as { trusted: string[] }).trusted, []);
  });

  // A role's gates and its set-up commands are both the repository's code: refused alike until trusted.
  const roleCommands = [
    { title: "runs no gate of an untrusted repository's role: ROLE_UNTRUSTED_GATES names them; --trust runs them", role: 'gated', key: 'gates', code: 'ROLE_UNTRUSTED_GATES' },
    { title: "runs no set-up of an untrusted repository's role: ROLE_UNTRUSTED_SETUP names it; --trust runs it before the CLI", role: 'setting-up', key: 'setup', code: 'ROLE_UNTRUSTED_SETUP' },
  ] as const;
  for (const { title, role, key, code } of roleCommands) {
    it(title, async () => {
      const reply = join(await tempDir('sv-reply-'), 'approved.md');
      await writeFile(reply, '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n');
      const command = `echo ${key} > ${marker}`;
      await writeFiles(repo, { [`.supervisor/roles/${role}.yaml`]: `name: ${role}\nextends: reviewer\n${key}: ["${command}"]\n` });
      const env = { SUPERVISOR_REPLAY: reply };
      const refused = await box.run(['run', role, '--cli', 'replay', '--task', 'Review', '--json'], { cwd: repo, env });
      assert.equal(refused.code, 2, refused.stderr);
      const error = (JSON.parse(refused.stderr.trim().split('\n').pop()!) as { error: { code: string; details: Record<string, string[]> } }).error;
      assert.deepEqual([error.code, error.details[key]], [code, [command]]);
      assert.equal(existsSync(marker), false);
      const trusted = await box.run(['run', role, '--cli', 'replay', '--task', 'Review', '--json', '--trust'], { cwd: repo, env });
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.equal(existsSync(marker), true);
    });
  }

  it('a trusted template still cannot reach process through it.constructor.constructor', async () => {
    await writeFiles(repo, { '.supervisor/prompts/implement.eta': `<%= it.constructor.constructor('return process')().pid %>\n` });
    const prompt = await box.run(['prompt', 'implementer', '--task', 'x', '--trust', '--json'], { cwd: repo });
    assert.equal(prompt.code, 2, prompt.stdout);
    assert.equal((JSON.parse(prompt.stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code, 'TEMPLATE_UNDEFINED_VARIABLE');
  });

  it("role instructions and output_schema paths stay in the role's folder or the repository", async () => {
    const outside = await tempDir('sv-secret-');
    await writeFile(join(outside, 'id_rsa'), 'PRIVATE KEY');
    await mkdir(join(repo, '.supervisor', 'roles'), { recursive: true });
    await symlink(join(outside, 'id_rsa'), join(repo, '.supervisor', 'roles', 'notes.md'));
    await writeFiles(repo, {
      '.supervisor/roles/absolute.yaml': `name: absolute\nextends: reviewer\ninstructions: [${JSON.stringify(join(outside, 'id_rsa'))}]\n`,
      '.supervisor/roles/climber.yaml': `name: climber\nextends: reviewer\noutput_schema: ../../../../../../../../../..${outside}/id_rsa.json\n`,
      '.supervisor/roles/linked.yaml': 'name: linked\nextends: reviewer\ninstructions: [notes.md]\n',
    });
    for (const role of ['absolute', 'climber', 'linked']) {
      const prompt = await box.run(['prompt', role, '--task', 'x', '--json'], { cwd: repo });
      assert.equal(prompt.code, 2, `${role}: ${prompt.stderr}`);
      assert.doesNotMatch(prompt.stdout, /PRIVATE KEY/);
      assert.equal((JSON.parse(prompt.stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code, 'ROLE_PATH_OUTSIDE', role);
    }
  });
});
