/** Small builders shared by the adapter tests. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdapterContext, CommandRequest, ProcessResult } from '../../../core/plugin-api/index.ts';
import { baseRequest, CLI_FIXTURES } from './captures.ts';

export function request(overrides: Partial<CommandRequest> = {}): CommandRequest {
  return baseRequest('/tmp/sv-scratch', { cwd: '/work/repo', ...overrides });
}

export function processResult(overrides: Partial<ProcessResult> = {}): ProcessResult {
  return { stdout: '', stderr: '', exitCode: 0, signal: null, durationMs: 1234, timedOut: false, interrupted: false, truncated: { stdout: false, stderr: false }, ...overrides };
}

export function context(env: Record<string, string | undefined> = {}): AdapterContext & { notices: string[] } {
  const notices: string[] = [];
  return { env, self: { bin: process.execPath, args: ['/path/to/supervisor.mjs'] }, notice: (m: string) => notices.push(m), notices };
}

/** One file of a capture, e.g. capture('claude', 'json', 'stdout'). */
export function capture(cli: string, name: string, ext: string): Promise<string> {
  return readFile(join(CLI_FIXTURES, cli, `${name}.${ext}`), 'utf8');
}

export const SCHEMA = {
  name: 'implementer',
  schema: { type: 'object', properties: { status: { type: 'string' }, action_taken: { type: 'string' } }, required: ['status', 'action_taken'] },
  file: '/tmp/sv-scratch/output-schema.json',
};

export interface DryRun {
  command: { bin: string; args: string[]; stdin: string | null; env: Record<string, string> };
}

/** `supervisor run reviewer --cli <adapter> --dry-run --json`: the command the engine would start, through the real request. */
export async function dryRun(cli: string, extra: string[] = []): Promise<DryRun> {
  const { makeRepo } = await import('../../helpers/git-repo.ts');
  const { runCli } = await import('../../helpers/run-cli.ts');
  const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
  const run = await runCli(['run', 'reviewer', '--cli', cli, '--task', 'Review math.js', '--target', 'math.js', '--dry-run', '--json', ...extra], { cwd: repo });
  if (run.code !== 0) throw new Error(`dry run of ${cli} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as DryRun;
}
