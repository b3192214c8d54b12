/** Runs git with an argument array. Retries briefly when another process holds a git lock. */
import { execFile } from 'node:child_process';

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  code: number | null;
}

const LOCK_RETRIES = 5;

function once(cwd: string, args: string[], env?: Record<string, string | undefined>): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd, env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null) : 0;
        resolve({ ok: !error, stdout, stderr: stderr || (error && code === null ? error.message : ''), code });
      },
    );
  });
}

/** `git <args>` in cwd; never throws (a failing git is a value). */
export async function git(cwd: string, args: string[], env?: Record<string, string | undefined>): Promise<GitResult> {
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
export async function gitOrThrow(cwd: string, args: string[], env?: Record<string, string | undefined>): Promise<string> {
  const result = await git(cwd, args, env);
  if (!result.ok) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  return result.stdout;
}
