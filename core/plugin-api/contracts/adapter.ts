/** The adapter contract: how to run one CLI, and how to read what it printed. */
import type { ProcessResult } from '../../process/process-result.ts';
import type { WorktreeGit } from '../../git/worktree-git.ts';
import type { PackProcessRequest, PackProcessResult } from './packer.ts';
import type { SandboxAvailability } from './sandbox.ts';

/** Why an attempt produced no usable answer. Stable strings: scripts match on them. */
export type FailureClass =
  | 'not_found'
  | 'timeout'
  | 'nonzero_exit'
  | 'empty_output'
  | 'invalid_envelope'
  | 'api_error'
  | 'max_turns'
  | 'max_budget'
  | 'interrupted'
  | 'no_json'
  | 'invalid_output'
  | 'gate_failed'
  /** The worktree stopped being a worktree of the repository (its .git removed, moved, rewritten): nothing was committed. */
  | 'workspace_broken'
  /** The user's checkout (files, HEAD, branch, index) or branch list changed while the CLI ran. */
  | 'escaped_worktree'
  /** The run's changes could not be committed on their branch (a branch name clash, ...): the worktree is kept. */
  | 'commit_failed';

export interface Failure {
  class: FailureClass;
  /** One line a person can act on. */
  detail: string;
  /** HTTP status of the model API, when the CLI says which. */
  httpStatus?: number;
  /**
   * false when the CLI itself says trying again cannot help (cline's `"recoverable": false` on
   * an auth error): the engine does not retry it, whatever its class. Absent: the engine decides.
   */
  retryable?: boolean;
}

/** One shape of metrics for every CLI. `null` means the CLI did not say (never a made-up 0). */
export interface Metrics {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  costUsd: number | null;
  durationMs: number | null;
  turns: number | null;
  sessionId: string | null;
  model: string | null;
}

/** What the core knows when it asks an adapter for a command line. */
export interface CommandRequest {
  /** The full rendered prompt. */
  prompt: string;
  /** Where the CLI runs: the run's worktree, or the repo when running in place. */
  cwd: string;
  /** The worktree's git folders, when cwd is a worktree the core made (absent in place). */
  git?: WorktreeGit;
  /** A private, empty, existing folder for this attempt (data dirs, schema files, session files); the only place command() may write. */
  scratchDir: string;
  /** The role's output schema, when it has one; `file` is that schema written as JSON. */
  outputSchema?: { name: string; schema: Record<string, unknown>; file: string };
  /** Instruction files (e.g. system.md), absolute paths, when the adapter takes them as arguments. */
  instructionFiles: string[];
  /** The role's `flags`, appended to the command line by the adapter. */
  flags: string[];
  /** The role's `x-model`, if any. */
  model?: string;
  /** The role's `config` mapping (max_turns, max_budget_usd, ...). */
  config: Record<string, unknown>;
  /** Whether the role edits files (implementers, workers) and so needs edit permission. */
  allowEdits: boolean;
  /**
   * Commands the CLI may run besides editing, each a command prefix ("npm test"): the role's
   * `allowed_commands` and `--allow-command`. `["*"]`: any command (the core allows it only with a
   * sandbox active). Empty: none. Mapped by adapters that declare `commandPermissions`.
   */
  allowedCommands: string[];
  /**
   * True when supervisor's own sandbox (bwrap, docker, podman, a plugin's; not `none`) encloses
   * the CLI. A CLI whose own sandbox cannot start inside another (codex's nested bwrap needs a
   * user namespace it is not given there) may then leave confinement to it.
   */
  sandboxed?: boolean;
  /** Remaining cost budget in USD for CLIs that accept one; undefined when there is no ceiling. */
  maxBudgetUsd?: number;
  /** Ask for streaming output (progress), where the CLI offers it. */
  stream: boolean;
  /** 1 for the first attempt, then 2, 3, ... across retries. */
  attempt: number;
  /**
   * The role this attempt runs for, with its `x-` extension fields and, for each, the role file
   * that gave it: a path in an `x-` field is relative to that file, as every path in a role is.
   */
  role: { name: string; baseRole: string | null; extensions: Record<string, unknown>; extensionFiles?: Record<string, string> };
  /**
   * A complete, valid answer for this role in its parser's format (the parser's `exampleAnswer`),
   * when the parser gives one: what an offline adapter (replay) answers with by default.
   */
  exampleAnswer?: string;
}

/** The exact process to start. The core spawns it with an argument array, never a shell. */
export interface CommandSpec {
  /** Executable; defaults to the adapter's `bin`. */
  bin?: string;
  args: string[];
  /** Text written to stdin, which is then closed. Undefined: stdin is ignored (closed). */
  stdin?: string;
  /** Variables added to the inherited environment. */
  env?: Record<string, string>;
}

/** The adapter's reading of a ProcessResult. */
export interface Extraction {
  /** The model's final text, or null when there is none. */
  text: string | null;
  /** An object the CLI already validated natively (e.g. claude's structured_output). */
  structured?: unknown;
  /** Older texts to try, newest first, when `text` has no schema-valid answer (cline's rule). */
  alternates?: string[];
  metrics: Metrics;
  /** Set when the envelope says the attempt failed. */
  failure?: Failure;
}

export interface AdapterContext {
  /** The environment the CLI will see (read-only). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The command that runs supervisor itself (node + script from source, or the binary).
   * `[...self.args, '__emit', file]` prints a file to stdout: for adapters such as replay
   * that answer without a real CLI.
   */
  self: { bin: string; args: string[] };
  /** A one-line notice for the user (stderr, and the run log). */
  notice(message: string): void;
}

/** Whether a CLI can run here; when not, what is missing and how to get it (the shape a sandbox's `available` returns). */
export type AdapterAvailability = SandboxAvailability;

/** What an adapter's `installed` hook may use: the environment, PATH look-up, and a short process run. */
export interface AdapterCheckContext {
  env: Readonly<Record<string, string | undefined>>;
  /** Finds an executable on PATH (absolute path, or null). */
  which(bin: string): string | null;
  /** Runs a process the core's way (argument array, stdin closed, output capped, tree ended at the time limit). */
  runProcess(request: PackProcessRequest): Promise<PackProcessResult>;
}

/** How an adapter maps allowed commands (see AdapterHooks.commandPermissions). */
export type CommandPermissions = 'list' | 'all-or-none';

export interface AdapterHooks {
  /** The executable looked up on PATH, e.g. "codex". */
  bin: string;
  /**
   * True when the adapter needs no CLI of its own because it answers through supervisor itself
   * (`ctx.self`), like replay: always available, and `bin` is not looked up.
   */
  selfHosted?: boolean;
  /** Arguments that make the CLI print its version. Default: ["--version"]. */
  versionArgs?: string[];
  /** How instruction files reach the CLI: rendered into the prompt (default) or as arguments. */
  instructions?: 'prompt' | 'argument';
  /** True when the CLI can be handed the output JSON Schema natively. */
  acceptsOutputSchema?: boolean;
  /** True when the CLI can be handed a cost ceiling (see CommandRequest.maxBudgetUsd). */
  acceptsBudget?: boolean;
  /** Environment that keeps the CLI offline-safe and quiet (telemetry, auto-update off). */
  quietEnv?: Record<string, string>;
  /** What the CLI needs from the machine, for sandboxes to grant exactly that (see AdapterAccess). */
  access?: AdapterAccess;
  /**
   * How command() maps `CommandRequest.allowedCommands` to the CLI's own permission mechanism:
   * - `list`: exactly the listed commands (claude `--allowedTools "Bash(npm test:*)"`);
   * - `all-or-none`: the CLI can allow every command or none (codex's own sandbox): a list opens
   *   every command inside the CLI's sandbox, and the core says so in a notice;
   * - absent: the CLI has no such mechanism; a run that asks for commands gets a notice, and
   *   `doctor` says so.
   */
  commandPermissions?: CommandPermissions;
  /**
   * The keys of a role's `config` this adapter reads (beyond the core's, see role.schema.json),
   * so a role may use them; any other undeclared key is reported as unknown, with a suggestion.
   */
  configKeys?: string[];
  /**
   * Optional: whether the CLI is installed and runnable here, asked before a workflow spends
   * anything (`workflow check`, `workflow run`). Starts no model call. Without it the core finds
   * `bin` on PATH and runs it with `versionArgs` within a short time limit.
   */
  installed?(ctx: AdapterCheckContext): AdapterAvailability | Promise<AdapterAvailability>;
  /**
   * Builds the command line for one attempt. Starts nothing and changes nothing outside
   * `request.scratchDir`: it may read files (settings, canned replies) and write inside the
   * scratch folder (schema files, a fresh data dir), which exists already. Under `--dry-run` the
   * scratch folder is a private temporary one, removed right after.
   */
  command(request: CommandRequest, ctx: AdapterContext): CommandSpec | Promise<CommandSpec>;
  /** Reads the process result: final text, metrics and failure class. May read scratchDir. */
  extract(result: ProcessResult, request: CommandRequest, ctx: AdapterContext): Extraction | Promise<Extraction>;
}

/**
 * What an adapter's CLI needs beyond its worktree, declared by the adapter: the hosts of its
 * model API, the environment variables that move it (a base URL on loopback is a local model
 * server whose port must be reachable), and its settings and credentials in the user's home.
 */
export interface AdapterAccess {
  /** "host:port" entries the CLI reaches by default, e.g. "api.anthropic.com:443". */
  hosts?: string[];
  /** Variables holding a base URL (e.g. ANTHROPIC_BASE_URL): when set, their host:port is allowed instead of nothing. */
  baseUrlEnv?: string[];
  /** Files or folders the CLI reads (and may write) as its configuration. */
  config?: AccessPath[];
  /**
   * Variables of the caller's environment the CLI reads (API keys, its settings), e.g.
   * ["ANTHROPIC_API_KEY", "CLAUDE_CODE_*"]: a NAME, or a prefix ending in `*`. A sandbox passes
   * only these, the base set (PATH, HOME, TMPDIR, TERM, locale, SUPERVISOR_*), `baseUrlEnv`,
   * what the command sets itself and what the user names (--pass-env, role sandbox.env).
   */
  env?: string[];
  /**
   * Optional: the exact names of the variables holding the CLI's credentials (e.g.
   * ["ANTHROPIC_API_KEY"]), a subset of what `env` grants. `workflow export` names them as the
   * CI secrets a runner needs (by name only, never their values).
   */
  secrets?: string[];
}

export interface AccessPath {
  /** "~/..." (in the user's home) or an absolute path. */
  path: string;
  /** A variable that, when set, names the path instead (e.g. CODEX_HOME for ~/.codex)... */
  env?: string;
  /** ...or, with `under`, the folder the path is in (GEMINI_CLI_HOME + ".gemini"). */
  under?: string;
  /** bind: visible read-only; copy: a private writable copy, discarded after the run. Default copy. */
  mode?: 'bind' | 'copy';
}
