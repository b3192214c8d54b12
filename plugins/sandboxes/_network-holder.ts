/**
 * bwrap's network side started ahead (the `ahead` hook): while the run is prepared, the egress
 * proxy and the bridge (`supervisor __bridge --hold`, or where the system has them systemd's
 * socket relay doing the same work: _relay.ts) in a small bwrap of its own, whose network
 * namespace has only loopback and the bridge's ports. The CLI's bwrap then starts inside that
 * namespace (nsenter) instead of starting a bridge inside its own sandbox, so the bridge's start
 * is no longer on the CLI's way. The CLI reaches exactly what it reached before: the bridge's
 * ports on 127.0.0.1; it no longer sees the proxy's sockets.
 *
 * The namespace is entered through this process's own descriptor of it (/proc/<pid>/fd/<n>),
 * opened while the holder's first process was still the child of its bwrap, which this process
 * has not reaped, and checked to be the namespace bwrap made: no process id given out again
 * can lead the CLI into another network, the host's included (SECURITY.md, I2).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { parentOf, type EgressProxy, type SandboxAhead, type SandboxContext, type SandboxPolicy } from '../../core/plugin-api/index.ts';
import { bridgeStart } from './_bridge.ts';
import { hostViewArgs, interpreterOf, LINKER_ETC_ENTRIES, SYSTEM_DIRS } from './_host-view.ts';
import { systemdRelay, type Relay } from './_relay.ts';
import { inside, pathsToShow } from './_visible-paths.ts';

/** How long a holder may take to listen before the wrap goes on without it. */
const READY_WITHIN_MS = 5_000;
/** How long its end may be waited for (a SIGKILLed bwrap is collected at once). */
const STOP_WITHIN_MS = 1_000;

export interface NetworkHolder extends SandboxAhead {
  /**
   * Once its bridge listens and its namespace is checked: nsenter and its options up to `--`
   * (what follows runs in the holder's network namespace). Undefined when it did not start.
   */
  entry: Promise<string[] | undefined>;
  /** The CLI's proxy variables (the bridge's proxy port). */
  env: Record<string, string>;
  /** Made for this policy's network: `allow` with the same allowlist. */
  fits(policy: SandboxPolicy): boolean;
  /** Its bridge still listens (its bwrap has not exited). */
  holding(): boolean;
}

const made = new WeakSet<object>();

/** `ahead` as one of this module's holders, or undefined (another plugin's, or nothing). */
export function asHolder(ahead: SandboxAhead | undefined): NetworkHolder | undefined {
  return ahead && made.has(ahead) ? (ahead as NetworkHolder) : undefined;
}

/**
 * Starts a holder for `policy` (allow mode only) and returns it at once, its `entry` settling
 * when its bridge listens; undefined without nsenter. One that cannot start (no user namespaces
 * for this user) has no entry: the wrap then starts the bridge in the CLI's sandbox as before.
 * Root enters any network namespace and makes no user namespace for it; any other user makes
 * one, and enters it with the network.
 */
export async function startHolder(policy: SandboxPolicy, ctx: SandboxContext, bwrap: string): Promise<NetworkHolder | undefined> {
  const nsenter = ctx.which('nsenter');
  const root = process.getuid?.() === 0;
  if (policy.network !== 'allow' || !nsenter) return undefined;
  const proxy = await ctx.startEgressProxy(policy.allow);
  const bridge = bridgeStart(proxy, ctx);
  // systemd's relay where it is here (_relay.ts); the bridge, a start of this binary, elsewhere.
  const relay = systemdRelay(bridge.listeners, ctx.env);
  let child: ChildProcess;
  try {
    // The relay's shell starts it in the background, which a shell does with /dev/null as its input.
    const view = [...holderView(proxy, ctx), ...(relay ? ['--dev-bind', '/dev/null', '/dev/null'] : [])];
    const inner = relay ? relay.words : [...bridge.words, '--hold'];
    const args = [...view, ...(root ? [] : ['--unshare-user']), ...HOLDER_NAMESPACES, '--info-fd', '3', '--', ...inner];
    child = spawn(bwrap, args, { stdio: ['pipe', 'pipe', relay ? 'pipe' : 'ignore', 'pipe'], env: {} });
  } catch (error) {
    await proxy.close();
    throw error;
  }
  // A holder neither keeps this process alive nor outlives it (its bridge holds until its stdin ends).
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr, child.stdio[3]]) (stream as { unref?: () => void } | null)?.unref?.();
  const namespaces = listening(child, relay).then((started) => (started ? holderNamespaces(child, started, !root) : undefined));
  const end = once(async () => {
    await stop(child);
    const fds = await namespaces;
    for (const fd of fds ? [fds.net, fds.user] : []) if (fd !== undefined) closeSync(fd);
    await proxy.close();
  });
  const key = allowKey(policy);
  const holder: NetworkHolder = {
    entry: namespaces.then((fds) => (fds ? [nsenter, ...nsenterOptions(fds), '--'] : undefined)),
    env: bridge.env,
    fits: (other) => other.network === 'allow' && allowKey(other) === key,
    holding: () => child.exitCode === null && child.signalCode === null,
    release: end,
  };
  made.add(holder);
  return holder;
}

/** The namespaces as this process's own descriptors of them (which the CLI's chain, its descendant, may open). */
function nsenterOptions(fds: { net: number; user?: number }): string[] {
  const own = (fd: number) => `/proc/${process.pid}/fd/${fd}`;
  return [`--net=${own(fds.net)}`, ...(fds.user === undefined ? [] : [`--user=${own(fds.user)}`, '--preserve-credentials'])];
}

/** Its own namespaces besides the network: processes, no capabilities; gone with this process. */
const HOLDER_NAMESPACES = ['--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--cap-drop', 'ALL', '--die-with-parent', '--new-session'];

/** What the bridge sees: the toolchain, the linker's cache, supervisor itself and the proxy's folder; no other /etc, home, checkout, /run or /tmp. */
function holderView(proxy: EgressProxy, ctx: SandboxContext): string[] {
  const self = [ctx.self.bin, ctx.self.args[0], interpreterOf(ctx.self.bin, ctx.which)];
  const whole = ['/tmp', ctx.env.HOME].filter((area): area is string => !!area && area !== '/');
  const shown = pathsToShow({ hidden: ['/'], pathVar: '', files: self, whole }).filter((path) => !SYSTEM_DIRS.some((dir) => inside(path, dir)));
  // No --dev: with it bwrap makes a second user namespace, below the one that owns the network,
  // and an unprivileged nsenter of both is refused. The bridge opens no device.
  return [...hostViewArgs(LINKER_ETC_ENTRIES), '--proc', '/proc', '--tmpfs', '/tmp', ...shown.flatMap((path) => ['--ro-bind', path, path]), '--bind', proxy.dir, proxy.dir];
}

export interface Started {
  /** The host pid of the holder's first process (bwrap's child). */
  pid: number;
  /** The inode of the network namespace bwrap made. */
  netns: number;
}

/**
 * bwrap's account of what it made (--info-fd) once the bridge says it listens (on stdout), or the
 * relay says each port does (on stderr); undefined when it exits, a relay fails, or it takes too long first.
 */
function listening(child: ChildProcess, relay: Relay | undefined): Promise<Started | undefined> {
  return new Promise((resolve) => {
    let info = '';
    let out = '';
    let err = '';
    let settled = false;
    // Not unref'd, unlike the holder's process and pipes: a wrap waiting for it keeps this process alive.
    const timer = setTimeout(() => resolve(undefined), READY_WITHIN_MS);
    const settle = (value: Started | undefined) => {
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    child.on('error', () => settle(undefined));
    child.on('exit', () => settle(undefined));
    // Two pipes, read in either order: whichever brings the last part settles it.
    const check = () => {
      const pid = /"child-pid":\s*(\d+)/.exec(info)?.[1];
      const netns = /"net-namespace":\s*(\d+)/.exec(info)?.[1];
      const ready = relay ? relay.listening(err) : out.startsWith('ready\n') || undefined;
      if (ready === false) settle(undefined);
      else if (ready && pid && netns) settle({ pid: Number(pid), netns: Number(netns) });
    };
    child.stdio[3]!.on('data', (data: Buffer) => ((info += data.toString('utf8')), check()));
    child.stdout!.on('data', (data: Buffer) => ((out += data.toString('utf8')), check()));
    // Read on while it runs (a full pipe would stop the relay), kept only until it is settled.
    child.stderr?.on('data', (data: Buffer) => void (settled || ((err += data.toString('utf8')), check())));
  });
}

/**
 * Descriptors of the holder's network (and, unprivileged, user) namespace, or undefined. Taken
 * while its first process is still its bwrap's child and bwrap has not exited (so that pid is
 * not yet anyone else's); the network's inode must be the one bwrap reported and not ours.
 */
export function holderNamespaces(child: ChildProcess, started: Started, withUser: boolean): { net: number; user?: number } | undefined {
  const fds: number[] = [];
  try {
    const net = openSync(`/proc/${started.pid}/ns/net`, 'r');
    fds.push(net);
    const user = withUser ? openSync(`/proc/${started.pid}/ns/user`, 'r') : undefined;
    if (user !== undefined) fds.push(user);
    const stillHolder = child.exitCode === null && child.signalCode === null && parentOf(started.pid) === child.pid;
    const ownNet = openSync('/proc/self/ns/net', 'r');
    const ours = fstatSync(ownNet).ino;
    closeSync(ownNet);
    const ino = fstatSync(net).ino;
    if (!stillHolder || ino !== started.netns || ino === ours) throw new Error('not the holder\'s network');
    return user === undefined ? { net } : { net, user };
  } catch {
    for (const fd of fds) closeSync(fd);
    return undefined;
  }
}

/**
 * Ends the holder: its bwrap killed, and with it (--die-with-parent) its PID namespace; resolves
 * once bwrap is collected, at once when it never started, and after a second at most.
 */
function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, STOP_WITHIN_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGKILL');
  });
}

function allowKey(policy: SandboxPolicy): string {
  return JSON.stringify([...policy.allow].sort());
}

/** `fn` run once; later calls get the first call's promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
