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
  | 'gate_failed';

export interface Failure {
  class: FailureClass;
  /** One line a person can act on. */
  detail: string;
  /** HTTP status of the model API, when the CLI says which. */
  httpStatus?: number;
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
  /** Remaining cost budget in USD for CLIs that accept one; undefined when there is no ceiling. */
  maxBudgetUsd?: number;
  /** Ask for streaming output (progress), where the CLI offers it. */
  stream: boolean;
  /** 1 for the first attempt, then 2, 3, ... across retries. */
  attempt: number;
  /** The role this attempt runs for, with its `x-` extension fields. */
  role: { name: string; baseRole: string | null; extensions: Record<string, unknown> };
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
}

/** What a packer's process did. A non-zero exit is a value, not an exception. */
export interface PackProcessResult extends ProcessResult {
  /** The executable could not be started (not on PATH, not executable). */
  notFound: boolean;
}

export interface PackContext {
  env: Readonly<Record<string, string | undefined>>;
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
   * (absolute, `..`, symlinks out). Throws a SupervisorError.
   */
  safePath(relative: string): Promise<string>;
  /**
   * The repository-relative paths among `files` that lead outside the repository (absolute,
   * `..`, through symlinks). The core runs the same check on every part a packer returns and
   * drops parts that hold such a path; a packer that wraps a tool can check first and fall back.
   */
  outsideRepo(files: readonly string[]): Promise<string[]>;
}

export interface PackerHooks {
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

/** The hooks of each plugin kind. */
export interface PluginKinds {
  adapter: AdapterHooks;
  packer: PackerHooks;
  parser: ParserHooks;
  'plan-reader': PlanReaderHooks;
}

export type PluginKind = keyof PluginKinds;

export const PLUGIN_KINDS = ['adapter', 'packer', 'parser', 'plan-reader'] as const satisfies readonly PluginKind[];

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
