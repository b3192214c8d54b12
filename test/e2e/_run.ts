/** Helpers for end-to-end runs: the fake CLIs of test/fixtures/bin on PATH, replies, results. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../core/run/result.ts';
import { readEvents } from '../../core/runs/runs-store.ts';
import { tempDir } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';

export const FAKE_BIN = fileURLToPath(new URL('../fixtures/bin', import.meta.url));
export const OWN_CAPTURES = fileURLToPath(new URL('./fixtures/cli', import.meta.url));
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** PATH with the fake CLIs first; short grace and backoff so failures stay fast. */
export function fakeEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${FAKE_BIN}${delimiter}${process.env.PATH ?? ''}`,
    SUPERVISOR_KILL_GRACE_MS: '200',
    SUPERVISOR_RETRY_BACKOFF_MS: '10',
    ...extra,
  };
}

export function fenced(json: unknown, prose = 'Done.'): string {
  return `${prose}\n\n\`\`\`json\n${JSON.stringify(json, null, 2)}\n\`\`\`\n`;
}

/** A reply file, or a folder of replies answered in order (one per CLI call; the last repeats). */
export async function replies(...texts: string[]): Promise<string> {
  const dir = await tempDir('sv-replies-');
  if (texts.length === 1) {
    await writeFile(join(dir, 'reply.md'), texts[0]!);
    return join(dir, 'reply.md');
  }
  await mkdir(join(dir, 'seq'));
  for (const [i, text] of texts.entries()) await writeFile(join(dir, 'seq', `${i + 1}.md`), text);
  return join(dir, 'seq');
}

export interface JsonRun {
  code: number;
  stdout: string;
  stderr: string;
  result: RunResult;
}

/** `supervisor run ... --json` in-process; stdout must be exactly one JSON document. */
export async function runJson(repo: string, argv: string[], env: Record<string, string> = {}): Promise<JsonRun> {
  const out = await runCli(['run', ...argv, '--json'], { cwd: repo, env: fakeEnv(env) });
  let result: RunResult;
  try {
    result = JSON.parse(out.stdout) as RunResult;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${out.code}):\n${out.stdout}\nstderr:\n${out.stderr}`);
  }
  return { ...out, result };
}

export function eventKinds(result: RunResult): string[] {
  return readEvents(result.run_dir).map((e) => e.kind);
}

/** Lines of FAKE_CLI_LOG: one per CLI call (args, cwd, stdin, pid). */
export function cliCalls(logFile: string): { cli: string; args: string[]; cwd: string; stdin: string; pid: number }[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
