/**
 * The sandbox plugin kind through the CLI: a user's sandbox plugin gets the CLI's and the
 * gates' command with the settled policy and its command is what runs; a sandbox that cannot
 * run here or does not exist stops the run with exit 2; doctor lists the sandboxes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SandboxRequest } from '../../../core/plugin-api/contracts.ts';
import { readEvents } from '../../../core/runs/runs-store.ts';
import { worktreesDir } from '../../../core/state-dir.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { fakeEnv, fenced, replies, runJson } from '../../e2e/_run.ts';

const approved = fenced({ status: 'APPROVED', review_status: 'APPROVED', issues: [] });

/** A sandbox plugin that records each request and runs the command through `env SANDBOXED=<purpose>`. */
const recorder = `
import { appendFileSync } from 'node:fs';
import { definePlugin } from 'supervisor/plugin';
export default definePlugin({
  kind: 'sandbox',
  name: 'recorder',
  available: (ctx, options) => options && options.broken ? { ok: false, missing: 'the flux capacitor', hint: 'apt-get install flux' } : { ok: true },
  // With AHEAD_RECORD set: starts "ahead" (a token it hands to the first CLI wrap), or fails to when AHEAD_RECORD=throw.
  ahead(policy, ctx) {
    if (!ctx.env.AHEAD_RECORD) return undefined;
    if (ctx.env.AHEAD_RECORD === 'throw') throw new Error('cannot start ahead');
    const token = 'ahead-' + process.hrtime.bigint();
    appendFileSync(ctx.env.RECORD_FILE, JSON.stringify({ ahead: token, policy }) + '\\n');
    return { token, release: async () => appendFileSync(ctx.env.RECORD_FILE, JSON.stringify({ released: token }) + '\\n') };
  },
  wrap(request, ctx) {
    appendFileSync(ctx.env.RECORD_FILE, JSON.stringify(request) + '\\n');
    const { bin, args, env } = request.command;
    return {
      bin: ctx.which('env'),
      args: ['SANDBOXED=' + request.purpose, bin, ...args],
      env,
      teardown: async () => appendFileSync(ctx.env.RECORD_FILE, JSON.stringify({ teardown: request.id }) + '\\n'),
    };
  },
});
`;

async function repoWithRecorder(): Promise<{ repo: string; record: string }> {
  const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
  await mkdir(join(repo, '.supervisor/plugins'), { recursive: true });
  await writeFile(join(repo, '.supervisor/plugins/recorder.mjs'), recorder);
  return { repo, record: join(await tempDir('sv-rec-'), 'record.jsonl') };
}

function records(file: string): (SandboxRequest | { teardown: string })[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
}

describe('the sandbox plugin kind', () => {
  it('wraps the CLI and the gates with their own policies; what it returns is what runs; tear-down follows', async () => {
    const { repo, record } = await repoWithRecorder();
    const home = await tempDir('sv-home-');
    await writeFile(join(home, '.claude.json'), '{}');
    const run = await runJson(
      repo,
      ['reviewer', '--trust', '--cli', 'claude', '--task', 'Review', '--sandbox', 'recorder', '--allow-host', 'localhost:8080', '--pass-env', 'FAKE_CLI_*', '--pass-env', 'GATE_ONLY', '--gate', 'test "$SANDBOXED" = gate'],
      { RECORD_FILE: record, FAKE_CLI_REPLY_FILE: await replies(approved), FAKE_CLI_LOG: join(home, 'calls.jsonl'), HOME: home, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999/api', MY_SECRET_TOKEN: 'hunter2', GATE_ONLY: 'g', LC_ALL: 'C' },
    );
    assert.equal(run.code, 0, run.stderr);
    const [cli, cliDown, gate, gateDown] = records(record) as [SandboxRequest, { teardown: string }, SandboxRequest, { teardown: string }];
    assert.equal(cli.purpose, 'cli');
    assert.equal(cli.command.bin, 'claude');
    assert.equal(cli.cwd, run.result.worktree.path);
    assert.equal(cli.scratchDir, join(run.result.run_dir, 'attempt-1'));
    assert.equal(cli.repoRoot, repo);
    assert.equal(cli.policy.network, 'allow');
    assert.deepEqual(cli.policy.allow, ['localhost:8080', 'api.anthropic.com:443', '127.0.0.1:9999']);
    assert.deepEqual(cli.policy.config[0], { path: join(home, '.claude.json'), mode: 'copy' });
    assert.deepEqual(cli.policy.limits, { pids: 512, memoryMb: 4096, cpus: 2 });
    assert.equal(cliDown.teardown, cli.id);
    assert.equal(gate.purpose, 'gate');
    assert.equal(gate.policy.network, 'none', 'gates get no network by default');
    assert.deepEqual(gate.policy.config, []);
    assert.equal(gateDown.teardown, gate.id);
    // The environment is an allowlist, the same for every sandbox: the base set, the adapter's, the user's.
    const names = (r: SandboxRequest) => Object.keys(r.command.env);
    for (const name of ['PATH', 'HOME', 'LC_ALL', 'SUPERVISOR_RUN_ID', 'SUPERVISOR_ROLE', 'FAKE_CLI_REPLY_FILE', 'GATE_ONLY', 'ANTHROPIC_BASE_URL', 'DISABLE_TELEMETRY']) assert.ok(names(cli).includes(name), `${name} reaches the CLI`);
    for (const name of ['MY_SECRET_TOKEN', 'RECORD_FILE']) assert.ok(!names(cli).includes(name) && !names(gate).includes(name), `${name} stays outside`);
    assert.ok(names(gate).includes('GATE_ONLY') && !names(gate).includes('ANTHROPIC_BASE_URL'), "gates get the user's names, not the adapter's");
    const started = readEvents(run.result.run_dir).find((e) => e.kind === 'attempt_started');
    assert.equal(started?.sandbox, 'recorder');
  });

  it('a role names its sandbox and options; the flag adds hosts', async () => {
    const { repo, record } = await repoWithRecorder();
    await mkdir(join(repo, '.supervisor/roles'), { recursive: true });
    await writeFile(join(repo, '.supervisor/roles/boxed.yaml'), 'extends: reviewer\nsandbox:\n  name: recorder\n  network: none\n  allow: ["pypi.org:443"]\n  gate_network: allow\n  pids: 64\n  image: x/y:1\n  env: [ROLE_VAR, ROLE_PREFIX_*]\n');
    const run = await runJson(repo, ['boxed', '--trust', '--cli', 'replay', '--task', 'Review', '--gate', 'true'], { RECORD_FILE: record, ROLE_VAR: '1', ROLE_PREFIX_A: '2', OTHER_VAR: '3' });
    assert.equal(run.code, 0, run.stderr);
    const [cli, , gate] = records(record) as SandboxRequest[];
    assert.equal(cli!.policy.network, 'none');
    assert.deepEqual(cli!.policy.allow, ['pypi.org:443']);
    assert.deepEqual(cli!.policy.options, { image: 'x/y:1' });
    assert.equal(cli!.policy.limits.pids, 64);
    assert.deepEqual([gate!.policy.network, gate!.policy.allow], ['allow', ['pypi.org:443']]);
    for (const request of [cli!, gate!]) {
      assert.deepEqual(['ROLE_VAR', 'ROLE_PREFIX_A', 'OTHER_VAR'].map((n) => n in request.command.env), [true, true, false], "the role's sandbox.env names pass, nothing else");
    }
  });

  it('--pass-env takes variable names only, on run and workflow run: anything else is a usage error before anything starts', async () => {
    const repo = await makeRepo({ 'plan.yaml': 'tasks:\n  - id: one\n    title: look\n    task: look at it\n' });
    for (const argv of [['run', 'reviewer', '--cli', 'replay', '--task', 'x'], ['workflow', 'run', 'plan.yaml', '--cli', 'replay']]) {
      const run = await runCli([...argv, '--pass-env', 'A=B', '--json'], { cwd: repo });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /"code":"SANDBOX_OPTION".*sandbox\.env: expected a list of variable names/);
      assert.doesNotMatch(git(repo, 'branch', '--list', 'supervisor/*'), /supervisor/, 'nothing ran');
    }
  });

  it('ahead: the sandbox gets the CLI\'s policy while the run is prepared; the first CLI wrap gets what it started, gates do not; released once, after the run\'s processes', async () => {
    const { repo, record } = await repoWithRecorder();
    const run = await runJson(repo, ['reviewer', '--trust', '--cli', 'claude', '--task', 'Review', '--sandbox', 'recorder', '--pass-env', 'FAKE_CLI_*', '--allow-host', 'localhost:8080', '--gate', 'true'], {
      RECORD_FILE: record,
      AHEAD_RECORD: '1',
      FAKE_CLI_REPLY_FILE: await replies(approved),
    });
    assert.equal(run.code, 0, run.stderr);
    const [ahead, cli, cliDown, gate, gateDown, released, ...rest] = records(record) as unknown as Record<string, any>[];
    assert.deepEqual(rest, []);
    assert.deepEqual([ahead!.policy.network, ahead!.policy.allow], [cli!.policy.network, cli!.policy.allow]);
    assert.deepEqual(cli!.ahead, { token: ahead!.ahead }, 'the CLI\'s wrap got what was started');
    assert.equal(gate!.purpose, 'gate');
    assert.equal(gate!.ahead, undefined, 'a gate never does');
    assert.deepEqual([cliDown!.teardown, gateDown!.teardown], [cli!.id, gate!.id]);
    assert.deepEqual(released, { released: ahead!.ahead });
  });

  it('ahead: released when the run stops before its CLI (a failing set-up), never started by a dry run, and one that fails only means nothing was started', async () => {
    const { repo, record } = await repoWithRecorder();
    const env = { RECORD_FILE: record, AHEAD_RECORD: '1', FAKE_CLI_REPLY_FILE: await replies(approved) };
    const failed = await runCli(['run', 'reviewer', '--trust', '--cli', 'claude', '--task', 'Review', '--sandbox', 'recorder', '--setup', 'exit 3', '--json'], { cwd: repo, env: fakeEnv(env) });
    assert.match(failed.stderr, /SETUP_FAILED/);
    const kept = records(record) as unknown as Record<string, any>[];
    assert.ok(!kept.some((r) => r.command?.bin === 'claude'), 'no CLI ran');
    assert.ok(kept.some((r) => r.command) && kept.filter((r) => r.command).every((r) => r.ahead === undefined), 'the set-up (wrapped too) did not get it');
    assert.deepEqual(kept.filter((r) => r.released).map((r) => r.released), [kept[0]!.ahead]);
    const dry = await runCli(['run', 'reviewer', '--trust', '--cli', 'claude', '--task', 'x', '--sandbox', 'recorder', '--dry-run', '--json'], { cwd: repo, env: fakeEnv({ ...env, RECORD_FILE: `${record}.dry` }) });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(records(`${record}.dry`), [], 'a dry run starts nothing ahead');
    const thrown = await runJson(repo, ['reviewer', '--trust', '--cli', 'claude', '--task', 'Review', '--sandbox', 'recorder', '--pass-env', 'FAKE_CLI_*'], { ...env, RECORD_FILE: `${record}.throw`, AHEAD_RECORD: 'throw' });
    assert.equal(thrown.code, 0, thrown.stderr);
    assert.match(thrown.stderr, /notice: sandbox recorder could not start ahead \(its wrap does it all\): .*cannot start ahead/);
    const [cli] = records(`${record}.throw`) as unknown as Record<string, any>[];
    assert.equal(cli!.purpose, 'cli');
    assert.equal(cli!.ahead, undefined);
  });

  it('--dry-run names the sandbox and the CLI\'s network, and starts nothing', async () => {
    const { repo, record } = await repoWithRecorder();
    const run = await runCli(['run', 'reviewer', '--trust', '--cli', 'claude', '--task', 'x', '--sandbox', 'recorder', '--allow-host', '127.0.0.1:9', '--dry-run', '--json'], {
      cwd: repo,
      env: fakeEnv({ RECORD_FILE: record }),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).sandbox, { name: 'recorder', network: 'allow', allow: ['127.0.0.1:9', 'api.anthropic.com:443'] });
    assert.deepEqual(records(record), []);
    const text = await runCli(['run', 'reviewer', '--trust', '--cli', 'claude', '--task', 'x', '--sandbox', 'recorder', '--dry-run'], { cwd: repo, env: fakeEnv({ RECORD_FILE: record }) });
    assert.match(text.stdout, /# in the recorder sandbox, network allow: api\.anthropic\.com:443/);
  });

  it('a sandbox that cannot run here: exit 2 with what is missing and how to get it, before any worktree', async () => {
    const { repo, record } = await repoWithRecorder();
    await mkdir(join(repo, '.supervisor/roles'), { recursive: true });
    await writeFile(join(repo, '.supervisor/roles/boxed.yaml'), 'extends: reviewer\nsandbox: { name: recorder, broken: true }\n');
    const run = await runCli(['run', 'boxed', '--trust', '--cli', 'replay', '--task', 'Review'], { cwd: repo, env: fakeEnv({ RECORD_FILE: record }) });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /The recorder sandbox cannot run here: the flux capacitor is missing/);
    assert.match(run.stderr, /apt-get install flux/);
    assert.ok(!existsSync(join(repo, '.supervisor/runs')), 'no run started');
    assert.ok(!existsSync(worktreesDir(repo)), 'no worktree was made, not even for a moment');
    assert.deepEqual(records(record), []);
    // `ahead` is asked while `available` is: what it started goes when the answer is no.
    const ahead = await runCli(['run', 'boxed', '--trust', '--cli', 'replay', '--task', 'Review'], { cwd: repo, env: fakeEnv({ RECORD_FILE: `${record}.ahead`, AHEAD_RECORD: '1' }) });
    assert.equal(ahead.code, 2);
    const [started, released, ...rest] = records(`${record}.ahead`) as unknown as Record<string, any>[];
    assert.deepEqual([released, rest], [{ released: started!.ahead }, []], 'started ahead, released, nothing wrapped');
  });

  it('an unknown sandbox or a bad allow entry is a configuration error (exit 2)', async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const unknown = await runCli(['run', 'reviewer', '--cli', 'replay', '--task', 'x', '--sandbox', 'jail'], { cwd: repo, env: fakeEnv() });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No sandbox plugin named "jail"/);
    assert.match(unknown.stderr, /bwrap, docker, none, podman/);
    const bad = await runCli(['run', 'reviewer', '--cli', 'replay', '--task', 'x', '--allow-host', 'example.com'], { cwd: repo, env: fakeEnv() });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /sandbox\.allow: expected a "host:port" entry/);
  });

  it('doctor lists every sandbox and whether it can run here', async () => {
    const repo = await makeRepo();
    const run = await runCli(['doctor', '--json'], { cwd: repo, env: { PATH: '/nonexistent' } });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { sandboxes: { name: string; available: boolean; missing: string | null; hint: string | null }[] };
    assert.deepEqual(report.sandboxes.map((s) => s.name), ['bwrap', 'docker', 'none', 'podman']);
    const byName = Object.fromEntries(report.sandboxes.map((s) => [s.name, s]));
    assert.equal(byName.none!.available, true);
    assert.equal(byName.bwrap!.available, false);
    assert.match(byName.bwrap!.missing!, /bubblewrap/);
    assert.match(byName.bwrap!.hint!, /apt-get install bubblewrap/);
    assert.match(byName.docker!.missing!, /docker/);
    const text = await runCli(['doctor'], { cwd: repo, env: { PATH: '/nonexistent' } });
    assert.match(text.stdout, /sandboxes \(--sandbox <name>\):\n {2}-- bwrap {4}cannot run here: bubblewrap \(bwrap\) is missing/);
    assert.match(text.stdout, /ok none {5}can run here/);
  });
});
