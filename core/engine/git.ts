/**
 * Runs git with an argument array through runProcess (own process group, a timeout, the
 * caller's environment). Retries briefly when another process holds a git lock.
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

async function once(cwd: string, args: string[], env: GitEnv): Promise<GitResult> {
  const proc = await runProcess({
    bin: 'git',
    args,
    cwd,
    env: { ...env, GIT_TERMINAL_PROMPT: '0' },
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
