/**
 * The bwrap sandbox's command line, built for a real worktree (no bubblewrap needed: wrap()
 * only builds it): what is read-only, hidden, writable and shown again, the namespaces, the
 * network modes, the bridge, the limits, and the tear-down of its private home and proxy.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SandboxPolicy, SandboxRequest } from '../../../core/plugin-api/contracts.ts';
import { sandboxContext } from '../../../core/sandbox/runner.ts';
import bwrap from '../../../plugins/sandboxes/bwrap.ts';
import { inside } from '../../../plugins/sandboxes/_visible-paths.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';

const limits = { pids: 100, memoryMb: 1024, cpus: 1 };

async function fixture() {
  const repo = await makeRepo({ 'a.js': '1\n' });
  const home = await tempDir('sv-bw-home-');
  // Where worktrees live by default: under the user's home, outside the checkout (core/state-dir.ts).
  const worktree = join(home, '.supervisor', 'worktrees', 'repo-0123', 'run-1');
  git(repo, 'worktree', 'add', '-q', '-b', 'supervisor/run-1', worktree);
  const scratch = join(repo, '.supervisor', 'runs', 'run-1', 'attempt-1');
  await mkdir(scratch, { recursive: true });
  await writeFile(join(home, '.claude.json'), '{"k":1}');
  await mkdir(join(home, '.cfg'));
  await writeFile(join(home, '.cfg', 'x'), 'x');
  await writeFile(join(home, 'instructions.md'), 'be brief');
  const bin = join(home, '.local', 'bin');
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, 'mycli'), '#!/bin/sh\n');
  await chmod(join(bin, 'mycli'), 0o755);
  return { repo, worktree, scratch, home, bin };
}

function request(f: Awaited<ReturnType<typeof fixture>>, policy: Partial<SandboxPolicy>): SandboxRequest {
  return {
    purpose: 'cli',
    command: { bin: 'mycli', args: ['-p', join(f.home, 'instructions.md')], env: { PATH: `${f.bin}:/usr/bin:/bin`, HOME: f.home, SECRET: 's' } },
    cwd: f.worktree,
    scratchDir: f.scratch,
    repoRoot: f.repo,
    homeDir: f.home,
    policy: { network: 'none', allow: [], config: [], env: [], limits, options: {}, ...policy },
    id: 'run-1-1-cli-1',
  };
}

/** The run's environment, as the engine gives it: the same PATH the command gets. */
const ctx = (env: Record<string, string>) => sandboxContext({ env, self: { bin: '/opt/sv/supervisor', args: [] }, notice: () => {} });
const pathOf = (f: { bin: string }) => ({ PATH: `${f.bin}:/usr/bin:/bin` });

/** The bwrap part of the argv: from bwrap to "--". */
function bwrapArgs(all: string[]): string[] {
  const at = all.findIndex((a) => a.endsWith('bwrap'));
  return all.slice(at + 1, all.indexOf('--', at));
}

describe('bwrap sandbox command line', () => {
  it('a minimal file system: the toolchain and a few /etc files, private /tmp and home, checkout hidden read-only, git and worktree and scratch reachable; no capabilities, namespaces', async () => {
    const f = await fixture();
    const wrapped = await bwrap.wrap(request(f, { config: [{ path: join(f.home, '.claude.json'), mode: 'copy' }, { path: join(f.home, '.cfg'), mode: 'bind' }] }), ctx(pathOf(f)));
    try {
      const args = bwrapArgs([wrapped.bin, ...wrapped.args]);
      const home = args[args.indexOf(f.home) - 2] === '--bind' ? args[args.indexOf(f.home) - 1]! : '';
      assert.match(home, /sv-sandbox-home-/);
      assert.equal(await readFile(join(home, '.claude.json'), 'utf8'), '{"k":1}', 'copied configuration');
      const common = join(f.repo, '.git');
      const admin = join(common, 'worktrees', 'run-1');
      const targets = args.flatMap((a, i) => (['--ro-bind', '--bind', '--symlink', '--tmpfs', '--dev', '--proc'].includes(a) ? [args[i + (a.startsWith('--t') || a.startsWith('--d') || a.startsWith('--p') ? 1 : 2)]!] : []));
      assert.ok(!targets.includes('/'), 'not the whole root');
      assert.ok(targets.includes('/usr') && targets.includes('/etc/passwd'), 'the toolchain and /etc files');
      for (const hidden of ['/run', '/var', '/var/run', '/var/tmp', '/home', '/root', '/etc/shadow', '/etc']) assert.ok(!targets.includes(hidden), `${hidden} is not in the sandbox`);
      const from = args.indexOf('--dev');
      assert.deepEqual(args.slice(from, from + 9), ['--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', home, f.home]);
      const rest = args.slice(from + 9);
      const expectOrder = [
        ['--ro-bind', join(f.home, '.cfg'), join(f.home, '.cfg')],
        ['--tmpfs', f.repo],
        ['--ro-bind', common, common, '--bind', admin, admin],
        ['--bind', f.worktree, f.worktree, '--bind', f.scratch, f.scratch],
        ['--ro-bind', f.bin, f.bin],
        ['--ro-bind', join(f.home, 'instructions.md'), join(f.home, 'instructions.md')],
        ['--remount-ro', f.repo],
        ['--cap-drop', 'ALL', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session', '--chdir', f.worktree, '--unshare-net'],
      ];
      let at = 0;
      for (const part of expectOrder) {
        const found = rest.findIndex((_, i) => i >= at && part.every((p, j) => rest[i + j] === p));
        assert.ok(found >= 0, `${part.join(' ')} after position ${at} in:\n${rest.join(' ')}`);
        at = found + part.length;
      }
      const all = [wrapped.bin, ...wrapped.args];
      assert.deepEqual(all.slice(all.indexOf('--', all.findIndex((a) => a.endsWith('bwrap'))) + 1), [join(f.bin, 'mycli'), '-p', join(f.home, 'instructions.md')]);
      assert.equal(wrapped.env.TMPDIR, '/tmp');
      assert.equal(wrapped.env.HOME, f.home, "the private home, at the home's path");
      assert.equal(wrapped.env.HTTPS_PROXY, undefined, 'no proxy without allow mode');
    } finally {
      await wrapped.teardown?.();
    }
    assert.equal(existsSync(bwrapArgs([wrapped.bin, ...wrapped.args]).find((a) => a.includes('sv-sandbox-home-'))!), false, 'the private home is removed');
  });

  it("never shows a whole home, checkout or /tmp as a command's install: a script under a home holding a package.json, supervisor lying in /tmp, are shown alone", async () => {
    const f = await fixture();
    await writeFile(join(f.home, 'package.json'), '{}');
    const self = join(tmpdir(), `sv-bw-self-${process.pid}`);
    await writeFile(self, '');
    const cli = join(f.bin, 'mycli');
    const base = request(f, {});
    const req = { ...base, command: { ...base.command, bin: cli, env: { ...base.command.env, PATH: '/usr/bin:/bin' } } };
    const wrapped = await bwrap.wrap(req, sandboxContext({ env: { PATH: '/usr/bin:/bin' }, self: { bin: self, args: [] }, notice: () => {} }));
    try {
      const args = bwrapArgs([wrapped.bin, ...wrapped.args]);
      const sources = args.flatMap((a, i) => (a === '--ro-bind' || a === '--bind' ? [args[i + 1]!] : []));
      for (const area of [f.home, f.repo, '/tmp']) assert.ok(!sources.some((source) => inside(area, source)), `${area} is not bound whole: ${sources.join(' ')}`);
      for (const file of [cli, self]) assert.ok(args.some((a, i) => a === '--ro-bind' && args[i + 1] === file && args[i + 2] === file), `${file} is shown alone`);
    } finally {
      await wrapped.teardown?.();
      await rm(self, { force: true });
    }
  });

  it("binds the git folders the core recorded for the worktree, not what its .git file says by then (a CLI can rewrite it)", async () => {
    const f = await fixture();
    const common = join(f.repo, '.git');
    const recorded = { admin: join(common, 'worktrees', 'run-1'), common };
    const elsewhere = await tempDir('sv-bw-elsewhere-');
    await writeFile(join(f.worktree, '.git'), `gitdir: ${elsewhere}\n`);
    const wrapped = await bwrap.wrap({ ...request(f, {}), git: recorded }, ctx(pathOf(f)));
    try {
      const args = bwrapArgs([wrapped.bin, ...wrapped.args]);
      assert.ok(args.join(' ').includes(`--ro-bind ${common} ${common} --bind ${recorded.admin} ${recorded.admin}`), args.join(' '));
      assert.ok(!args.includes(elsewhere), "the rewritten .git's folder is not bound");
    } finally {
      await wrapped.teardown?.();
    }
  });

  it('keeps a HOME or TMPDIR the adapter placed in its scratch folder; elsewhere they are the sandbox\'s', async () => {
    const f = await fixture();
    const req = request(f, {});
    req.command.env = { ...req.command.env, HOME: join(f.scratch, 'home'), TMPDIR: join(f.scratch, 'tmp') };
    const placed = await bwrap.wrap(req, ctx(pathOf(f)));
    await placed.teardown?.();
    assert.equal(placed.env.HOME, join(f.scratch, 'home'));
    assert.equal(placed.env.TMPDIR, join(f.scratch, 'tmp'));
    req.command.env = { ...req.command.env, HOME: '/srv/elsewhere', TMPDIR: '/var/tmp' };
    const other = await bwrap.wrap(req, ctx(pathOf(f)));
    await other.teardown?.();
    assert.equal(other.env.HOME, f.home);
    assert.equal(other.env.TMPDIR, '/tmp');
  });

  it('limits through prlimit when it is on PATH: data size; processes on top of the user\'s own, but not for root (the kernel does not apply it to uid 0)', async () => {
    const f = await fixture();
    const wrapped = await bwrap.wrap(request(f, {}), ctx(pathOf(f)));
    await wrapped.teardown?.();
    const all = [wrapped.bin, ...wrapped.args];
    const at = all.findIndex((a) => a.endsWith('/prlimit'));
    if (at < 0) return; // no prlimit here: nothing to check
    const root = process.getuid?.() === 0;
    const options = all.slice(at + 1, all.indexOf('--', at));
    const nproc = options.filter((o) => o.startsWith('--nproc='));
    if (root) assert.deepEqual(nproc, []);
    else assert.ok(nproc.length === 1 && Number(nproc[0]!.slice(8)) > limits.pids, options.join(' '));
    assert.deepEqual(options.filter((o) => !o.startsWith('--nproc=')), [`--data=${1024 * 1024 * 1024}`]);
    assert.ok(all[all.indexOf('--', at) + 1]!.endsWith('bwrap'));
  });

  it('as root with a writable cgroup file system: a cgroup per process with the limits, joined first, removed at tear-down', async (t) => {
    const cgroups = existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup' : '/sys/fs/cgroup/pids';
    if (process.getuid?.() !== 0 || !existsSync(cgroups)) return t.skip('needs root and a cgroup file system');
    if (spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status !== 0) return t.skip('needs bubblewrap');
    const f = await fixture();
    const req = request(f, {});
    req.command = { bin: '/bin/cat', args: ['/proc/self/cgroup'], env: req.command.env };
    const wrapped = await bwrap.wrap(req, ctx(pathOf(f)));
    const group = `supervisor-${req.id}`;
    try {
      assert.deepEqual(wrapped.args.slice(0, 1), ['-c']);
      assert.equal(wrapped.bin, '/bin/sh');
      const pidsMax = existsSync(join(cgroups, group, 'pids.max')) ? join(cgroups, group, 'pids.max') : undefined;
      if (pidsMax) assert.equal(readFileSync(pidsMax, 'utf8').trim(), String(limits.pids));
      const ran = spawnSync(wrapped.bin, wrapped.args, { env: wrapped.env as NodeJS.ProcessEnv, encoding: 'utf8' });
      assert.equal(ran.status, 0, ran.stderr);
      assert.match(ran.stdout, new RegExp(`/${group}$`, 'm'), 'the sandboxed process is in its own group');
    } finally {
      await wrapped.teardown?.();
    }
    assert.ok(!existsSync(join(cgroups, group)), 'the group is removed');
  });

  it('allow: no network of its own, the proxy folder bound, the bridge first, proxy variables set; open shares the network', async () => {
    const f = await fixture();
    const wrapped = await bwrap.wrap(request(f, { network: 'allow', allow: ['127.0.0.1:4000', 'api.example.com:443'] }), ctx(pathOf(f)));
    try {
      const all = [wrapped.bin, ...wrapped.args];
      const args = bwrapArgs(all);
      assert.ok(args.includes('--unshare-net'));
      const sockets = args.find((a) => a.includes('sv-sandbox-net-'))!;
      assert.ok(existsSync(join(sockets, 'proxy.sock')));
      const inner = all.slice(all.indexOf('--', all.findIndex((a) => a.endsWith('bwrap'))) + 1);
      assert.deepEqual(inner, [
        '/opt/sv/supervisor', '__bridge',
        '--listen', `127.0.0.1:3128=${join(sockets, 'proxy.sock')}`,
        '--listen', `127.0.0.1:4000=${join(sockets, 'fwd-4000.sock')}`,
        '--', join(f.bin, 'mycli'), '-p', join(f.home, 'instructions.md'),
      ]);
      assert.equal(wrapped.env.HTTPS_PROXY, 'http://127.0.0.1:3128');
      assert.equal(wrapped.env.http_proxy, 'http://127.0.0.1:3128');
      assert.equal(wrapped.env.NO_PROXY, '');
      await wrapped.teardown?.();
      assert.ok(!existsSync(sockets), 'the proxy is closed and its folder removed');
    } finally {
      await wrapped.teardown?.();
    }
    const open = await bwrap.wrap(request(f, { network: 'open' }), ctx(pathOf(f)));
    await open.teardown?.();
    assert.ok(!open.args.includes('--unshare-net'));
  });

  it('says what is missing when bubblewrap is not installed', async () => {
    const found = await bwrap.available(ctx({ PATH: '/nonexistent' }));
    if (process.platform !== 'linux') return assert.equal(found.ok, false);
    assert.deepEqual(found, { ok: false, missing: 'bubblewrap (bwrap)', hint: 'install it: apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora), pacman -S bubblewrap (Arch)' });
  });
});
