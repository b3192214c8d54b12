/**
 * bwrap: bubblewrap on Linux. The root file system read-only; a private /tmp; a private HOME
 * holding only the adapter's declared configuration (bound read-only or copied); the user's
 * checkout hidden, with the worktree, the attempt's scratch folder and git's admin folder of
 * the worktree writable and the rest of `.git` read-only; new PID, IPC and UTS namespaces;
 * dying with supervisor. Network: `none` and `allow` get a network namespace with loopback only;
 * in `allow`, supervisor's egress proxy is reached through the bridge (`supervisor __bridge`).
 * Limits: prlimit's process and data-size limits, when prlimit is there; and, where this user
 * may make cgroups (root), a cgroup per process with pids, memory and CPU limits.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { definePlugin, type EgressProxy, type SandboxAvailability, type SandboxContext, type SandboxRequest } from '../../core/plugin/index.ts';
import { behindBridge } from './_bridge.ts';
import { cgroupFor } from './_cgroup.ts';
import { gitDirs } from './_git-dirs.ts';
import { inside, pathsToShow } from './_visible-paths.ts';

let cachedAvailability: SandboxAvailability | undefined;

function available(ctx: SandboxContext): SandboxAvailability {
  if (process.platform !== 'linux') return { ok: false, missing: 'Linux (bubblewrap runs only there)', hint: 'use the docker or podman sandbox' };
  const bwrap = ctx.which('bwrap');
  if (!bwrap) return { ok: false, missing: 'bubblewrap (bwrap)', hint: 'install it: apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora), pacman -S bubblewrap (Arch)' };
  cachedAvailability ??= probe(bwrap);
  return cachedAvailability;
}

/** Starts `true` in the namespaces a run uses: bwrap installed but refused (no user namespaces) shows here. */
function probe(bwrap: string): SandboxAvailability {
  const result = spawnSync(bwrap, ['--ro-bind', '/', '/', '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', 'true'], { encoding: 'utf8', timeout: 10_000 });
  if (result.status === 0) return { ok: true };
  const said = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n')[0];
  return {
    ok: false,
    missing: `permission to create namespaces (bwrap: ${said})`,
    hint: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0), or make bwrap setuid',
  };
}


/** The user's processes now: RLIMIT_NPROC counts them all, so the sandbox's share comes on top. */
async function userProcesses(): Promise<number> {
  const uid = process.getuid?.() ?? 0;
  let count = 0;
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    if ((await stat(join('/proc', entry)).catch(() => undefined))?.uid === uid) count++;
  }
  return count;
}

/** Existing files under the hidden areas that the command's arguments name by absolute path. */
function namedFiles(args: string[], hidden: string[]): string[] {
  const isFile = (path: string) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  return args.filter((arg) => arg.length < 4096 && isAbsolute(arg) && hidden.some((area) => inside(arg, area)) && isFile(arg));
}

/** Like Promise.all, but when one fails the others' results are torn down first. */
async function settleAll<T extends readonly [Promise<Home>, Promise<EgressProxy | undefined>, Promise<number>]>(steps: T): Promise<[Home, EgressProxy | undefined, number]> {
  const [home, proxy, processes] = await Promise.allSettled(steps);
  if (home.status === 'fulfilled' && proxy.status === 'fulfilled' && processes.status === 'fulfilled') return [home.value, proxy.value, processes.value];
  if (home.status === 'fulfilled') await rm(home.value.dir, { recursive: true, force: true });
  if (proxy.status === 'fulfilled') await proxy.value?.close();
  throw [home, proxy, processes].find((s) => s.status === 'rejected')!.reason;
}

interface Home {
  dir: string;
  args: string[];
}

/** The private home: a fresh folder bound at $HOME, with the declared configuration copied or bound in. */
async function privateHome(request: SandboxRequest): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), 'sv-sandbox-home-'));
  const { homeDir, policy } = request;
  const args = homeDir && homeDir !== '/' ? ['--bind', dir, homeDir] : [];
  let n = 0;
  for (const entry of policy.config) {
    if (!existsSync(entry.path)) continue;
    const inHome = homeDir && inside(entry.path, homeDir) && entry.path !== homeDir;
    if (entry.mode === 'bind') {
      args.push('--ro-bind', entry.path, entry.path);
    } else if (inHome) {
      cpSync(entry.path, join(dir, relative(homeDir, entry.path)), { recursive: true, dereference: true });
    } else {
      const copy = join(dir, '.supervisor-config', String(n++));
      cpSync(entry.path, copy, { recursive: true, dereference: true });
      args.push('--bind', copy, entry.path);
    }
  }
  return { dir, args };
}

function readOnlyOption(request: SandboxRequest): string[] {
  const value = request.policy.options.read_only;
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((p) => typeof p === 'string' && isAbsolute(p))) {
    throw new Error(`sandbox.read_only must be a list of absolute paths, got ${JSON.stringify(value)}`);
  }
  return value.flatMap((p) => ['--ro-bind-try', p, p]);
}

async function wrap(request: SandboxRequest, ctx: SandboxContext) {
  const bwrap = ctx.which('bwrap') ?? 'bwrap';
  const { cwd, scratchDir, repoRoot, homeDir, policy, command } = request;
  // A TMPDIR the adapter placed in the scratch folder stays (codex refuses to create its
  // apply_patch helper when its home is under TMPDIR, and its home may be under /tmp); any
  // other is the private /tmp.
  const ownTmp = command.env.TMPDIR && inside(command.env.TMPDIR, scratchDir) ? command.env.TMPDIR : undefined;
  const env: Record<string, string | undefined> = { ...command.env, TMPDIR: ownTmp ?? '/tmp' };
  const prlimit = ctx.which('prlimit');
  // Independent set-up steps, together (a failed one still tears down what the others made).
  const [home, proxy, processes] = await settleAll([
    privateHome(request),
    policy.network === 'allow' ? ctx.startEgressProxy(policy.allow) : Promise.resolve(undefined),
    prlimit ? userProcesses() : Promise.resolve(0),
  ] as const);
  const cgroup = cgroupFor(`supervisor-${request.id.replace(/[^a-zA-Z0-9_.-]/g, '-')}`, policy.limits);
  const teardown = async () => {
    await cgroup?.remove();
    await proxy?.close();
    await rm(home.dir, { recursive: true, force: true });
  };
  try {
    const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', ...home.args];
    // The checkout disappears under an empty read-only folder; git's part of it comes back below.
    const repoHidden = repoRoot !== cwd && !inside(repoRoot, cwd);
    if (repoHidden) args.push('--tmpfs', repoRoot);
    const git = gitDirs(cwd);
    if (git) args.push('--ro-bind', git.common, git.common, '--bind', git.admin, git.admin);
    args.push('--bind', cwd, cwd, '--bind', scratchDir, scratchDir);
    const hidden = ['/tmp', homeDir, repoHidden ? repoRoot : ''].filter((p) => p && p !== '/');
    const bin = ctx.which(command.bin) ?? command.bin;
    // Supervisor itself (replay, the bridge) is no secret; neither is its install.
    for (const path of pathsToShow({ hidden, pathVar: command.env.PATH, files: [bin, ctx.self.bin, ctx.self.args[0]] })) {
      if (!inside(path, cwd) && !inside(path, scratchDir)) args.push('--ro-bind', path, path);
    }
    // Files the adapter names on the command line (instruction files, a schema) stay readable.
    for (const file of namedFiles(command.args, hidden)) {
      if (!inside(file, cwd) && !inside(file, scratchDir)) args.push('--ro-bind', file, file);
    }
    args.push(...readOnlyOption(request));
    if (repoHidden) args.push('--remount-ro', repoRoot);
    args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session', '--chdir', cwd);
    if (policy.network !== 'open') args.push('--unshare-net');
    let inner = [bin, ...command.args];
    if (proxy) {
      args.push('--bind', proxy.dir, proxy.dir);
      const bridged = behindBridge(proxy, ctx, inner);
      inner = bridged.command;
      Object.assign(env, bridged.env);
    }
    const limits = prlimit ? [prlimit, `--nproc=${processes + policy.limits.pids}`, `--data=${policy.limits.memoryMb * 1024 * 1024}`, '--'] : [];
    const [first, ...rest] = [...(cgroup?.prefix ?? []), ...limits, bwrap, ...args, '--', ...inner];
    return { bin: first!, args: rest, env, teardown };
  } catch (error) {
    await teardown();
    throw error;
  }
}

export default definePlugin({
  kind: 'sandbox',
  name: 'bwrap',
  description: 'bubblewrap (Linux): read-only system, private /tmp and home, only the worktree writable, allowlisted network',
  available,
  wrap,
});
