/** `supervisor roles list | show | validate`, run in-process against real temporary repositories. */
import assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Role } from '../../../core/roles/role.ts';
import type { RoleSummary } from '../../../core/roles/load-role.ts';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/roles/', import.meta.url));
let repo: string;
let roles: string;

before(async () => {
  // A user adapter plugin, and a user role that extends a built-in overlay and runs through it.
  repo = await makeRepo({ 'SECURITY.md': '# Security\n' });
  roles = join(repo, '.supervisor', 'roles');
  await mkdir(join(repo, '.supervisor', 'plugins'), { recursive: true });
  await cp(join(fixtures, 'plugins', 'fixture-cli.ts'), join(repo, '.supervisor', 'plugins', 'fixture-cli.ts'));
  await cp(join(fixtures, 'user-repo'), roles, { recursive: true });
});

describe('supervisor roles', () => {
  it('loads and validates a repository role that extends a built-in role and names a user adapter plugin', async () => {
    const run = await runCli(['roles', 'validate', join(roles, 'security-strict.yaml')], { cwd: repo, trust: true });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ok +\.supervisor\/roles\/security-strict\.yaml$/m);

    const shown = await runCli(['roles', 'show', 'security-strict', '--json'], { cwd: repo, trust: true });
    assert.equal(shown.code, 0, shown.stderr);
    const role = JSON.parse(shown.stdout) as Role & { chain: string[] };
    assert.equal(role.cli, 'fixture-cli');
    assert.equal(role.extends, 'reviewer-security');
    assert.equal(role.base_role, 'reviewer');
    assert.equal(role.output_schema, 'review');
    assert.deepEqual(role.flags, ['--profile', 'strict']);
    assert.deepEqual(role.instructions, [join(roles, 'team-rules.md')]);
    assert.deepEqual(role.extensions, { 'x-model': 'sonnet', 'x-owner': 'platform-team' });
    assert.equal(role.config.max_cost_usd, 1.5);
    assert.match(role.system_prompt, /principal engineer[\s\S]*Security focus[\s\S]*payment data/);
    assert.equal(role.sources.cli, join(roles, 'security-strict.yaml'));
    assert.ok(role.sources.output_schema!.endsWith(join('roles', 'reviewer.yaml')));
    assert.equal(role.chain.length, 3);
  });

  it('lists roles with their file, extends, base role and cli', async () => {
    const run = await runCli(['roles', 'list', '--json'], { cwd: repo, trust: true });
    assert.equal(run.code, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as RoleSummary[];
    const mine = listed.find((r) => r.name === 'security-strict')!;
    assert.deepEqual(
      { file: mine.file, layer: mine.layer, extends: mine.extends, base_role: mine.base_role, cli: mine.cli, error: mine.error },
      { file: join(roles, 'security-strict.yaml'), layer: 'repo', extends: 'reviewer-security', base_role: 'reviewer', cli: 'fixture-cli', error: null },
    );
    assert.ok(listed.some((r) => r.name === 'reviewer' && r.layer === 'builtin'));

    const text = await runCli(['roles', 'list'], { cwd: repo, trust: true });
    assert.match(text.stdout, /^NAME +CLI +EXTENDS +BASE ROLE +FILE/);
    assert.match(text.stdout, /^security-strict +fixture-cli +reviewer-security +reviewer +\.supervisor\/roles\/security-strict\.yaml/m);
  });

  it('shows the merged role as YAML with the file each field came from', async () => {
    const run = await runCli(['roles', 'show', 'security-strict'], { cwd: repo, trust: true });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# chain: security-strict -> reviewer-security -> reviewer \(base role: reviewer\)$/m);
    assert.match(run.stdout, /^# cli: from \.supervisor\/roles\/security-strict\.yaml\ncli: fixture-cli$/m);
    assert.match(run.stdout, /^# system_prompt: from .*reviewer\.yaml \+ .*reviewer-security\.yaml \+ \.supervisor\/roles\/security-strict\.yaml$/m);
    assert.match(run.stdout, /^x-model: sonnet$/m);
  });

  it('shows a role file given by path', async () => {
    const run = await runCli(['roles', 'show', '.supervisor/roles/security-strict.yaml', '--json'], { cwd: repo, trust: true });
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as Role).name, 'security-strict');
  });

  it('validates every role when given no files, exiting 0 only when all are valid', async () => {
    const run = await runCli(['roles', 'validate', '--json'], { cwd: repo, trust: true });
    const report = JSON.parse(run.stdout) as { ok: boolean; roles: { file: string; ok: boolean; error?: { message: string } }[] };
    const mine = report.roles.find((r) => r.file === join(roles, 'security-strict.yaml'));
    assert.equal(mine?.ok, true, mine?.error?.message);
    assert.ok(report.roles.some((r) => r.file.endsWith(join('roles', 'planner.yaml'))));
    // The built-in adapters are always registered, so every built-in role is valid too.
    assert.deepEqual(report.roles.filter((r) => !r.ok), []);
    assert.equal(report.ok, true);
    assert.equal(run.code, 0, run.stderr);

    const broken = await makeRepo();
    await mkdir(join(broken, '.supervisor', 'roles'), { recursive: true });
    await writeFile(join(broken, '.supervisor', 'roles', 'bad.yaml'), 'name: bad\ndescription: d\ncli: no-such-adapter\nsystem_prompt: s\n');
    const bad = await runCli(['roles', 'validate'], { cwd: broken });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /error \[ROLE_INVALID\]: Role "bad" \(.*bad\.yaml\) is invalid:\n {2}\/cli: "no-such-adapter" is not a registered adapter/);
  });

  it('checks the given files, reporting each, and exits 2 when any is invalid', async () => {
    await writeFile(join(repo, 'loose.yaml'), 'name: loose\nextends: security-strict\ndescription: A loose file.\ncli: [fixture-cli]\n');
    const run = await runCli(['roles', 'validate', '.supervisor/roles/security-strict.yaml', 'loose.yaml'], { cwd: repo, trust: true });
    assert.equal(run.code, 2);
    assert.match(run.stdout, /^ok +\.supervisor\/roles\/security-strict\.yaml$/m);
    assert.match(run.stdout, /2 role files checked, 1 invalid/);
    assert.match(run.stderr, /error \[ROLE_INVALID\]: Role "loose" \(.*loose\.yaml\) is invalid:\n {2}\/cli: must be a string, not a list/);
  });

  it('lists a broken role with its error instead of failing the whole list', async () => {
    await writeFile(join(roles, 'half.yaml'), 'name: half\ndescription: [\n');
    const run = await runCli(['roles', 'list', '--json'], { cwd: repo, trust: true });
    assert.equal(run.code, 0, run.stderr);
    const half = (JSON.parse(run.stdout) as RoleSummary[]).find((r) => r.name === 'half');
    assert.equal(half?.error?.code, 'ROLE_YAML');
    const text = await runCli(['roles', 'list'], { cwd: repo, trust: true });
    assert.match(text.stdout, /^half .*INVALID \(ROLE_YAML\)/m);
  });

  it('says which roles exist when asked for an unknown one', async () => {
    const run = await runCli(['roles', 'show', 'revewer'], { cwd: repo, trust: true });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /error \[ROLE_NOT_FOUND\]: No role named "revewer"/);
    assert.match(run.stderr, /hint: Known roles: .*reviewer/);
  });
});
