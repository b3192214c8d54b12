/** The sandbox contract: wraps the command an adapter (or a gate) produced so it can reach only what it may. */
import type { WorktreeGit } from '../../git/worktree-git.ts';

/** How a sandboxed process may use the network. */
export type NetworkMode = 'none' | 'allow' | 'open';

/** What a sandboxed process may do, settled by the core from the role, the flags and the adapter. */
export interface SandboxPolicy {
  /** none: no network at all; allow: only `allow`; open: the host's network. */
  network: NetworkMode;
  /** "host:port" entries reachable in `allow` mode (loopback ones are forwarded as ports). */
  allow: string[];
  /** The configuration to make visible in the private home (absolute source paths, resolved). */
  config: { path: string; mode: 'bind' | 'copy' }[];
  /**
   * The variables granted beyond the base set (names, or prefixes ending in `*`). The core has
   * already reduced `SandboxRequest.command.env` to these: a sandbox passes that env on and
   * sets HOME and TMPDIR to its own (keeping a HOME or TMPDIR the adapter placed in the
   * worktree or scratch folder).
   */
  env: string[];
  /** Limits; a sandbox applies those its runtime can. */
  limits: { pids: number; memoryMb: number; cpus: number };
  /** The role's `sandbox` mapping without the keys the core reads (name, network, allow, limits): e.g. image. */
  options: Readonly<Record<string, unknown>>;
}

export interface SandboxRequest {
  /** What runs: the CLI of an attempt, or a gate command. */
  purpose: 'cli' | 'gate';
  /** The command the core would spawn without a sandbox, its environment reduced to the allowlist (policy.env); absolute or PATH-found bin. */
  command: { bin: string; args: string[]; env: Record<string, string | undefined> };
  /** The working folder (the run's worktree): writable. */
  cwd: string;
  /** The worktree's git folders as recorded (admin writable, common read-only), when cwd is a worktree the core made. */
  git?: WorktreeGit;
  /** The attempt's scratch folder: writable. */
  scratchDir: string;
  /** The user's repository root: not visible, except what git in the worktree needs (read-only). */
  repoRoot: string;
  /** The user's home: replaced by a private one. */
  homeDir: string;
  policy: SandboxPolicy;
  /** A unique name for this process (container names): safe characters only. */
  id: string;
  /**
   * What this sandbox's `ahead` started for the run, given to the run's first CLI wrap only. The
   * wrap that uses it tears it down with its own; one that does not (another policy by now, a
   * part of it gone) wraps as without it, and the core releases it when the run ends.
   */
  ahead?: SandboxAhead;
}

/** What `ahead` started; `release` ends it (the core calls it once the run ends, used or not: idempotent). */
export interface SandboxAhead {
  release(): Promise<void>;
}

/** The command to spawn instead, and what to undo after it ended (always: also on timeout and Ctrl-C). */
export interface SandboxedCommand {
  bin: string;
  args: string[];
  /** The whole environment of the spawned process. */
  env: Record<string, string | undefined>;
  teardown?(): Promise<void>;
}

/** An egress proxy the core runs outside the sandbox (allow mode), reached through unix sockets. */
export interface EgressProxy {
  /** The HTTP CONNECT + plain-HTTP proxy's socket. */
  proxySocket: string;
  /** One socket per allowed loopback port, each connected to 127.0.0.1:<port> outside. */
  forwards: { port: number; socket: string }[];
  /** The folder holding the sockets (bind it into the sandbox at the same path). */
  dir: string;
  close(): Promise<void>;
}

export interface SandboxContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The command that runs supervisor itself; `[...args, '__bridge', ...]` is the network bridge (see README). */
  self: { bin: string; args: string[] };
  notice(message: string): void;
  /** Finds an executable on PATH (absolute path, or null). */
  which(bin: string): string | null;
  /** Starts the allowlist proxy; every refused connection becomes a `sandbox_refused` event and a notice. */
  startEgressProxy(allow: string[]): Promise<EgressProxy>;
}

/** Whether a sandbox can run on this machine; when not, what is missing and how to get it. */
export type SandboxAvailability = { ok: true; detail?: string } | { ok: false; missing: string; hint: string };

export interface SandboxHooks {
  /**
   * Checks the runtime (binary present, namespaces allowed, engine reachable) and, when a run
   * asks, the role's options (e.g. an image named). `options` is absent for `doctor`.
   * Changes nothing.
   */
  available(ctx: SandboxContext, options?: Readonly<Record<string, unknown>>): SandboxAvailability | Promise<SandboxAvailability>;
  /** Returns the command to spawn instead; may set up (files, proxies) and hand back a teardown. */
  wrap(request: SandboxRequest, ctx: SandboxContext): SandboxedCommand | Promise<SandboxedCommand>;
  /**
   * Optional: a run will wrap its CLI with `policy` once its prompt and worktree are ready;
   * start now what that wrap would otherwise wait for (bwrap: the network side). Called while the
   * run is prepared, as `available` is asked (not after its answer: what it started is released
   * when the sandbox turns out unavailable). Resolving to undefined, or failing, only means
   * nothing was started: the wrap then does it all itself.
   */
  ahead?(policy: SandboxPolicy, ctx: SandboxContext): SandboxAhead | undefined | Promise<SandboxAhead | undefined>;
}
