/** The packer contract: gathers named context parts; budget and pruning are the core's job. */
import type { ProcessResult } from '../../process/process-result.ts';

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
  /** Number the lines of packed files (the role's `context.line_numbers`): pass it to renderFiles. */
  lineNumbers?: boolean;
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
   * capped, and a timeout that ends the whole process tree. On Linux the core starts it from a
   * small shell of its own (a fork of that costs far less than one of this process): one ended
   * by a signal reports 128 + the signal's number as its exit code, as a shell does, and
   * `signal` null.
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
   * The ids of the secret-scan rules that find a secret in a text the packer got some other way (a diff,
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
