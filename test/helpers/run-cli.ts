/** Runs the CLI in-process with captured output and an isolated home folder. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../core/cli/main.ts';
import { defaultDeps, type CliDeps } from '../../core/command/deps.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  cwd: string;
  /** Defaults to a fresh empty folder, so the developer's ~/.supervisor never leaks in. */
  homeDir?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  deps?: Partial<CliDeps>;
  /** Adds --trust: the repository's own plugins and templates load (see core/trust). */
  trust?: boolean;
}

export async function runCli(argv: string[], options: RunCliOptions): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const base = await defaultDeps();
  const homeDir = options.homeDir ?? (await mkdtemp(join(tmpdir(), 'sv-home-')));
  const deps: CliDeps = {
    ...base,
    cwd: options.cwd,
    homeDir,
    env: { ...process.env, HOME: homeDir, ...options.env },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    onInterrupt: () => () => {},
    ...options.deps,
  };
  const code = await main(options.trust ? [...argv, '--trust'] : argv, deps);
  return { code, stdout, stderr };
}
