/**
 * `supervisor plugins check <file> --sample <file>`: runs a plugin's hooks on a recorded sample
 * the way a run would, through the same hook calls (time limit, shape checks), and reports what
 * they returned. An adapter gets command() on a sample request, then extract() on the sample
 * as the CLI's stdout; a parser gets parse() on the sample as the model's text.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bareRequest } from '../run/bare-request.ts';
import { errors, isSupervisorError } from '../errors.ts';
import { parseExtraction } from '../output/parse-extraction.ts';
import { DEFAULT_PARSER, parseOutput } from '../output/parse-output.ts';
import { GENERIC_SCHEMA, loadOutputSchema } from '../output/schemas.ts';
import type { AdapterContext, CommandRequest, CommandSpec, Extraction, Plugin, ProcessResult } from '../plugin-api/contracts.ts';
import { createRegistry, type Registry } from '../registry.ts';
import { selfCommand } from '../self-command.ts';
import { callHook } from '../plugins/call-hook.ts';
import { builtinEntries } from '../plugins/load.ts';

export interface SampleReport {
  /** adapter: what command() returned for a sample request. */
  command?: CommandSpec;
  /** adapter: what extract() read from the sample. */
  extraction?: Extraction;
  /** The answer read from the text as a run would (default parser, generic schema), or why none. */
  answer: { ok: true; output: Record<string, unknown> } | { ok: false; code: string; message: string };
}

export interface SampleHost {
  repoRoot: string;
  env: Record<string, string | undefined>;
  notice(message: string): void;
}

function sampleRequest(repoRoot: string, scratchDir: string): CommandRequest {
  return bareRequest({ prompt: 'A sample prompt from supervisor plugins check.', cwd: repoRoot, scratchDir, role: { name: 'sample', baseRole: null, extensions: {} } });
}

function sampleResult(stdout: string): ProcessResult {
  return { stdout, stderr: '', exitCode: 0, signal: null, durationMs: 0, timedOut: false, interrupted: false, truncated: { stdout: false, stderr: false } };
}

function withPlugin(plugin: Plugin, file: string): Registry {
  return createRegistry([...builtinEntries(), { plugin, source: file, layer: 'cli' }]);
}

function readAnswer(read: () => Record<string, unknown>): SampleReport['answer'] {
  try {
    return { ok: true, output: read() };
  } catch (error) {
    if (!isSupervisorError(error) || error.code.startsWith('PLUGIN_')) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}

export async function checkSample(plugin: Plugin, file: string, sample: string, host: SampleHost): Promise<SampleReport> {
  const registry = withPlugin(plugin, file);
  const schema = loadOutputSchema(GENERIC_SCHEMA, { baseDir: host.repoRoot });
  if (plugin.kind === 'parser') {
    return { answer: readAnswer(() => parseOutput(sample, { registry, parser: plugin.name, schema })) };
  }
  if (plugin.kind !== 'adapter') throw errors.usage(`--sample runs adapters and parsers; ${file} is a ${plugin.kind}`);
  const scratchDir = await mkdtemp(join(tmpdir(), 'sv-check-'));
  try {
    const request = sampleRequest(host.repoRoot, scratchDir);
    const ctx: AdapterContext = { env: Object.freeze({ ...host.env }), self: selfCommand(), notice: host.notice };
    const command = await callHook(plugin, 'command', () => plugin.command(request, ctx));
    const extraction = await callHook(plugin, 'extract', () => plugin.extract(sampleResult(sample), request, ctx));
    const answer = extraction.failure
      ? { ok: false as const, code: 'CLI_FAILED', message: `${extraction.failure.class}: ${extraction.failure.detail}` }
      : readAnswer(() => parseExtraction(extraction, { registry, parser: DEFAULT_PARSER, schema, adapter: plugin.name }));
    return { command, extraction, answer };
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}
