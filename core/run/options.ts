/**
 * What a caller (the `run` command, a script, a test) hands to `runRole`: the request (what to
 * run), its dependencies (where, for whom, with which plugins) with the tuning settings (time
 * limits, grace, retries' pacing, caps), and hooks (abort, events, notices).
 */
import type { TokenizerName } from '../context/tokens.ts';
import type { Registry } from '../registry.ts';
import type { BoundWorktree } from '../git/bound-git.ts';
import type { EnginePeers } from './peers.ts';
import type { RunEvent } from './run-log.ts';

/** What to run: the role on a task, and what the user asked of this run. */
export interface RunRequest {
  /** Role name (built-in, ~/.supervisor/roles, <repo>/.supervisor/roles). */
  role: string;
  task: string;
  targets?: string[];
  /** --context key=value pairs. */
  extraContext?: Record<string, string>;
  /** Adapter to use instead of the role's `cli`. */
  cli?: string;
  /** Sandbox to run the CLI and gates in instead of the role's (a name, or a mapping with name and options). */
  sandbox?: string | Record<string, unknown>;
  /** --allow-host: "host:port" entries the sandboxed CLI may reach, besides the role's and the adapter's. */
  allowHosts?: string[];
  /** --pass-env: variables of the caller's the sandboxed CLI and gates may see (NAME or NAME_*). */
  passEnv?: string[];
  /** Model name handed to the adapter as the role's `x-model` is (overrides it). */
  model?: string;
  /** Extra gate commands, run after the role's own. */
  gates?: string[];
  /** --allow-command: commands the CLI may run, besides the role's `allowed_commands`; "*": any (sandbox only). */
  allowCommands?: string[];
  /** Extra set-up commands (`--setup`), run after the role's own in the run's new worktree before the CLI. */
  setup?: string[];
  /** false: run in place (--no-worktree). Default true. */
  worktree?: boolean;
  /** Keep the worktree folder after the run (the branch always stays). */
  keepWorktree?: boolean;
  /** false: no secret scan of the packed context (--no-secret-scan); overrides context.secret_scan. */
  secretScan?: boolean;
  /** Cost ceiling in USD; overrides config.max_cost_usd. */
  maxCostUsd?: number;
  /** How prompt tokens are counted (default: the 4-characters estimate). */
  tokenizer?: TokenizerName;
  /** Start the worktree from this commit or branch instead of HEAD (`--base`). */
  base?: string;
  /**
   * What a reviewer reviews (`--review`): `<base>..<head>`, or a branch meaning its commits since
   * the merge base with `base` (else HEAD). The git parts come from that range and the
   * worktree is checked out at its head.
   */
  review?: string;
  /** The workflow this run belongs to: the CLI and gates see SUPERVISOR_WORKFLOW_ID, _TASK_ID, _ROUND. */
  workflow?: { id: string; task: string; round: number; /** Its state folder: SUPERVISOR_WORKFLOW_DIR, what a resume finds its orphans by (ids repeat across repositories). */ stateDir?: string };
  /**
   * Run in an existing worktree the caller owns, on the branch it has checked out: the run
   * packs from it, commits onto that branch (unless `commit` is false: the caller discards
   * the changes) and never removes it. A workflow task's rounds share one worktree this way.
   */
  workspace?: {
    path: string;
    branch: string;
    commit?: boolean;
    /** The worktree's admin folder as recorded when it was made (the workflow's slots): git is bound to it and the worktree checked, never found through its `.git`. */
    git?: BoundWorktree;
    /** What set-up left in it (core/run/setup.ts): never committed, never packed. */
    exclude?: string[];
  };
}

/** Time limits and pacing: they change how long and how often, never what runs. */
export interface RunTuning {
  /** Seconds; overrides the role's config.timeout. */
  timeoutSec?: number;
  /** Retries after the first attempt; overrides config.max_retries. */
  retries?: number;
  /** Time between TERM and KILL when ending a process tree. */
  graceMs?: number;
  /** First backoff delay after a CLI failure (doubles each time). */
  backoffMs?: number;
  /** Consecutive CLI failures that open the circuit breaker. */
  breakerThreshold?: number;
  /** Seconds per gate; overrides config.gate_timeout. */
  gateTimeoutSec?: number;
  /** Bytes kept of each of the CLI's stdout and stderr. */
  maxOutputBytes?: number;
}

/** Where and for whom the run works, and the modules it uses. */
export interface RunDeps {
  repoRoot: string;
  homeDir: string;
  /** The repository may run its own code: its templates and node_modules/.bin/repomix (core/trust). Default: not. */
  trustedRepo?: boolean;
  /** The environment the CLI and gates inherit. */
  env: Record<string, string | undefined>;
  registry: Registry;
  /** Replace any neighbour (tests); the rest are the real modules. */
  peers?: Partial<EnginePeers>;
  tuning?: RunTuning;
}

/** The caller's hooks into a run. */
export interface RunHooks {
  /** Aborting (Ctrl-C) ends the CLI's process tree and finishes the run as interrupted. */
  signal?: AbortSignal;
  /** Every run-log event as it is recorded (progress display). */
  onEvent?: (event: RunEvent) => void;
  /** One-line notices for the user. */
  onNotice?: (message: string) => void;
}

/** The three parts as one (how the engine's own steps and `dryRunRole` read them). */
export type RunRoleOptions = RunRequest & Omit<RunDeps, 'tuning'> & RunTuning & RunHooks;

const DEPS_KEYS = ['repoRoot', 'homeDir', 'trustedRepo', 'env', 'registry', 'peers'] as const;
const TUNING_KEYS = ['timeoutSec', 'retries', 'gateTimeoutSec', 'graceMs', 'backoffMs', 'breakerThreshold', 'maxOutputBytes'] as const;
const HOOK_KEYS = ['signal', 'onEvent', 'onNotice'] as const;

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (from[key] !== undefined) picked[key] = from[key];
  return picked as Pick<T, K>;
}

/** The request, its dependencies (tuning inside) and hooks of options given as one object. */
export function splitRunOptions(options: RunRoleOptions): { request: RunRequest; deps: RunDeps; hooks: RunHooks } {
  const request: Partial<RunRoleOptions> = { ...options };
  for (const key of [...DEPS_KEYS, ...TUNING_KEYS, ...HOOK_KEYS]) delete request[key];
  const { repoRoot, homeDir, env, registry } = options;
  const tuning = pick(options, TUNING_KEYS);
  const deps: RunDeps = { ...pick(options, DEPS_KEYS), repoRoot, homeDir, env, registry, ...(Object.keys(tuning).length ? { tuning } : {}) };
  return { request: { ...request, role: options.role, task: options.task }, deps, hooks: pick(options, HOOK_KEYS) };
}

/** The three parts as the one object the engine's steps read. */
export function joinRunOptions(request: RunRequest, deps: RunDeps, hooks: RunHooks = {}): RunRoleOptions {
  const { tuning, ...where } = deps;
  return { ...request, ...where, ...tuning, ...hooks };
}
