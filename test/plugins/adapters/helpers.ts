/** Small builders shared by the adapter tests. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdapterContext, CommandRequest, ProcessResult } from '../../../core/plugin/index.ts';
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
