/**
 * docker and podman, with a fake engine first on PATH (no engine runs here): the command line
 * argument by argument, a missing image or engine as a configuration error, and the container
 * removed (`<engine> rm -f <name>`) after a run, a timeout and Ctrl-C.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../../core/run/result.ts';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';
import { FAKE_BIN, fakeEnv, fenced, PROJECT_ROOT, replies, runJson } from '../../e2e/_run.ts';

const ENGINE = fileURLToPath(new URL('../../fixtures/engine/fake-engine.mjs', import.meta.url));
const IMAGE = 'example/cli:1';
const approved = fenced({ status: 'APPROVED', review_status: 'APPROVED', issues: [] });

interface EngineCall {
  engine: string;
  args: string[];
}

async function setup(engine: 'docker' | 'podman', sandbox: string) {
  const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
  await mkdir(join(repo, '.supervisor/roles'), { recursive: true });
  await writeFile(join(repo, '.supervisor/roles/boxed.yaml'), `extends: reviewer\nsandbox: ${sandbox}\n`);
  const dir = await tempDir('sv-engine-');
  await symlink(ENGINE, join(dir, engine));
  const log = join(dir, 'engine.jsonl');
  const env = { PATH: [dir, FAKE_BIN, process.env.PATH].join(delimiter), FAKE_ENGINE_LOG: log, FAKE_CLI_REPLY_FILE: await replies(approved) };
  const calls = (): EngineCall[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as EngineCall) : []);
  return { repo, env, calls };
}

/** The value after a flag (the first occurrence). */
function after(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i < 0 ? undefined : args[i + 1];
}

describe('docker and podman sandboxes (fake engine on PATH)', () => {
  for (const engine of ['docker', 'podman'] as const) {
    it(`${engine}: runs the CLI in the named image with the hardening flags, then removes the container`, async () => {
      const { repo, env, calls } = await setup(engine, `{ name: ${engine}, image: "${IMAGE}", network: none, pids: 100, memory_mb: 2048, cpus: 1.5 }`);
      const before = snapshotCheckout(repo);
      const run = await runJson(repo, ['boxed', '--pass-env', 'FAKE_*', '--cli', 'claude', '--task', 'Review math.js', '--target', 'math.js'], { ...env, MY_SECRET_TOKEN: 'hunter2', ANTHROPIC_API_KEY: 'sk-test' });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.result.status, 'pass');
      const runs = calls().filter((c) => c.args[0] === 'run');
      assert.equal(runs.length, 1);
      const args = runs[0]!.args;
      const name = `supervisor-${run.result.run_id}-1-cli-1`;
      const worktree = run.result.worktree.path;
      const scratch = join(run.result.run_dir, 'attempt-1');
      const common = join(repo, '.git');
      const admin = join(common, 'worktrees', run.result.run_id);
      const user = engine === 'podman' ? ['--userns', 'keep-id'] : ['--user', `${process.getuid!()}:${process.getgid!()}`];
      const imageAt = args.indexOf(IMAGE);
      const envFlags = args.slice(0, imageAt).flatMap((a, i, all) => (all[i - 1] === '-e' ? [a] : []));
      const expected = [
        'run', '--rm', '--name', name, '--init', '-i',
        '--read-only', '--tmpfs', '/tmp:rw,exec,nosuid,nodev', '--tmpfs', '/home/supervisor:rw,exec,nosuid,nodev',
        '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
        '--pids-limit', '100', '--memory', '2048m', '--cpus', '1.5',
        '--network', 'none', ...user,
        '-v', `${common}:${common}:ro`, '-v', `${admin}:${admin}`,
        '-v', `${worktree}:${worktree}`, '-v', `${scratch}:${scratch}`,
        ...envFlags.flatMap((e) => ['-e', e]),
        '-w', worktree,
        IMAGE, 'claude', '-p', '--output-format', 'json',
      ];
      assert.deepEqual(args.slice(0, expected.length), expected);
      // Values never on the command line: -e NAME only, except the container's own HOME and TMPDIR.
      assert.ok(envFlags.includes('FAKE_CLI_REPLY_FILE'), 'named with --pass-env');
      assert.ok(envFlags.includes('ANTHROPIC_API_KEY'), "the adapter's declared variable");
      assert.ok(!envFlags.includes('MY_SECRET_TOKEN') && !args.some((a) => a.includes('hunter2')), 'an unlisted variable stays outside');
      assert.ok(envFlags.includes('HOME=/home/supervisor') && envFlags.includes('TMPDIR=/tmp'));
      assert.ok(!envFlags.includes('PATH'), 'the host PATH stays out of the image');
      assert.ok(envFlags.filter((e) => e.includes('=')).every((e) => /^(HOME|TMPDIR)=/.test(e)), envFlags.join(' '));
      assert.deepEqual(calls().at(-1), { engine, args: ['rm', '-f', name] });
      assertCheckoutUnchanged(repo, before);
    });
  }

  it('allow mode: no network in the container; the bridge (supervisor, mounted read-only) leads to the proxy', async () => {
    const { repo, env, calls } = await setup('docker', `{ name: docker, image: "${IMAGE}" }`);
    const run = await runJson(repo, ['boxed', '--pass-env', 'FAKE_*', '--cli', 'claude', '--task', 'Review', '--allow-host', '127.0.0.1:18999'], env);
    assert.equal(run.code, 0, run.stderr);
    const args = calls().find((c) => c.args[0] === 'run')!.args;
    assert.equal(after(args, '--network'), 'none');
    assert.ok(args.includes('HTTPS_PROXY=http://127.0.0.1:3128'), args.join(' '));
    assert.ok(args.includes(`${process.execPath}:${process.execPath}:ro`), 'node mounted for the bridge (running from source)');
    assert.ok(args.includes(`${PROJECT_ROOT.replace(/\/$/, '')}:${PROJECT_ROOT.replace(/\/$/, '')}:ro`), 'the supervisor sources mounted for the bridge');
    const inner = args.slice(args.indexOf(IMAGE) + 1);
    assert.equal(inner[0], process.execPath);
    assert.equal(inner[2], '__bridge');
    const listens = inner.flatMap((a, i) => (inner[i - 1] === '--listen' ? [a] : []));
    assert.equal(listens.length, 2);
    assert.match(listens[0]!, /^127\.0\.0\.1:3128=\/.+\/proxy\.sock$/);
    assert.match(listens[1]!, /^127\.0\.0\.1:18999=\/.+\/fwd-18999\.sock$/);
    assert.deepEqual(inner.slice(inner.indexOf('--') + 1, inner.indexOf('--') + 2), ['claude']);
  });

  it('open network: the engine\'s default network, no proxy', async () => {
    const { repo, env, calls } = await setup('docker', `{ name: docker, image: "${IMAGE}", network: open }`);
    const run = await runJson(repo, ['boxed', '--pass-env', 'FAKE_*', '--cli', 'claude', '--task', 'Review'], env);
    assert.equal(run.code, 0, run.stderr);
    const args = calls().find((c) => c.args[0] === 'run')!.args;
    assert.ok(!args.includes('--network'));
    assert.ok(!args.some((a) => a.startsWith('HTTPS_PROXY')));
    assert.deepEqual(args.slice(args.indexOf(IMAGE) + 1, args.indexOf(IMAGE) + 2), ['claude']);
  });

  it('a role naming docker without an image is a configuration error (exit 2) that says what to add', async () => {
    const { repo, env, calls } = await setup('docker', 'docker');
    const run = await runJson(repo, ['boxed', '--pass-env', 'FAKE_*', '--cli', 'claude', '--task', 'Review'], env).catch((e: Error) => e);
    assert.ok(run instanceof Error);
    assert.match(run.message, /exit 2/);
    assert.match(run.message, /SANDBOX_UNAVAILABLE|cannot run here/);
    assert.match(run.message, /image/);
    assert.ok(!calls().some((c) => c.args[0] === 'run'));
  });

  it('no engine on PATH: exit 2 naming the engine and how to get it', async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const run = await runJson(repo, ['reviewer', '--cli', 'claude', '--task', 'Review', '--sandbox', 'podman'], { PATH: FAKE_BIN + delimiter + '/usr/bin:/bin' }).catch((e: Error) => e);
    assert.ok(run instanceof Error);
    assert.match(run.message, /exit 2/);
    assert.match(run.message, /podman \(the container engine\) is missing/);
    assert.match(run.message, /install podman/);
  });

  it('a timeout still removes the container', async () => {
    const { repo, env, calls } = await setup('docker', `{ name: docker, image: "${IMAGE}", network: none }`);
    const run = await runJson(repo, ['boxed', '--pass-env', 'FAKE_*', '--cli', 'claude', '--task', 'Review', '--timeout', '1', '--retries', '0'], { ...env, FAKE_CLI_HANG: '1' });
    assert.equal(run.result.failure?.class, 'timeout');
    assert.deepEqual(calls().at(-1), { engine: 'docker', args: ['rm', '-f', `supervisor-${run.result.run_id}-1-cli-1`] });
  });

  it('Ctrl-C still removes the container', async () => {
    const { repo, env, calls } = await setup('podman', `{ name: podman, image: "${IMAGE}", network: none }`);
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/supervisor.mjs'), 'run', 'boxed', '--cli', 'claude', '--task', 'Review', '--json'], {
      cwd: repo,
      env: { ...process.env, ...fakeEnv({ ...env, FAKE_CLI_HANG: '1' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    const until = Date.now() + 20_000;
    while (!calls().some((c) => c.args[0] === 'run') && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    assert.equal(await done, 130);
    const result = JSON.parse(stdout) as RunResult;
    assert.deepEqual(calls().at(-1), { engine: 'podman', args: ['rm', '-f', `supervisor-${result.run_id}-1-cli-1`] });
  });
});
