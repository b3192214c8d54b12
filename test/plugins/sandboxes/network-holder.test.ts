/**
 * bwrap's network started ahead (plugins/sandboxes/_network-holder.ts), with real bubblewrap,
 * nsenter and a real bridge: the CLI's bwrap enters the namespace the holder made (through this
 * process's own descriptor of it) and reaches an allowed server through the held bridge; a
 * holder that is gone, or made for another allowlist, is not entered; its release ends it; and
 * a namespace that cannot be proven to be the holder's is never entered (a pid given out again,
 * another network, this process's own).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, fstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SandboxAhead, SandboxPolicy, SandboxRequest } from '../../../core/plugin-api/contracts.ts';
import { parentOf } from '../../../core/process/tagged-processes.ts';
import { sandboxContext } from '../../../core/sandbox/runner.ts';
import bwrap from '../../../plugins/sandboxes/bwrap.ts';
import { asHolder, holderNamespaces } from '../../../plugins/sandboxes/_network-holder.ts';
import { systemdRelay } from '../../../plugins/sandboxes/_relay.ts';
import { PROJECT_ROOT } from '../../e2e/_run.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { missingBwrap, requires } from '../../helpers/requires.ts';

const nsenter = spawnSync('sh', ['-c', 'command -v nsenter'], { encoding: 'utf8' }).stdout.trim();
const missing = missingBwrap() ?? (nsenter ? undefined : 'nsenter (util-linux)');
const limits = { pids: 256, memoryMb: 1024, cpus: 1 };
const self = { bin: process.execPath, args: [join(PROJECT_ROOT, 'bin/supervisor.mjs')] };
const ctx = sandboxContext({ env: { PATH: '/usr/bin:/bin' }, self, notice: () => {} });
/** The holder with the bridge, where systemd's relay would otherwise be used (_relay.ts). */
const bridgeCtx = sandboxContext({ env: { PATH: '/usr/bin:/bin', SUPERVISOR_NO_SYSTEMD_RELAY: '1' }, self, notice: () => {} });
const relayHere = systemdRelay([], {}) !== undefined;
const ownNet = () => readlinkSync('/proc/self/ns/net');

/** Prints its network namespace, then GETs `url` through HTTP_PROXY and prints the status and body. */
const CLI_SCRIPT = `
const { readlinkSync } = require('node:fs');
const proxy = new URL(process.env.HTTP_PROXY);
console.log(readlinkSync('/proc/self/ns/net'));
require('node:http').get({ host: proxy.hostname, port: proxy.port, path: process.argv[1] }, (res) => {
  let body = '';
  res.on('data', (c) => (body += c)).on('end', () => console.log(res.statusCode, body));
}).on('error', (e) => console.log('error', e.code));
`;

function policy(allow: string[]): SandboxPolicy {
  return { network: 'allow', allow, config: [], env: [], limits, options: {} };
}

async function request(allow: string[], url: string, ahead?: SandboxAhead): Promise<SandboxRequest> {
  const repo = await makeRepo({ 'a.js': '1\n' });
  const home = await tempDir('sv-nh-home-');
  const worktree = join(home, 'wt');
  git(repo, 'worktree', 'add', '-q', '-b', 'supervisor/run-1', worktree);
  const scratch = join(repo, '.supervisor', 'runs', 'run-1', 'attempt-1');
  await mkdir(scratch, { recursive: true });
  return {
    purpose: 'cli',
    command: { bin: process.execPath, args: ['-e', CLI_SCRIPT, url], env: { PATH: '/usr/bin:/bin', HOME: home } },
    cwd: worktree,
    scratchDir: scratch,
    repoRoot: repo,
    homeDir: home,
    policy: policy(allow),
    id: `nh-${process.pid}-${Date.now()}`,
    ...(ahead ? { ahead } : {}),
  };
}

function run(command: { bin: string; args: string[]; env: Record<string, string | undefined> }): Promise<string> {
  const child = spawn(command.bin, command.args, { env: command.env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

/** This process's holders: its children that are a bwrap saying what it made (--info-fd: no CLI's bwrap does). */
function holderPids(): number[] {
  return childrenOf(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--info-fd');
    } catch {
      return false;
    }
  });
}

/** What the holder's first process runs: systemd's relay, or the bridge (a start of supervisor). */
function holderRuns(): 'relay' | 'bridge' | undefined {
  const [first] = childrenOf(holderPids()[0]);
  const cmdline = first === undefined ? '' : readFileSync(`/proc/${first}/cmdline`, 'utf8');
  return cmdline.includes('systemd-socket-activate') ? 'relay' : cmdline.includes('__bridge') ? 'bridge' : undefined;
}

/** The processes whose parent is `parent` now. */
function childrenOf(parent: number | undefined): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => parentOf(pid) === parent);
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`still waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('bwrap: the network held ahead', requires(missing), () => {
  let server: Server;
  let url: string;
  let allow: string[];
  before(async () => {
    server = createServer((req, res) => res.end(`held ${req.url}`));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    url = `http://127.0.0.1:${port}/x`;
    allow = [`127.0.0.1:${port}`];
  });
  after(() => server?.close());

  for (const [held, holderCtx] of [[relayHere ? 'relay' : 'bridge', ctx], ['bridge', bridgeCtx]] as const) {
    it(`the CLI's bwrap enters the holder's network (its ${held}) by this process's own descriptor: no network of its own, no bridge inside; it reaches the allowed server, in a network that is not the host's`, async () => {
      const ahead = await bwrap.ahead!(policy(allow), holderCtx);
      assert.ok(ahead, 'a holder started');
      try {
        assert.ok(await asHolder(ahead)!.entry, 'it listened');
        assert.equal(holderRuns(), held, `where systemd's relay is here the holder uses it, else (or told not to) the bridge`);
      } catch (error) {
        await ahead.release(); // a failed check leaves no holder (and its proxy) keeping the test alive
        throw error;
      }
      const wrapped = await bwrap.wrap(await request(allow, url, ahead), holderCtx);
      try {
        const all = [wrapped.bin, ...wrapped.args];
        const at = all.indexOf(nsenter);
        assert.ok(at >= 0, all.join(' '));
        const net = all.slice(at).find((w) => w.startsWith('--net='))!.slice('--net='.length);
        assert.match(net, new RegExp(`^/proc/${process.pid}/fd/\\d+$`));
        const bwrapAt = all.findIndex((w, i) => i > at && w.endsWith('bwrap'));
        const inside = all.slice(bwrapAt, all.indexOf('--', bwrapAt));
        assert.ok(!inside.includes('--unshare-net'), 'the network is entered, not made');
        assert.ok(!all.includes('__bridge'), 'no bridge in the CLI\'s sandbox');
        assert.ok(!inside.some((w) => w.includes('sv-sandbox-net-')), 'the proxy\'s sockets are not shown to the CLI');
        assert.equal(wrapped.env.HTTP_PROXY, 'http://127.0.0.1:3128');
        const [netns, answer] = (await run(wrapped)).trim().split('\n');
        assert.equal(netns, readlinkSync(net), 'the CLI ran in the held network');
        assert.notEqual(netns, ownNet());
        assert.equal(answer, '200 held /x');
      } finally {
        await wrapped.teardown?.();
      }
      // The wrap's tear-down killed it; the core's release at the end of the run collects it.
      await ahead.release();
      assert.equal(asHolder(ahead)!.holding(), false);
      assert.deepEqual(holderPids(), []);
    });
  }

  it("the holder's bridge sees no /etc but the dynamic linker's cache: no users, hosts, certificates or git configuration", async () => {
    const ahead = asHolder(await bwrap.ahead!(policy(allow), ctx))!;
    try {
      assert.ok(await ahead.entry, 'it listened');
      const [holder] = holderPids();
      const [first] = childrenOf(holder);
      assert.ok(first, 'the holder\'s first process');
      const etc = readdirSync(`/proc/${first}/root/etc`).sort();
      assert.deepEqual(etc, existsSync('/etc/ld.so.cache') ? ['ld.so.cache'] : []);
    } finally {
      await ahead.release();
    }
  });

  it('a holder whose bridge is gone, or one made for another allowlist, is not entered: the wrap starts its own bridge; release ends a holder and removes its proxy folder', async () => {
    const dead = asHolder(await bwrap.ahead!(policy(allow), ctx))!;
    assert.ok(await dead.entry, 'it listened');
    for (const pid of holderPids()) process.kill(pid, 'SIGKILL');
    await until(() => !dead.holding(), 'the killed holder seen gone');
    const other = asHolder(await bwrap.ahead!(policy(['127.0.0.1:1']), ctx))!;
    for (const ahead of [dead, other]) {
      const wrapped = await bwrap.wrap(await request(allow, url, ahead), ctx);
      try {
        const all = [wrapped.bin, ...wrapped.args];
        assert.ok(!all.includes(nsenter) && all.includes('__bridge') && all.includes('--unshare-net'), all.join(' '));
        const [netns, answer] = (await run(wrapped)).trim().split('\n');
        assert.notEqual(netns, ownNet());
        assert.equal(answer, '200 held /x', 'its own bridge still gets it there');
      } finally {
        await wrapped.teardown?.();
      }
    }
    assert.equal(other.holding(), true, 'a holder the wrap did not take stays until released');
    const folders = () => readdirSync(process.env.TMPDIR ?? '/tmp').filter((e) => e.startsWith('sv-sandbox-net-')).length;
    const before = folders();
    await other.release();
    await other.release();
    assert.equal(other.holding(), false);
    assert.deepEqual(holderPids(), []);
    assert.equal(folders(), before - 1, 'its proxy folder removed');
    await dead.release();
  });

  it('never enters what it cannot prove is the holder\'s network: a pid that is not its bwrap\'s child, a bwrap that exited, another network than bwrap reported, this process\'s own', async () => {
    const ownIno = statSync('/proc/self/ns/net').ino;
    // A real holder-like bwrap (a network of its own) whose first process is its child.
    const child = spawn('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', '--die-with-parent', '--info-fd', '3', '--', 'sh', '-c', 'sleep 30 & wait'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    let info = '';
    child.stdio[3]!.on('data', (d: Buffer) => (info += d.toString()));
    await until(() => /"net-namespace"/.test(info), 'bwrap said what it made');
    const pid = Number(/"child-pid":\s*(\d+)/.exec(info)![1]);
    const netns = Number(/"net-namespace":\s*(\d+)/.exec(info)![1]);
    const close = (fds: { net: number; user?: number } | undefined) => {
      for (const fd of fds ? [fds.net, fds.user] : []) if (fd !== undefined) closeSync(fd);
    };
    try {
      const good = holderNamespaces(child, { pid, netns }, false);
      assert.ok(good, 'the holder itself is entered');
      assert.equal(fstatSync(good.net).ino, netns);
      close(good);
      assert.equal(holderNamespaces(child, { pid: process.pid, netns }, false), undefined, 'a pid that is not the child of its bwrap');
      // Its own child, in the very network bwrap made: still not the process bwrap named, refused.
      let inner = 0;
      await until(() => (inner = childrenOf(pid)[0] ?? 0) > 0, 'the holder-like child\'s own child');
      assert.equal(holderNamespaces(child, { pid: inner, netns }, false), undefined, 'a process in that network that is not the child of its bwrap');
      assert.equal(holderNamespaces(child, { pid, netns: netns + 1 }, false), undefined, 'another network than bwrap made');
      // A child of an unsandboxed process: its network is this process's own.
      const plain = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
      try {
        let grandchild = 0;
        await until(() => (grandchild = childrenOf(plain.pid)[0] ?? 0) > 0, 'the plain child\'s own child');
        assert.equal(holderNamespaces(plain, { pid: grandchild, netns: ownIno }, false), undefined, "this process's own network, never");
      } finally {
        plain.kill('SIGKILL');
      }
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode === null && child.signalCode === null ? child.once('exit', r) : r(null)));
    }
    assert.equal(holderNamespaces(child, { pid, netns }, false), undefined, 'a bwrap that exited: its pid may be anyone\'s by now');
  });
});
