/**
 * Worktree set-up: what a fresh checkout of a real project needs before a CLI and its gates can
 * work there (`npm ci`, a build, the user's untracked `.env`). Used by `run` (a role's `setup`,
 * `--setup`) after its worktree is made and by the workflow engine after a task's slot is
 * checked out, before the first run. `copy` paths come from the user's checkout (regular files
 * and folders, never through a symlink, never from outside it); the commands run one after
 * another through the shell in the worktree, each with the set-up's timeout.
 *
 * What set-up leaves is never part of the task's change: afterwards every path git shows as not
 * committed (untracked, as git collapses them: `node_modules/`; or a tracked file set-up
 * changed) is the set-up's, and the caller hands that list to the commit (`excludePaths`) and
 * to the clean-ups, which leave it alone.
 */
import { isAbsolute, normalize, sep } from 'node:path';
import type { RunProcessOptions, RunProcessResult } from '../process/run-process.ts';
import { combinedOutput, runShell } from '../process/shell-command.ts';
import { boundGit, type BoundWorktree } from '../git/bound-git.ts';
import { copyWithoutLinks, plainPathUnder } from './safe-copy.ts';
import type { GitEnv } from '../git/git.ts';

export const DEFAULT_SETUP_TIMEOUT_S = 900;
const SETUP_OUTPUT_BYTES = 1024 * 1024;
const TAIL_CHARS = 2000;

export interface SetupSpec {
  /** Shell commands, in order; each must exit 0. */
  commands: string[];
  /** Untracked paths copied from the user's checkout (repository-relative). */
  copy: string[];
  /** Per command. */
  timeoutMs: number;
}

export interface SetupOptions {
  spec: SetupSpec;
  /** The worktree, git bound to it (located before any CLI ran there). */
  worktree: BoundWorktree;
  /** The user's checkout, where `copy` reads from. */
  repoRoot: string;
  env: Record<string, string | undefined>;
  graceMs: number;
  signal?: AbortSignal;
  runProcess: (options: RunProcessOptions) => Promise<RunProcessResult>;
  /** One line per step, for a progress display and the run log. */
  onStep?: (step: SetupStep) => void;
}

export type SetupStep =
  | { kind: 'copied'; paths: string[]; missing: string[] }
  | { kind: 'command_started'; command: string }
  | { kind: 'command_finished'; command: string; exit_code: number | null; timed_out: boolean; duration_ms: number; output: string };

export type SetupResult =
  | { ok: true; excludePaths: string[]; copied: string[]; missing: string[] }
  | { ok: false; interrupted: boolean; command: string; exitCode: number | null; timedOut: boolean; tail: string };

export function hasSetup(spec: SetupSpec | undefined): spec is SetupSpec {
  return !!spec && (spec.commands.length > 0 || spec.copy.length > 0);
}

/** A copy path that stays inside the checkout: relative, no `..`, not into `.git`. */
function safeRelative(path: string): string | null {
  if (!path || isAbsolute(path)) return null;
  const clean = normalize(path).replace(/[\\/]+$/, '');
  const parts = clean.split(sep);
  if (clean === '.' || parts.includes('..') || parts[0] === '.git') return null;
  return clean;
}

async function copyFromCheckout(options: SetupOptions): Promise<{ copied: string[]; missing: string[] }> {
  const copied: string[] = [];
  const missing: string[] = [];
  for (const given of options.spec.copy) {
    const rel = safeRelative(given);
    // SECURITY I3: no link followed on either side (safe-copy.ts).
    if (!rel || !(await plainPathUnder(options.repoRoot, rel, 'exists')) || !(await copyWithoutLinks(options.repoRoot, options.worktree.path, rel))) {
      missing.push(given);
      continue;
    }
    copied.push(rel);
  }
  return { copied, missing };
}

/** Paths git shows as not committed (`-z` porcelain v1, untracked collapsed into folders). */
async function uncommitted(worktree: BoundWorktree, env: GitEnv | undefined): Promise<string[]> {
  const status = await boundGit(worktree, env).runOrThrow(['status', '--porcelain', '-z', '--untracked-files=normal']);
  const paths: string[] = [];
  const records = status.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (record.length < 4) continue;
    paths.push(record.slice(3));
    if (record[0] === 'R' || record[0] === 'C') i++; // the rename's source follows
  }
  return paths;
}

const tail = (text: string) => (text.length > TAIL_CHARS ? `…${text.slice(-TAIL_CHARS)}` : text).trimEnd();

/** Copies, then runs the commands; the first failing command ends the set-up. */
export async function setUpWorktree(options: SetupOptions): Promise<SetupResult> {
  const { spec, worktree } = options;
  const { copied, missing } = await copyFromCheckout(options);
  if (spec.copy.length) options.onStep?.({ kind: 'copied', paths: copied, missing });
  for (const command of spec.commands) {
    options.onStep?.({ kind: 'command_started', command });
    const proc = await runShell(options.runProcess, command, { cwd: worktree.path, env: options.env, timeoutMs: spec.timeoutMs, graceMs: options.graceMs, signal: options.signal, maxOutputBytes: SETUP_OUTPUT_BYTES });
    const output = combinedOutput(proc);
    options.onStep?.({ kind: 'command_finished', command, exit_code: proc.exitCode, timed_out: proc.timedOut, duration_ms: proc.durationMs, output });
    if (proc.interrupted || proc.exitCode !== 0 || proc.timedOut) {
      return { ok: false, interrupted: proc.interrupted === true, command, exitCode: proc.exitCode, timedOut: proc.timedOut, tail: tail(output) };
    }
  }
  return { ok: true, excludePaths: await uncommitted(worktree, options.env), copied, missing };
}

/** The one line a failed set-up leaves as the task's or run's issue. */
export function setupFailureIssue(result: Extract<SetupResult, { ok: false }>): string {
  const how = result.timedOut ? 'timed out' : `exited ${result.exitCode ?? 'on a signal'}`;
  return `set-up command \`${result.command}\` ${how}${result.tail ? `; the end of its output:\n${result.tail}` : ' with no output'}`;
}

/** The notice naming what `copy` brought in (never committed, never packed) and what it could not. */
export function copyNotice(copied: string[], missing: string[]): string | null {
  const parts: string[] = [];
  if (copied.length) parts.push(`copied ${copied.join(', ')} from your checkout into the worktree (never committed, never packed)`);
  if (missing.length) parts.push(`not copied (absent, outside the checkout, or through a symlink): ${missing.join(', ')}`);
  return parts.length ? `set-up: ${parts.join('; ')}` : null;
}

/** Pathspecs that leave `paths` out of a `git add -A` or a `git clean`. */
export function excludePathspecs(paths: readonly string[]): string[] {
  return paths.map((path) => `:(exclude,literal,top)${path.replace(/\/$/, '')}`);
}
