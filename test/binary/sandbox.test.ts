/**
 * `--sandbox bwrap` through the built binary, with a fake claude that tries to escape
 * (test/fixtures/bin/_escape-claude.mjs): write the user's checkout, write $HOME and /tmp,
 * read a secret in the real home, reach a loopback port that is not allowed, leave a daemon
 * behind; and reach an allowed loopback mock server through the bridge. Needs bubblewrap and
 * permission to create namespaces (CI installs it, see .ci/run); elsewhere the suite is
 * skipped with a message naming what is missing.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';

const ESCAPE = fileURLToPath(new URL('../fixtures/bin/_escape-claude.mjs', import.meta.url));

interface Result {
  run_id: string;
  status: string;
  exit_code: number;
  issues: string[];
  failure: { class: string; detail: string } | null;
  run_dir: string;
  notices: string[];
}

function suiteOptions(): { skip?: string } {
  const binary = binarySuite();
  return binary.skip ? binary : requires(missingBwrap());
}

/** Processes whose command line holds this text. */
function processesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline.replaceAll('\0', ' ')}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function events(result: Result): { kind: string; [key: string]: unknown }[] {
  return readFileSync(join(result.run_dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

/** The sandbox's own temporary folders (private homes, proxy sockets) now in `dir` (the runs' TMPDIR). */
function sandboxTemps(dir: string): string[] {
  return readdirSync(dir).filter((e) => e.startsWith('sv-sandbox-'));
}

describe('supervisor run --sandbox bwrap, from the binary', suiteOptions(), () => {
  let box: Sandbox;
  let fakes: string;
  let mock: Server;
  let mockPort: number;
  let hits: string[];
  let closedPort: number;

  before(async () => {
    box = await makeSandbox();
    fakes = await tempDir('sv-fakes-');
    // The fake claude is a Node script named by absolute path, so PATH stays node-free. It is
    // copied beside the wrapper (a PATH folder, which the sandbox shows): the project itself may
    // sit under /tmp or the home, which the sandbox hides, as a real CLI's install never does.
    for (const file of [ESCAPE, join(dirname(ESCAPE), '_fake-envelopes.mjs')]) await copyFile(file, join(fakes, basename(file)));
    await writeFile(join(fakes, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${join(fakes, basename(ESCAPE))}" "$@"\n`);
    await chmod(join(fakes, 'claude'), 0o755);
    // bubblewrap, prlimit and nsenter (the network held ahead) for the sandbox itself.
    const tools = join(fakes, 'tools');
    await mkdir(tools);
    for (const tool of ['bwrap', 'prlimit', 'nsenter']) {
      const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (path) await symlink(path, join(tools, tool));
    }
    hits = [];
    mock = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end('hello from the mock model server\n');
    });
    await new Promise<void>((r) => mock.listen(0, '127.0.0.1', r));
    mockPort = (mock.address() as AddressInfo).port;
    // A port with nothing allowed: another server, so a refusal is the sandbox's, not an empty port.
    const other = createServer((req, res) => {
      hits.push(`other ${req.method} ${req.url}`);
      res.end('should not be reached\n');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    closedPort = (other.address() as AddressInfo).port;
    after(() => other.close());
  });
  after(() => mock?.close());

  async function run(repo: string, escape: string, tag: string, extraArgs: string[] = [], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; result: Result }> {
    const out = await box.run(['run', 'reviewer', '--cli', 'claude', '--sandbox', 'bwrap', '--pass-env', 'FAKE_*', '--task', 'Review math.js', '--target', 'math.js', '--retries', '0', '--json', ...extraArgs], {
      cwd: repo,
      env: {
        PATH: `${fakes}:${box.path}:${join(fakes, 'tools')}`,
        FAKE_ESCAPE: escape,
        FAKE_ESCAPE_TAG: tag,
        FAKE_ESCAPE_CHECKOUT: repo,
        FAKE_ESCAPE_SECRET: join(box.home, 'secret.txt'),
        ...extraEnv,
      },
    });
    let result: Result;
    try {
      result = JSON.parse(out.stdout) as Result;
    } catch {
      throw new Error(`not one JSON result (exit ${out.code}):\n${out.stdout}\n${out.stderr}`);
    }
    return { code: out.code, stderr: out.stderr, result };
  }

  const attemptStderr = (result: Result) => readFileSync(join(result.run_dir, 'attempt-1.stderr'), 'utf8');

  it('a write into the user\'s checkout fails (read-only); the run says the sandbox refused it; the checkout is unchanged', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    const { code, result } = await run(repo, 'write-checkout', 'checkout');
    assert.equal(code, 4);
    assert.equal(result.failure?.class, 'nonzero_exit');
    assert.match(attemptStderr(result), /escape write-checkout: refused EROFS/);
    assert.match(result.issues.join('\n'), /the bwrap sandbox refused a file access: .*EROFS/);
    assert.ok(events(result).some((e) => e.kind === 'cli_failed' && JSON.stringify(e).includes('EROFS')));
    assert.ok(!existsSync(join(repo, 'escaped.txt')));
    assertCheckoutUnchanged(repo, before);
  });

  it('--setup runs inside the sandbox: a write into the checkout fails there (SETUP_FAILED, nothing on the host); one into the worktree passes', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    const env = { PATH: `${fakes}:${box.path}:${join(fakes, 'tools')}`, FAKE_ESCAPE: 'write-home', FAKE_ESCAPE_TAG: 'setup', FAKE_ESCAPE_CHECKOUT: repo };
    const args = ['run', 'reviewer', '--cli', 'claude', '--sandbox', 'bwrap', '--task', 'Review math.js', '--retries', '0', '--json'];
    const refused = await box.run([...args, '--setup', `touch ${join(repo, 'setup-escaped.txt')}`], { cwd: repo, env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /SETUP_FAILED/);
    assert.ok(!existsSync(join(repo, 'setup-escaped.txt')), 'set-up could not write into the checkout');
    const inside = await box.run([...args, '--setup', 'echo made > made-in-setup.txt'], { cwd: repo, env });
    assert.equal(inside.code, 0, inside.stderr);
    const result = JSON.parse(inside.stdout) as Result;
    assert.ok(events(result).some((e) => e.kind === 'setup' && e.step === 'command_finished' && e.exit_code === 0));
    assertCheckoutUnchanged(repo, before);
  });

  it('writes to $HOME and /tmp stay inside the sandbox: neither the real home nor the real /tmp gets them', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    const tag = `ht${process.pid}`;
    const { code, result } = await run(repo, 'write-home,write-tmp', tag);
    assert.equal(code, 0, JSON.stringify(result));
    assert.match(attemptStderr(result), /escape write-home: ok\nescape write-tmp: ok/);
    assert.ok(!existsSync(join(box.home, `escaped-${tag}.txt`)), 'not in the real home');
    assert.ok(!existsSync(`/tmp/escaped-${tag}.txt`), 'not in the real /tmp');
    assertCheckoutUnchanged(repo, before);
  });

  it('a secret in the real home cannot be read', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    await writeFile(join(box.home, 'secret.txt'), 'hunter2\n');
    const { code, result } = await run(repo, 'read-secret', 'secret');
    assert.equal(code, 4);
    assert.match(attemptStderr(result), /escape read-secret: refused ENOENT/);
    assert.match(result.issues.join('\n'), new RegExp(`the bwrap sandbox hides ${join(box.home, 'secret.txt').replaceAll('.', '\\.')} \\(your home, your checkout and /tmp are private inside`));
    assert.doesNotMatch(readFileSync(join(result.run_dir, 'attempt-1.stderr'), 'utf8') + readFileSync(join(result.run_dir, 'attempt-1.stdout'), 'utf8'), /hunter2/);
  });

  it('a loopback port that is not allowed is refused, through the proxy (logged: sandbox_refused) and directly', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    const url = `http://127.0.0.1:${closedPort}/v1/messages`;
    const viaProxy = await run(repo, 'connect', 'proxy', ['--allow-host', `127.0.0.1:${mockPort}`], { FAKE_ESCAPE_URL: url });
    assert.equal(viaProxy.code, 4);
    const refused = events(viaProxy.result).filter((e) => e.kind === 'sandbox_refused');
    assert.deepEqual(refused.map((e) => [e.host, e.port, e.target, e.purpose]), [['127.0.0.1', closedPort, `127.0.0.1:${closedPort}`, 'cli']]);
    assert.ok(viaProxy.result.notices.some((n) => n.includes(`refused a connection to 127.0.0.1:${closedPort}`)));
    assert.match(viaProxy.stderr, new RegExp(`notice: sandbox bwrap refused a connection to 127\\.0\\.0\\.1:${closedPort}`));
    assert.match(viaProxy.result.issues.join('\n'), new RegExp(`the bwrap sandbox refused connections to 127\\.0\\.0\\.1:${closedPort}`));
    const direct = await run(repo, 'connect-direct', 'direct', [], { FAKE_ESCAPE_URL: url });
    assert.equal(direct.code, 4);
    assert.match(attemptStderr(direct.result), /escape connect-direct: refused ECONNREFUSED/);
    assert.match(direct.result.issues.join('\n'), /the bwrap sandbox gives no network but the allowed hosts/);
    assert.ok(!hits.some((h) => h.startsWith('other')), hits.join(', '));
    assertCheckoutUnchanged(repo, before);
  });

  it('the same CLI reaches an allowed loopback mock server, through the proxy and through the forwarded port', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const seen = hits.length;
    const { code, result } = await run(repo, 'connect,connect-direct', 'allowed', ['--allow-host', `127.0.0.1:${mockPort}`], {
      FAKE_ESCAPE_URL: `http://127.0.0.1:${mockPort}/v1/messages`,
    });
    assert.equal(code, 0, JSON.stringify(result));
    assert.equal(result.status, 'pass');
    assert.match(attemptStderr(result), /escape connect: ok 200 hello from the mock model server\nescape connect-direct: ok 200 hello from the mock model server/);
    assert.deepEqual(hits.slice(seen), ['GET /v1/messages', 'GET /v1/messages']);
    assert.ok(!events(result).some((e) => e.kind === 'sandbox_refused'));
  });

  it('the network is held outside the CLI\'s sandbox: no bridge among the processes the CLI sees, and nothing of it left after the run', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const tmp = await tempDir('sv-runs-tmp-');
    const { code, result } = await run(repo, 'connect,processes', 'held', ['--allow-host', `127.0.0.1:${mockPort}`], { FAKE_ESCAPE_URL: `http://127.0.0.1:${mockPort}/v1/messages`, TMPDIR: tmp });
    assert.equal(code, 0, JSON.stringify(result));
    const seen = /escape processes: ok (.*)/.exec(attemptStderr(result))![1]!;
    assert.match(seen, /_escape-claude\.mjs/);
    assert.doesNotMatch(seen, /__bridge/, 'the bridge is not in the CLI\'s sandbox: the CLI entered the network it holds');
    assert.deepEqual(processesWith(join(tmp, 'sv-sandbox-net-')), [], 'the holder ended with the run');
    assert.deepEqual(sandboxTemps(tmp), [], 'its proxy folder removed');
  });

  it('without nsenter the bridge starts in the CLI\'s sandbox as before, and the CLI reaches the allowed server', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const tools = await tempDir('sv-tools-');
    for (const tool of ['bwrap', 'prlimit']) {
      const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (path) await symlink(path, join(tools, tool));
    }
    const out = await box.run(['run', 'reviewer', '--cli', 'claude', '--sandbox', 'bwrap', '--pass-env', 'FAKE_*', '--allow-host', `127.0.0.1:${mockPort}`, '--task', 'Review', '--retries', '0', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}:${tools}`, FAKE_ESCAPE: 'connect,processes', FAKE_ESCAPE_TAG: 'bridged', FAKE_ESCAPE_URL: `http://127.0.0.1:${mockPort}/v1/messages` },
    });
    const result = JSON.parse(out.stdout) as Result;
    assert.equal(out.code, 0, out.stderr);
    assert.match(attemptStderr(result), /escape connect: ok 200 hello from the mock model server/);
    assert.match(/escape processes: ok (.*)/.exec(attemptStderr(result))![1]!, /__bridge --listen 127\.0\.0\.1:3128=/);
  });

  it('a base URL on loopback (ANTHROPIC_BASE_URL) allows that port without --allow-host', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const base = `http://127.0.0.1:${mockPort}`;
    const { code, result } = await run(repo, 'connect-direct', 'baseurl', [], { FAKE_ESCAPE_URL: `${base}/v1/messages`, ANTHROPIC_BASE_URL: base });
    assert.equal(code, 0, JSON.stringify(result));
  });

  it('gates run in the sandbox too, with no network by default and the checkout read-only', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    const seen = hits.length;
    const fetch = `"${process.execPath}" -e "require('http').get('http://127.0.0.1:${mockPort}/gate', () => process.exit(0)).on('error', (e) => { console.error(e.code); process.exit(1); })"`;
    const network = await run(repo, '', 'gate-net', ['--allow-host', `127.0.0.1:${mockPort}`, '--gate', fetch]);
    assert.equal(network.result.failure?.class, 'gate_failed', JSON.stringify(network.result));
    const failed = events(network.result).find((e) => e.kind === 'gate_failed');
    assert.match(String(failed?.output_tail), /ECONNREFUSED/);
    assert.deepEqual(hits.slice(seen), [], 'the gate reached nothing');
    const write = await run(repo, '', 'gate-write', ['--gate', `echo x > "${repo}/gate-escaped.txt"`]);
    assert.equal(write.result.failure?.class, 'gate_failed');
    assert.match(String(events(write.result).find((e) => e.kind === 'gate_failed')?.output_tail), /Read-only file system/);
    assertCheckoutUnchanged(repo, before);
  });

  it('a timeout and Ctrl-C end everything in the sandbox and remove its temporary folders', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    // A TMPDIR of the test's own: other runs on this machine make and remove theirs in /tmp meanwhile.
    const tmp = await tempDir('sv-runs-tmp-');
    const timedOut = await run(repo, 'daemon,hang', `timeout${process.pid}`, ['--timeout', '1'], { TMPDIR: tmp });
    assert.equal(timedOut.result.failure?.class, 'timeout');
    assert.deepEqual(processesWith(`escape-daemon-timeout${process.pid}`), []);
    const tag = `sigint${process.pid}`;
    const child = spawn(box.binary, ['run', 'reviewer', '--cli', 'claude', '--sandbox', 'bwrap', '--pass-env', 'FAKE_*', '--task', 'Review', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}:${join(fakes, 'tools')}`, HOME: box.home, LANG: 'C.UTF-8', FAKE_ESCAPE: 'daemon,hang', FAKE_ESCAPE_TAG: tag, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    const until = Date.now() + 20_000;
    while (processesWith(`escape-daemon-${tag}`).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    assert.equal(processesWith(`escape-daemon-${tag}`).length, 1, 'the daemon ran inside the sandbox');
    child.kill('SIGINT');
    assert.equal(await done, 130);
    assert.equal((JSON.parse(stdout) as Result).failure?.class, 'interrupted');
    assert.deepEqual(processesWith(`escape-daemon-${tag}`), []);
    assert.deepEqual(sandboxTemps(tmp), [], 'private homes and proxy sockets removed');
    assertCheckoutUnchanged(repo, before);
  });

  it('no capabilities inside, also for root; no new privileges', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const { code, result } = await run(repo, 'status', 'caps');
    assert.equal(code, 0, JSON.stringify(result));
    const said = attemptStderr(result);
    assert.match(said, /CapEff:\s+0000000000000000/);
    assert.match(said, /CapPrm:\s+0000000000000000/);
    assert.match(said, /NoNewPrivs:\s+1/);
  });

  it('no host socket answers: not in the folders around the checkout, not in /run, not in the home', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const paths = [join(dirname(repo), `host-${process.pid}.sock`), join(box.home, `host-${process.pid}.sock`)];
    if (existsSync('/run')) paths.push(`/run/sv-test-${process.pid}.sock`);
    const servers: NetServer[] = [];
    let answered = 0;
    try {
      for (const path of paths) {
        const server = createNetServer((socket) => {
          answered++;
          socket.end('hello from the host\n');
        });
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
        servers.push(server);
      }
      const { result } = await run(repo, 'socket', 'sock', [], { FAKE_ESCAPE_SOCKETS: paths.join(',') });
      assert.match(attemptStderr(result), /escape socket: refused NOT_REACHED no socket answered/);
      assert.equal(answered, 0);
    } finally {
      for (const server of servers) await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the environment is an allowlist: an unlisted variable is absent, a passed and the adapter\'s declared ones are there', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const { code, result } = await run(repo, 'env', 'env', ['--pass-env', 'PASSED_ON'], { MY_SECRET_TOKEN: 'hunter2', PASSED_ON: 'yes', ANTHROPIC_API_KEY: 'sk-ant-test' });
    assert.equal(code, 0, JSON.stringify(result));
    const names = /escape env: ok (.*)/.exec(attemptStderr(result))![1]!.split(',');
    assert.ok(!names.includes('MY_SECRET_TOKEN'), names.join(','));
    for (const name of ['PASSED_ON', 'ANTHROPIC_API_KEY', 'FAKE_ESCAPE', 'PATH', 'HOME', 'SUPERVISOR_RUN_ID']) assert.ok(names.includes(name), `${name} in ${names.join(',')}`);
  });

  it('a root CLI that re-binds / read-write (unshare + mount, remount, bwrap in bwrap) cannot write into the hidden checkout', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    const marker = `marker-${process.pid}.txt`;
    const { result } = await run(repo, 'rebind', 'rebind', [], { FAKE_ESCAPE_MARKER: marker });
    assert.match(attemptStderr(result), /escape rebind: refused TRIED/);
    assert.ok(!existsSync(join(repo, marker)), `the marker reached the checkout: ${attemptStderr(result)}`);
    assertCheckoutUnchanged(repo, before);
  });

  it('doctor --sandbox bwrap proves it from inside (capabilities, host writes and sockets, an unlisted variable) and names the process tracking; --sandbox none fails it', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const env = { PATH: `${box.path}:${join(fakes, 'tools')}` };
    const bwrap = await box.run(['doctor', '--sandbox', 'bwrap', '--json'], { cwd: repo, env });
    assert.equal(bwrap.code, 0, bwrap.stdout + bwrap.stderr);
    const report = JSON.parse(bwrap.stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[]; processes: { mechanism: string } };
    assert.equal(report.ok, true);
    assert.deepEqual(report.checks.map((c) => [c.name, c.ok]), [['capabilities', true], ['host_write', true], ['host_socket', true], ['environment', true], ['executor', true], ['git_folders', true]]);
    assert.match(report.checks[0]!.detail, /CapEff 0+, NoNewPrivs 1/);
    // I2: the executor's command is in a PID namespace of its own; I3: the repository's git folder is read-only inside.
    assert.match(report.checks[4]!.detail, /a PID namespace of its own .* not visible there/);
    assert.match(report.checks[5]!.detail, /git folder .* is read-only inside/);
    assert.equal(report.processes.mechanism, process.getuid?.() === 0 ? 'cgroup' : report.processes.mechanism);
    const none = await box.run(['doctor', '--sandbox', 'none'], { cwd: repo, env });
    assert.equal(none.code, 1, none.stdout + none.stderr);
    assert.match(none.stdout, /sandbox none: self-test from inside FAILED\n.*\n  -- host writes {3}written from inside/);
    assert.match(none.stdout, /  -- I2 executor .*the host's PID namespace/);
    assert.match(none.stdout, /  -- I3 git dirs .*writable from inside: .*\.git\/index/);
  });

  const setpriv = spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim();
  const noNobody = process.getuid?.() !== 0 ? 'root (to become nobody)' : !setpriv ? 'setpriv (util-linux)' : spawnSync(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', 'bwrap', '--ro-bind', '/', '/', '--unshare-pid', 'true']).status !== 0 && 'user namespaces for unprivileged users';
  /** A temporary folder of nobody's own inside `root`: what the run puts there goes with `root`, none in the system's /tmp. */
  async function nobodysTmp(root: string): Promise<string> {
    const tmp = join(root, 'tmp');
    await mkdir(tmp, { mode: 0o700 });
    await chown(tmp, 65534, 65534);
    return tmp;
  }

  it('unprivileged too (as nobody, through setpriv, where the kernel allows user namespaces): the self-test holds', requires(noNobody), async () => {
    // A folder nobody may enter (in /tmp itself: the test runner's own temporary root is root's
    // alone), holding a copy of the binary and a home of nobody's own; removed afterwards.
    const root = await mkdtemp('/tmp/sv-nobody-');
    let out: SpawnSyncReturns<string>;
    try {
      await chmod(root, 0o755);
      const binary = join(root, basename(box.binary));
      await copyFile(box.binary, binary);
      await chmod(binary, 0o755);
      const home = join(root, 'home');
      await mkdir(home);
      await chown(home, 65534, 65534);
      const tmp = await nobodysTmp(root);
      out = spawnSync(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', binary, 'doctor', '--sandbox', 'bwrap', '--json'], {
        cwd: home,
        env: { PATH: `${box.path}:${join(fakes, 'tools')}:/usr/bin:/bin`, HOME: home, TMPDIR: tmp },
        encoding: 'utf8',
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    assert.equal(out.status, 0, out.stdout + out.stderr);
    const report = JSON.parse(out.stdout) as { checks: { name: string; ok: boolean }[] };
    assert.deepEqual(report.checks.map((c) => [c.name, c.ok]), [['capabilities', true], ['host_write', true], ['host_socket', true], ['environment', true], ['executor', true], ['git_folders', true]]);
  });

  it('unprivileged too: a run as nobody enters the network held for it (its user namespace with it) and reaches the allowed server, with no bridge in its sandbox', requires(noNobody), async () => {
    const root = await mkdtemp('/tmp/sv-nobody-');
    try {
      await chmod(root, 0o755);
      const binary = join(root, basename(box.binary));
      await copyFile(box.binary, binary);
      const bin = join(root, 'bin');
      await mkdir(bin);
      for (const file of [ESCAPE, join(dirname(ESCAPE), '_fake-envelopes.mjs')]) await copyFile(file, join(bin, basename(file)));
      await writeFile(join(bin, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${join(bin, basename(ESCAPE))}" "$@"\n`);
      await chmod(join(bin, 'claude'), 0o755);
      const home = join(root, 'home');
      const repo = join(home, 'repo');
      await mkdir(home);
      spawnSync('cp', ['-r', await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' }), repo]);
      spawnSync('chown', ['-R', '65534:65534', home]);
      const tmp = await nobodysTmp(root);
      // Not spawnSync: the mock server answers from this process.
      const child = spawn(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', binary, 'run', 'reviewer', '--cli', 'claude', '--sandbox', 'bwrap', '--pass-env', 'FAKE_*', '--allow-host', `127.0.0.1:${mockPort}`, '--task', 'Review', '--retries', '0', '--json'], {
        cwd: repo,
        env: { PATH: `${bin}:${box.path}:${join(fakes, 'tools')}:/usr/bin:/bin`, HOME: home, TMPDIR: tmp, FAKE_ESCAPE: 'connect,processes', FAKE_ESCAPE_URL: `http://127.0.0.1:${mockPort}/v1/messages` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out = { stdout: '', stderr: '' };
      child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(status, 0, out.stdout + out.stderr);
      const said = readFileSync(join((JSON.parse(out.stdout) as Result).run_dir, 'attempt-1.stderr'), 'utf8');
      assert.match(said, /escape connect: ok 200 hello from the mock model server/);
      assert.doesNotMatch(/escape processes: ok (.*)/.exec(said)![1]!, /__bridge/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a daemon the CLI leaves behind does not outlive the run', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const before = snapshotCheckout(repo);
    const tag = `daemon${process.pid}x${Date.now()}`;
    const { code, result } = await run(repo, 'daemon', tag);
    assert.equal(code, 0, JSON.stringify(result));
    assert.match(attemptStderr(result), /escape daemon: ok pid \d+/);
    assert.deepEqual(processesWith(`escape-daemon-${tag}`), []);
    assert.deepEqual(processesWith(result.run_id), [], 'nothing of the run is left (bwrap, bridge, proxy)');
    assertCheckoutUnchanged(repo, before);
  });
});
