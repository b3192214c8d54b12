/**
 * The plugin contracts, in one table keyed by kind. Built-in plugins and users' plugins
 * implement exactly these; the core never special-cases a plugin by name.
 */
import type { WorkflowInput } from '../workflow/model.ts';
import type { SupervisorError } from '../errors.ts';

export type { WorkflowInput, Workflow, WorkflowTask, WorkflowDefaults } from '../workflow/model.ts';

// ---------------------------------------------------------------------------------------
// adapter: how to run one CLI, and how to read what it printed
// ---------------------------------------------------------------------------------------

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

/**
 * A worktree's git folders as the core recorded them when it made the worktree, before any CLI
 * ran there: what git in the worktree writes (`admin`: `<common>/worktrees/<name>`, its index
 * and HEAD) and reads (`common`: the repository's objects, refs, config). A plugin binds or
 * allows these, never what the worktree's `.git` file says by then (a CLI can rewrite it).
 */
export interface WorktreeGit {
  admin: string;
  common: string;
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

/** What came back from one run of the CLI. A non-zero exit is a value, not an exception. */
export interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** The core's timeout ended the process tree. */
  timedOut: boolean;
  /** The user interrupted (Ctrl-C) and the core ended the process tree. */
  interrupted: boolean;
  /** Output was cut at the capture cap. */
  truncated: { stdout: boolean; stderr: boolean };
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

// ---------------------------------------------------------------------------------------
// packer: gathers named context parts; budget and pruning are the core's job
// ---------------------------------------------------------------------------------------

/** A named piece of context, e.g. key "files" or "git_diff". */
export interface ContextPart {
  /** Priority key used by pruning: target_file, git_diff, changed_files, imports, related, files, tree, ... */
  key: string;
  /** Rendered text of the part, ready for the prompt. */
  content: string;
  /**
   * Repository-relative paths whose content the part holds (for stats, de-duplication and the
   * core's path check). A part that packs files must list every one of them.
   */
  files?: string[];
}

/** The git parts a pack asks for. */
export interface GitWanted {
  /** The staged diff (`git diff --cached`), part `git_diff`. */
  staged: boolean;
  /** The unstaged diff, part `git_diff` too. */
  unstaged: boolean;
  /** The full content of the staged files, part `changed_files`. */
  changedFiles: boolean;
  /**
   * A commit range to review instead of the staged change (`run --review`, workflow reviewers):
   * `staged` and `changedFiles` then mean the diff `base..head` and its files.
   */
  range?: { base: string; head: string };
}

export interface PackRequest {
  /** Absolute path of the repository root. */
  repoRoot: string;
  /** Globs to include (sentinels such as "$TARGET" already removed by the core). */
  include: string[];
  /** Globs to exclude. */
  exclude: string[];
  /**
   * Repository-relative files that earlier parts packed already (always_include, targets,
   * earlier packers). A packer must not pack them again. Absent: none.
   */
  skipFiles?: string[];
  /** Repository-relative target paths, already checked to be inside the repo. */
  targets: string[];
  /**
   * What the context asks of git, resolved by the core from the sentinels and options
   * ("git diff --cached" / `git_diff: true`, `git_diff_unstaged: true`, "$CHANGED_FILES" /
   * `changed_files: true`). Absent when a caller gives none: the staged diff only.
   */
  git?: GitWanted;
  /** The role's whole `context` mapping, for packer-specific options. */
  context: Readonly<Record<string, unknown>>;
  /** Output style. */
  style: 'markdown' | 'xml';
}

export interface PackResult {
  parts: ContextPart[];
  /** Things the user should know: skipped files, fallbacks. */
  notices: string[];
  /** Things that went wrong and may matter for safety or quality (e.g. output refused). */
  warnings?: string[];
  /**
   * true: every file's text in `parts` was read with `ctx.readFiles` or checked with
   * `ctx.scanSecrets`, so the core need not scan the parts again. Otherwise the core scans each
   * part whole and drops one that looks like it holds a secret.
   */
  secretsScanned?: boolean;
}

/** A process a packer asks the core to run (git, repomix, ...). */
export interface PackProcessRequest {
  bin: string;
  args: string[];
  /** Default: the repository root. */
  cwd?: string;
  /** Variables added to the packer context's environment. */
  env?: Record<string, string>;
  /** Milliseconds before the process tree is ended; the core's default (60 s) when omitted. */
  timeoutMs?: number;
  /** Bytes kept of each of stdout and stderr. */
  maxOutputBytes?: number;
  /** Written to the process's stdin, which is then closed; absent: stdin closed from the start. */
  stdin?: string;
}

/** What a packer's process did. A non-zero exit is a value, not an exception. */
export interface PackProcessResult extends ProcessResult {
  /** The executable could not be started (not on PATH, not executable). */
  notFound: boolean;
}

export interface PackContext {
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Whether the user trusts the repository to run its own code (`supervisor trust`, `--trust`).
   * A packer must not run a tool the repository ships (node_modules/.bin/...) unless it is true.
   */
  repoTrusted?: boolean;
  notice(message: string): void;
  /**
   * Runs a process the core's way: argument array (never a shell), stdin closed, output
   * capped, and a timeout that ends the whole process tree.
   */
  runProcess(request: PackProcessRequest): Promise<PackProcessResult>;
  /** Runs another registered packer (used for fallbacks, e.g. repomix → glob). */
  runPacker(name: string, request: PackRequest): Promise<PackResult>;
  /**
   * Resolves a repository-relative path and refuses anything outside the repo
   * (absolute, `..`, symlinks out). Throws a SupervisorError. To read files use `readFiles`:
   * a path checked here can be swapped for a symlink before it is opened.
   */
  safePath(relative: string): Promise<string>;
  /**
   * The repository-relative paths among `files` that lead outside the repository (absolute,
   * `..`, through symlinks). The core runs the same check on every part a packer returns and
   * drops parts that hold such a path; a packer that wraps a tool can check first and fall back.
   */
  outsideRepo(files: readonly string[]): Promise<string[]>;
  /**
   * Reads repository files the safe way, in their order, within the per-file (1 MiB) and total
   * (10 MiB) caps: nothing outside the repository (the opened file itself is checked, so a path
   * swapped for a symlink mid-read is refused), nothing under `.git/`, no binary files, and no
   * file that looks like it holds a secret (unless the role or flag turned the scan off). The
   * report says what was left out and why.
   */
  readFiles(paths: readonly string[]): Promise<ReadReport>;
  /**
   * The secretlint rules that find a secret in a text the packer got some other way (a diff,
   * a tool's output); empty when none do or the scan is off. Leave such a text out.
   */
  scanSecrets(path: string, content: string): Promise<string[]>;
}

/** What `PackContext.readFiles` kept and what it left out, by reason (repository-relative paths). */
export interface ReadReport {
  files: { path: string; content: string }[];
  tooLarge: string[];
  binary: string[];
  overTotal: string[];
  unreadable: string[];
  /** Symlinks, or paths through symlinked folders, that lead out of the repository. */
  outside: string[];
  /** Paths inside `.git/`: never packed. */
  gitDir: string[];
  /** Files that look like they hold a secret, with the ids of the rules that found it. */
  secrets: { path: string; rules: string[] }[];
}

export interface PackerHooks {
  /**
   * The keys of a role's `context` this packer reads (beyond the core's, see role.schema.json),
   * so a role may use them; any other undeclared key is reported as unknown, with a suggestion.
   */
  contextKeys?: string[];
  /** Returns named context parts for the request. */
  pack(request: PackRequest, ctx: PackContext): Promise<PackResult>;
}

// ---------------------------------------------------------------------------------------
// parser: model text → validated object
// ---------------------------------------------------------------------------------------

export interface ParserContext {
  /** The output schema's name (e.g. "review", "generic"). */
  schemaName: string;
  /** The JSON Schema to validate against. */
  schema: Readonly<Record<string, unknown>>;
  /**
   * Validates a value against the schema, applies defaults, and returns it; throws an
   * OUTPUT_INVALID SupervisorError listing every violation with its JSON pointer.
   */
  validate(value: unknown): Record<string, unknown>;
  /** The role being parsed for, when known. */
  role?: { name: string; baseRole: string | null };
  /** The role (or a flag) asks for the legacy free-text grammar to be recognised too. */
  legacy: boolean;
  /**
   * For formatInstructions: the prompt already shows the output schema's fields and an example
   * (a template's output-schema section), so the instructions need not repeat them.
   */
  schemaInPrompt?: boolean;
}

export interface ParserHooks {
  /**
   * Returns the validated object. Throws PARSE_NO_JSON / PARSE_INVALID_JSON /
   * PARSE_UNRECOGNISED when nothing usable is found, OUTPUT_INVALID on schema violations.
   */
  parse(text: string, ctx: ParserContext): Record<string, unknown>;
  /**
   * Optional: the exact answer format, in words and with an example, for the model. Templates
   * show it as `it.outputFormat` (the Output Requirements of `_base`), and the engine appends it
   * to the prompt when it retries after an unusable answer. Without it the model is told that
   * the answer is read by this parser in the format its instructions define.
   */
  formatInstructions?(ctx: ParserContext): string;
  /**
   * Optional: one complete answer this parser accepts for the role in `ctx.role` (a calm
   * "done, nothing found" answer). The replay adapter answers with it offline; without it,
   * replay builds a fenced JSON example from the output schema.
   */
  exampleAnswer?(ctx: ParserContext): string;
  /**
   * Optional: the name of the built-in output schema answers for this parser are validated
   * against when `supervisor parse --parser <name>` names no role and no --schema. Default: generic.
   */
  defaultSchema?: string;
}

// ---------------------------------------------------------------------------------------
// plan-reader: a plan file → the one workflow model; the core fills defaults and checks it
// ---------------------------------------------------------------------------------------

/** A problem a plan reader found, for `ctx.error`: where it is in the plan and what is wrong. */
export interface PlanProblem {
  message: string;
  /** JSON pointer into the plan the reader returns, e.g. "/tasks/2/depends_on"; "" or absent: the whole plan. */
  pointer?: string;
  /** 1-based line in the plan file; absent: the line recorded for the pointer (ctx.locate), if any. */
  line?: number;
  /** Id (or heading) of the task the problem is in. */
  task?: string;
  hint?: string;
}

export interface PlanReadContext {
  /** Absolute path of the plan file (for messages; the core has read its text already). */
  file: string;
  /** A one-line notice for the user (stderr). */
  notice(message: string): void;
  /**
   * Records that the value at `pointer` of the returned plan (e.g. "/tasks/0") starts at `line`,
   * so the core's errors (cycles, unknown roles, ...) can name the line. A pointer without a
   * line of its own takes its nearest recorded ancestor's.
   */
  locate(pointer: string, line: number): void;
  /**
   * Parses YAML strictly (duplicate keys, unknown tags, several documents and alias bombs
   * refused) and requires a mapping at the top; throws WORKFLOW_YAML naming the file, line and
   * column. `lines` maps the JSON pointer of every node to its line (give them to `locate`
   * when the plan keeps the YAML's shape).
   */
  parseYaml(text: string): { value: Record<string, unknown>; lines: ReadonlyMap<string, number> };
  /**
   * Checks a value against a JSON Schema; throws WORKFLOW_INVALID listing every violation with
   * its pointer, task and line, and a "did you mean" for unknown fields.
   */
  validate(schema: Readonly<Record<string, unknown>>, value: unknown): void;
  /** An error for a problem in the plan (WORKFLOW_INVALID): names the file, task, pointer and line. */
  error(problem: PlanProblem): SupervisorError;
}

export interface PlanReaderHooks {
  /** File name endings this reader reads, with the dot (".yaml"); used when no reader's detect() claims the file. */
  extensions?: string[];
  /** Whether this reader recognises the file (by its name or its text); tried before extensions. Must not throw. */
  detect?(file: string, text: string): boolean;
  /**
   * Reads the plan's text into the workflow model. Only the tasks' id, title and task text are
   * needed; the core fills the rest with defaults, checks the result (shape, ids, dependencies,
   * cycles, roles, CLIs) and refuses a bad plan before anything runs. Throw `ctx.error(...)`
   * for problems in the file.
   */
  read(text: string, ctx: PlanReadContext): WorkflowInput | Promise<WorkflowInput>;
}

// ---------------------------------------------------------------------------------------
// sandbox: wraps the command an adapter (or a gate) produced so it can reach only what it may
// ---------------------------------------------------------------------------------------

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
}

// ---------------------------------------------------------------------------------------

/** The hooks of each plugin kind. */
export interface PluginKinds {
  adapter: AdapterHooks;
  packer: PackerHooks;
  parser: ParserHooks;
  'plan-reader': PlanReaderHooks;
  sandbox: SandboxHooks;
}

export type PluginKind = keyof PluginKinds;

export const PLUGIN_KINDS = ['adapter', 'packer', 'parser', 'plan-reader', 'sandbox'] as const satisfies readonly PluginKind[];

interface PluginIdentity<K extends PluginKind> {
  kind: K;
  /** Name used in role YAML and on the command line; equals the file stem by convention. */
  name: string;
  /** One line shown by `supervisor plugins list`. */
  description?: string;
}

export type Plugin<K extends PluginKind = PluginKind> = K extends PluginKind
  ? PluginIdentity<K> & PluginKinds[K]
  : never;

export type AdapterPlugin = Plugin<'adapter'>;
export type PackerPlugin = Plugin<'packer'>;
export type ParserPlugin = Plugin<'parser'>;
export type PlanReaderPlugin = Plugin<'plan-reader'>;
export type SandboxPlugin = Plugin<'sandbox'>;
