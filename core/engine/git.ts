/**
 * Runs git with an argument array through runProcess (own process group, a timeout, the
 * caller's environment). Retries briefly when another process holds a git lock.
 * Supervisor's own git never runs the repository's hooks or fsmonitor (README: hooks are
 * skipped), and never follows GIT_DIR-style variables of the caller's environment: which
 * repository and work tree a command acts on is said by its cwd or its own flags.
 */
import { runProcess } from '../process/run-process.ts';

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  code: number | null;
}

export type GitEnv = Record<string, string | undefined>;

const LOCK_RETRIES = 5;
/** Generous: `worktree add` and `add -A` on a large repository take a while, but never this long. */
const GIT_TIMEOUT_MS = 10 * 60 * 1000;
const GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Before every command: no hooks (post-checkout, prepare-commit-msg, reference-transaction, ...), no fsmonitor daemon. */
export const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

/** Variables that would point git at another repository, index or object store than the one meant. */
const REDIRECTING = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_PREFIX'];

/** The caller's environment without the redirecting variables, and never a credential prompt. */
export function gitEnv(env: GitEnv): GitEnv {
  const clean: GitEnv = { ...env, GIT_TERMINAL_PROMPT: '0' };
  for (const name of REDIRECTING) delete clean[name];
  return clean;
}

async function once(cwd: string, args: string[], env: GitEnv): Promise<GitResult> {
  const proc = await runProcess({
    bin: 'git',
    args: [...NO_HOOKS, ...args],
    cwd,
    env: gitEnv(env),
    timeoutMs: GIT_TIMEOUT_MS,
    maxOutputBytes: GIT_OUTPUT_BYTES,
  });
  const why = proc.spawnError ?? (proc.timedOut ? `timed out after ${GIT_TIMEOUT_MS / 1000}s` : '');
  return { ok: proc.exitCode === 0 && !proc.timedOut, stdout: proc.stdout, stderr: proc.stderr || why, code: proc.exitCode };
}

/**
 * `git <args>` in cwd; never throws (a failing git is a value). `env` is the whole
 * environment git gets (the run's, as the CLI gets it); default: this process's.
 */
export async function git(cwd: string, args: string[], env: GitEnv = process.env): Promise<GitResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await once(cwd, args, env);
    // Parallel runs in one repository can meet on a ref or config lock for a moment.
    if (result.ok || attempt >= LOCK_RETRIES || !/\.lock'?: File exists|Unable to create .*\.lock|cannot lock ref/i.test(result.stderr)) {
      return result;
    }
    await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
  }
}

/** Like `git` but throws an Error carrying git's stderr when it fails. */
export async function gitOrThrow(cwd: string, args: string[], env?: GitEnv): Promise<string> {
  const result = await git(cwd, args, env);
  if (!result.ok) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  return result.stdout;
}
