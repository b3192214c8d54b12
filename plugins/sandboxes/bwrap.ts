/**
 * bwrap: bubblewrap on Linux. A minimal file system (the host's toolchain and a few /etc files
 * read-only, see _host-view.ts; the CLI's install; no /run, /var, other homes); a private /tmp; a private HOME
 * holding only the adapter's declared configuration (bound read-only or copied); the user's
 * checkout hidden, with the worktree, the attempt's scratch folder and git's admin folder of
 * the worktree writable and the rest of `.git` read-only; no capabilities (also for root), no
 * new privileges, a user namespace where the kernel allows one; new PID, IPC and UTS
 * namespaces; dying with supervisor. The environment reaches it already reduced to the
 * policy's allowlist (the core does that for every sandbox). Network: `none` and `allow` get a network namespace with loopback only;
 * in `allow`, supervisor's egress proxy is reached through the bridge (`supervisor __bridge`):
 * for a run's first CLI a bridge started ahead holds the namespace the CLI enters
 * (_network-holder.ts), otherwise the bridge starts inside the sandbox before the command.
 * Limits: prlimit's process (not for root: the kernel does not apply it) and data-size limits,
 * when prlimit is there; and, where this user may make cgroups (root), a cgroup per process with
 * pids, memory and CPU limits.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { definePlugin, limitCgroup, type EgressProxy, type SandboxAvailability, type SandboxContext, type SandboxPolicy, type SandboxRequest, gitDirs } from '../../core/plugin-api/index.ts';
import { behindBridge } from './_bridge.ts';
import { asHolder, startHolder, type NetworkHolder } from './_network-holder.ts';
import { hostViewArgs, interpreterOf, SYSTEM_DIRS } from './_host-view.ts';
import { inside, pathsToShow, placedHomeAndTmp } from './_visible-paths.ts';

interface Probed {
  availability: SandboxAvailability;
  /** Whether bwrap may make a user namespace here (it may not everywhere, e.g. for root where they are off). */
  userns: boolean;
}

let probed: Promise<Probed> | undefined;

async function available(ctx: SandboxContext): Promise<SandboxAvailability> {
  if (process.platform !== 'linux') return { ok: false, missing: 'Linux (bubblewrap runs only there)', hint: 'use the docker or podman sandbox' };
  const bwrap = ctx.which('bwrap');
  if (!bwrap) return { ok: false, missing: 'bubblewrap (bwrap)', hint: 'install it: apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora), pacman -S bubblewrap (Arch)' };
  probed ??= probe(bwrap);
  return (await probed).availability;
}

/** `bwrap <args>`'s exit code and first line of stderr, without holding up this process while it runs (10-20 ms). */
function tryBwrap(bwrap: string, args: string[]): Promise<{ code: number | null; said: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', (error) => resolve({ code: null, said: error.message }));
    child.on('close', (code) => resolve({ code, said: stderr.trim().split('\n')[0] || `exit ${code}` }));
  });
}

/** Starts `true` in the namespaces a run uses: bwrap installed but refused (no user namespaces) shows here. */
async function probe(bwrap: string): Promise<Probed> {
  const namespaces = ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--cap-drop', 'ALL'];
  const run = (extra: string[]) => tryBwrap(bwrap, ['--ro-bind', '/', '/', ...extra, ...namespaces, 'true']);
  if ((await run(['--unshare-user'])).code === 0) return { availability: { ok: true, detail: 'user namespace, no capabilities' }, userns: true };
  const result = await run([]);
  if (result.code === 0) return { availability: { ok: true, detail: 'no user namespace here: capabilities dropped, no new privileges' }, userns: false };
  return {
    availability: {
      ok: false,
      missing: `permission to create namespaces (bwrap: ${result.said})`,
      hint: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0), or make bwrap setuid',
    },
    userns: false,
  };
}

/**
 * prlimit's process limit: RLIMIT_NPROC counts all of the user's processes, so the sandbox's
 * share comes on top of those running now. None for root: the kernel never applies it to uid 0
 * (nor in a user namespace that maps to it), so root's processes are counted for nothing; its
 * limit is the cgroup's pids.max, where one can be made.
 */
function processLimit(pids: number): string[] {
  const uid = process.getuid?.() ?? 0;
  return uid === 0 ? [] : [`--nproc=${userProcesses(uid) + pids}`];
}

/** The user's processes now. Synchronous: a thread-pool round trip per process cost 3x the stat calls (every attempt of a user but root asks). */
function userProcesses(uid: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  let count = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (statSync(join('/proc', entry), { throwIfNoEntry: false })?.uid === uid) count++;
    } catch {
      // gone meanwhile, or unreadable: not counted, as before
    }
  }
  return count;
}

/**
 * Existing files under the private areas (home, checkout, /tmp) that the command's arguments
 * name by absolute path: instruction files, a schema. Nothing else of the host: an argument
 * a role chose must not show /etc/shadow.
 */
function namedFiles(args: string[], areas: string[]): string[] {
  const isFile = (path: string) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  return args.filter((arg) => arg.length < 4096 && isAbsolute(arg) && areas.some((area) => inside(arg, area)) && isFile(arg));
}

/** Like Promise.all, but when one fails the others' results are torn down first (a holder is the core's to release). */
async function settleAll<T extends readonly [Promise<Home>, Promise<Network>, Promise<string[]>]>(steps: T): Promise<[Home, Network, string[]]> {
  const [home, network, nproc] = await Promise.allSettled(steps);
  if (home.status === 'fulfilled' && network.status === 'fulfilled' && nproc.status === 'fulfilled') return [home.value, network.value, nproc.value];
  if (home.status === 'fulfilled') await rm(home.value.dir, { recursive: true, force: true });
  if (network.status === 'fulfilled') await network.value.proxy?.close();
  throw [home, network, nproc].find((s) => s.status === 'rejected')!.reason;
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

/** Paths the command needs beyond the host view: PATH folders, its install, its interpreter's, supervisor's. */
function commandPaths(request: SandboxRequest, ctx: SandboxContext, bin: string): string[] {
  const { command, homeDir, repoRoot } = request;
  const interpreter = interpreterOf(bin, ctx.which);
  // A PATH folder that holds the whole home or checkout (PATH=~:...) would show all of it.
  const pathVar = (command.env.PATH ?? '').split(':').filter((dir) => dir !== '/' && !inside(homeDir, dir) && !inside(repoRoot, dir)).join(':');
  const whole = [homeDir, repoRoot, '/tmp'].filter((area) => area && area !== '/');
  const shown = pathsToShow({ hidden: ['/'], pathVar, files: [bin, interpreter, ctx.self.bin, ctx.self.args[0]], whole });
  return shown.filter((path) => !SYSTEM_DIRS.some((dir) => inside(path, dir)));
}

/**
 * The network side of an `allow` run's CLI, started while the run is prepared (_network-holder.ts):
 * at once, not after the probe, whose answer waits for a main thread busy packing.
 */
function ahead(policy: SandboxPolicy, ctx: SandboxContext): Promise<NetworkHolder | undefined> {
  const bwrap = ctx.which('bwrap');
  return bwrap && process.platform === 'linux' ? startHolder(policy, ctx, bwrap) : Promise.resolve(undefined);
}

/**
 * allow mode's network: the holder started ahead, once its bridge listens, when it is ours and
 * made for this network; else an egress proxy of the wrap's own, its bridge then started in the
 * CLI's sandbox.
 */
async function networkSide(request: SandboxRequest, ctx: SandboxContext): Promise<Network> {
  const { policy } = request;
  if (policy.network !== 'allow') return {};
  const holder = asHolder(request.ahead);
  const enter = holder?.fits(policy) ? await holder.entry : undefined;
  if (holder && enter && holder.holding()) return { held: { holder, enter } };
  return { proxy: await ctx.startEgressProxy(policy.allow) };
}

interface Network {
  held?: { holder: NetworkHolder; enter: string[] };
  proxy?: EgressProxy;
}

async function wrap(request: SandboxRequest, ctx: SandboxContext) {
  const bwrap = ctx.which('bwrap') ?? 'bwrap';
  probed ??= probe(bwrap);
  const { userns } = await probed;
  const { cwd, scratchDir, repoRoot, homeDir, policy, command } = request;
  const env: Record<string, string | undefined> = { ...command.env, ...placedHomeAndTmp(request, homeDir || command.env.HOME) };
  const prlimit = ctx.which('prlimit');
  // Independent set-up steps, together (a failed one still tears down what the others made).
  const [home, { held, proxy }, nproc] = await settleAll([privateHome(request), networkSide(request, ctx), Promise.resolve(prlimit ? processLimit(policy.limits.pids) : [])] as const);
  const cgroup = limitCgroup(`supervisor-${request.id.replace(/[^a-zA-Z0-9_.-]/g, '-')}`, policy.limits);
  const teardown = async () => {
    // The holder is killed now and collected by the core's release at the end of the run, off the
    // run's way (its PID namespace may take tens of ms to go). The home is small: removed at once.
    const letGo = held?.holder.release();
    letGo?.catch(() => {});
    rmSync(home.dir, { recursive: true, force: true });
    await Promise.all([cgroup?.remove(), proxy?.close()]);
  };
  try {
    // An empty root of bwrap's own: only what is bound below exists inside.
    const args = [...hostViewArgs(), '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', ...home.args];
    // The checkout disappears under an empty read-only folder; git's part of it comes back below.
    const repoHidden = repoRoot !== cwd && !inside(repoRoot, cwd);
    if (repoHidden) args.push('--tmpfs', repoRoot);
    const git = request.git ?? gitDirs(cwd);
    if (git) args.push('--ro-bind', git.common, git.common, '--bind', git.admin, git.admin);
    args.push('--bind', cwd, cwd, '--bind', scratchDir, scratchDir);
    const bin = ctx.which(command.bin) ?? command.bin;
    const shown = [cwd, scratchDir, ...SYSTEM_DIRS];
    // Supervisor itself (replay, the bridge) is no secret; neither is the CLI's install.
    for (const path of commandPaths(request, ctx, bin)) {
      if (!shown.some((area) => inside(path, area))) args.push('--ro-bind', path, path);
    }
    // Files the adapter names on the command line (instruction files, a schema) stay readable.
    for (const file of namedFiles(command.args, ['/tmp', homeDir, repoRoot].filter((p) => p && p !== '/'))) {
      if (!shown.some((area) => inside(file, area))) args.push('--ro-bind', file, file);
    }
    args.push(...readOnlyOption(request));
    if (repoHidden) args.push('--remount-ro', repoRoot);
    // No capabilities, even for root (bwrap keeps them for a privileged caller unless told);
    // bwrap sets no-new-privileges itself. A user namespace where the kernel allows one: its
    // uid stays the caller's, so the worktree the caller made stays writable.
    if (userns) args.push('--unshare-user');
    args.push('--cap-drop', 'ALL', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session', '--chdir', cwd);
    // The network held ahead is entered instead of made: its bridge already listens there.
    if (policy.network !== 'open' && !held) args.push('--unshare-net');
    let inner = [bin, ...command.args];
    if (held) Object.assign(env, held.holder.env);
    if (proxy) {
      args.push('--bind', proxy.dir, proxy.dir);
      const bridged = behindBridge(proxy, ctx, inner);
      inner = bridged.command;
      Object.assign(env, bridged.env);
    }
    const limits = prlimit ? [prlimit, ...nproc, `--data=${policy.limits.memoryMb * 1024 * 1024}`, '--'] : [];
    const [first, ...rest] = [...(cgroup?.prefix ?? []), ...limits, ...(held?.enter ?? []), bwrap, ...args, '--', ...inner];
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
  ahead,
});
