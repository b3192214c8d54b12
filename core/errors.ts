/**
 * Every error a user can meet is a SupervisorError with a stable code. Codes are API: add
 * freely, never rename. The exit code follows from the code's family (see EXIT).
 */
import { nameList } from './text/name-list.ts';
import { suggest } from './text/suggest.ts';

/** Process exit codes, as in the design: one per outcome family. */
export const EXIT = {
  ok: 0,
  gaps: 1,
  usage: 2,
  noValidOutput: 3,
  cliFailed: 4,
  /** A workflow holds tasks for a person's approval and nothing else can run (supervisor workflow approve/reject). */
  awaitingApproval: 5,
  interrupted: 130,
  /** Stopped by SIGHUP (the terminal closed): 128 + 1. */
  hangup: 129,
  /** Stopped by SIGTERM: 128 + 15. */
  terminated: 143,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Which exit code each error code ends the process with. Unlisted codes exit 2. */
const EXIT_BY_CODE: Record<string, ExitCode> = {
  PARSE_NO_JSON: EXIT.noValidOutput,
  PARSE_INVALID_JSON: EXIT.noValidOutput,
  PARSE_UNRECOGNISED: EXIT.noValidOutput,
  OUTPUT_INVALID: EXIT.noValidOutput,
  CLI_NOT_FOUND: EXIT.cliFailed,
  CLI_FAILED: EXIT.cliFailed,
  CLI_TIMEOUT: EXIT.cliFailed,
  INTERRUPTED: EXIT.interrupted,
};

export interface ErrorDetails {
  /** File the problem is in, when there is one. */
  file?: string;
  [key: string]: unknown;
}

export interface SupervisorErrorOptions {
  hint?: string;
  details?: ErrorDetails;
  cause?: unknown;
  exitCode?: ExitCode;
}

export class SupervisorError extends Error {
  override readonly name = 'SupervisorError';
  readonly code: string;
  readonly hint: string | undefined;
  readonly details: ErrorDetails;
  readonly exitCode: ExitCode;

  constructor(code: string, message: string, options: SupervisorErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.details = options.details ?? {};
    this.exitCode = options.exitCode ?? EXIT_BY_CODE[code] ?? EXIT.usage;
  }

  toJSON(): { code: string; message: string; hint?: string; details: ErrorDetails } {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      details: this.details,
    };
  }
}

export function isSupervisorError(value: unknown): value is SupervisorError {
  return value instanceof SupervisorError ||
    (typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'SupervisorError' &&
      typeof (value as { code?: unknown }).code === 'string');
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  return String(value);
}

/** System errors that say something about the machine (a full disk, a read-only folder), not about supervisor. */
const FILE_SYSTEM_CAUSES: Record<string, { what: string; hint: string }> = {
  ENOSPC: { what: 'no space left on the device', hint: 'Free some disk space (supervisor gc removes old runs and worktrees) and run again.' },
  EDQUOT: { what: 'the disk quota is used up', hint: 'Free some of your quota (supervisor gc removes old runs and worktrees) and run again.' },
  EROFS: { what: 'the file system is read-only', hint: 'Run in a repository you can write to: supervisor keeps its run log and worktrees in <repo>/.supervisor/.' },
  EACCES: { what: 'permission denied', hint: 'Check the owner and permissions of that path.' },
};

/** The errno error behind a failed file operation, when it is one of FILE_SYSTEM_CAUSES. */
export function fileSystemCause(error: unknown): NodeJS.ErrnoException | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return error instanceof Error && typeof code === 'string' && code in FILE_SYSTEM_CAUSES ? (error as NodeJS.ErrnoException) : undefined;
}

// ---- factories: every message lives here -------------------------------------------------

export const errors = {
  usage: (message: string, hint?: string) => new SupervisorError('USAGE', message, { hint }),

  fileRead: (file: string, cause: unknown) =>
    new SupervisorError('FILE_READ', `Cannot read ${file}: ${describe(cause)}`, { details: { file }, cause }),

  // plugins
  pluginImport: (file: string, cause: unknown) =>
    new SupervisorError('PLUGIN_IMPORT', `Plugin ${file} failed to load: ${describe(cause)}`, {
      details: { file },
      cause,
      hint: 'Fix the error in the plugin file, or move it out of the plugin folder.',
    }),
  pluginShape: (file: string, problems: string[]) =>
    new SupervisorError('PLUGIN_SHAPE', `Plugin ${file} has the wrong shape: ${problems.join('; ')}`, {
      details: { file, problems },
      hint: "A plugin's default export must be definePlugin({ kind, name, ... }) from 'supervisor/plugin'.",
    }),
  pluginUnknownKind: (file: string, kind: unknown, kinds: readonly string[]) =>
    new SupervisorError('PLUGIN_UNKNOWN_KIND', `Plugin ${file} has unknown kind ${JSON.stringify(kind)}`, {
      details: { file, kind },
      hint: `kind must be one of: ${kinds.join(', ')}.`,
    }),
  pluginDuplicate: (file: string, kind: string, name: string, other: string) =>
    new SupervisorError('PLUGIN_DUPLICATE', `Plugin ${file} defines ${kind} "${name}", already defined by ${other} in the same folder`, {
      details: { file, kind, name, other },
      hint: 'Give one of them another name, or remove one.',
    }),
  pluginNotFound: (kind: string, name: string, known: string[]) =>
    new SupervisorError('PLUGIN_NOT_FOUND', `No ${kind} plugin named "${name}"${suggest(name, known)}`, {
      details: { kind, name, known },
      hint: known.length ? `Known ${kind}s: ${known.join(', ')}` : `No ${kind} plugins are loaded.`,
    }),
  pluginPath: (path: string) =>
    new SupervisorError('PLUGIN_PATH', `Plugin path ${path} does not exist or is not a plugin file`, {
      details: { file: path },
      hint: 'Plugin files end in .ts .mts .cts .js .mjs or .cjs.',
    }),
  pluginHook: (plugin: string, hook: string, cause: unknown) =>
    new SupervisorError('PLUGIN_HOOK', `Plugin ${plugin} failed in ${hook}: ${describe(cause)}`, {
      details: { plugin, hook },
      cause,
    }),
  fileExists: (file: string) =>
    new SupervisorError('FILE_EXISTS', `${file} already exists`, { details: { file }, hint: 'Choose another name, or delete the file first.' }),

  // output parsing (exit 3)
  parseNoJson: (message: string, details: ErrorDetails = {}) =>
    new SupervisorError('PARSE_NO_JSON', message, {
      details,
      hint: 'The answer must end with a fenced ```json block.',
    }),
  parseInvalidJson: (message: string, details: ErrorDetails = {}) =>
    new SupervisorError('PARSE_INVALID_JSON', message, { details }),
  parseUnrecognised: (message: string, details: ErrorDetails = {}) =>
    new SupervisorError('PARSE_UNRECOGNISED', message, { details }),
  outputInvalid: (message: string, details: ErrorDetails = {}) =>
    new SupervisorError('OUTPUT_INVALID', message, { details }),

  interrupted: (exitCode: ExitCode = EXIT.interrupted) => new SupervisorError('INTERRUPTED', 'Interrupted', { exitCode }),

  /** A write or read the system refused (ENOSPC, EROFS, ...): named with its path and cause. */
  fileSystem: (cause: NodeJS.ErrnoException, by?: string) => {
    const known = FILE_SYSTEM_CAUSES[cause.code ?? ''] ?? { what: cause.message, hint: 'Check the path and run again.' };
    const path = cause.path ?? (cause as { dest?: string }).dest;
    const subject = path ?? (by ? `a file of ${by}` : 'a file');
    return new SupervisorError('FILE_SYSTEM', `Cannot ${cause.syscall ?? 'write'} ${subject}: ${known.what} (${cause.code})`, {
      details: { ...(path ? { file: path } : {}), errno: cause.code, syscall: cause.syscall, ...(by ? { by } : {}) },
      cause,
      hint: known.hint,
    });
  },

  // engine (runs, worktrees, run log)
  worktreeFailed: (repoRoot: string, cause: unknown) =>
    new SupervisorError('WORKTREE_FAILED', `Cannot create a git worktree for the run in ${repoRoot}: ${describe(cause)}`, {
      details: { repoRoot },
      cause,
      hint: 'Check `git worktree list` and the repository state, or run with --no-worktree to work in place.',
    }),
  setupFailed: (path: string, issue: string) =>
    new SupervisorError('SETUP_FAILED', `The worktree ${path} could not be set up: ${issue}`, {
      details: { path },
      hint: 'Fix the set-up command (the role\'s setup, or --setup) so it passes in a fresh checkout; nothing ran and nothing was committed.',
    }),
  /** An allowed command that is not a command prefix of plain words (nor "*" alone). */
  allowedCommandInvalid: (value: string, source: string) =>
    new SupervisorError('ALLOWED_COMMAND_INVALID', `${source}: the allowed command ${JSON.stringify(value)} is not a command prefix of plain words`, {
      hint: 'Name a command as you would type it, e.g. "npm test" or "cargo build" (words of letters, digits and ._/@%+=:- separated by single spaces), or "*" alone for any command (sandbox only).',
      details: { value, source },
    }),
  /** SECURITY I4: supervisor's state folder is one a repository could have chosen. */
  stateDirUnsafe: (path: string, why: string) =>
    new SupervisorError('STATE_DIR_UNSAFE', `supervisor's state folder ${path} ${why}; supervisor keeps run logs, worktrees and workflow state only where a repository cannot put them`, {
      hint: 'remove the link or the committed files (git rm -r --cached <path>), then run again; supervisor makes the folder itself',
      details: { file: path },
    }),
  workspaceBroken: (path: string, why: string) =>
    new SupervisorError('WORKSPACE_BROKEN', `The run's worktree ${path} is no longer a worktree of this repository on the run's line of commits: ${why}`, {
      details: { path },
      exitCode: EXIT.cliFailed,
      hint: `Nothing was committed and your checkout was not touched. The folder is kept for inspection; remove it with: rm -rf ${path} && git worktree prune`,
    }),
  commitFailed: (path: string, why: string) =>
    new SupervisorError('COMMIT_FAILED', `The run's changes could not be saved on a branch: ${why}`, {
      details: { path },
      exitCode: EXIT.cliFailed,
      hint: `The work is kept in the worktree ${path}.`,
    }),
  bareRepository: (dir: string) =>
    new SupervisorError('BARE_REPOSITORY', `${dir} is a bare git repository (or the inside of a .git folder): it has no checkout for a CLI to work in`, {
      details: { dir },
      hint: 'Run supervisor in a checkout of the repository (git clone <bare> <folder>, or git worktree add), or give one with --repo.',
    }),
  notARepository: (dir: string, why: string) =>
    new SupervisorError('NOT_A_REPOSITORY', `${dir}: ${why}; a workflow needs a git repository with a commit (its tasks run in worktrees on branches of their own)`, {
      details: { dir },
      hint: 'Run it inside a git checkout (git init && git commit), or give one with --repo.',
    }),
  runNotFound: (id: string, known: string[]) =>
    new SupervisorError('RUN_NOT_FOUND', `No run "${id}" in the run log`, {
      details: { id, known },
      hint: known.length ? `Recent runs: ${known.slice(0, 5).join(', ')} (see: supervisor runs list)` : 'No runs recorded in this repository yet.',
    }),
  runAmbiguous: (id: string, matches: string[]) =>
    new SupervisorError('RUN_AMBIGUOUS', `"${id}" matches ${matches.length} runs: ${nameList(matches, 20)}`, {
      details: { id, matches },
      hint: 'Give more of the run id (or "last" for the newest run).',
    }),
} as const;

/** Wraps anything thrown by plugin code once, attributing it to the plugin and hook. */
export function wrapPluginError(plugin: string, hook: string, error: unknown): SupervisorError {
  if (isSupervisorError(error)) return error;
  // A full disk is not the plugin's fault either.
  const system = fileSystemCause(error);
  if (system) return errors.fileSystem(system, `plugin ${plugin} (${hook})`);
  return errors.pluginHook(plugin, hook, error);
}
