/** `supervisor parse`: raw CLI output → (adapter extract) → parser → validated JSON on stdout. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bareRequest } from '../run/bare-request.ts';
import type { Args } from '../command/command.ts';
import type { CliContext } from '../command/context.ts';
import { readStream } from '../command/text-arg.ts';
import { errors } from '../errors.ts';
import { callHook } from '../plugins/call-hook.ts';
import type { AdapterPlugin, CommandRequest, Extraction, ProcessResult } from '../plugin-api/contracts.ts';
import type { Registry } from '../registry.ts';
import { selfCommand } from '../self-command.ts';
import { outputErrors } from '../output/errors.ts';
import { wantsLegacyGrammar } from '../output/legacy.ts';
import { parseExtraction } from '../output/parse-extraction.ts';
import { DEFAULT_PARSER, parseOutput, type ParseOutputOptions } from '../output/parse-output.ts';
import { GENERIC_SCHEMA, loadOutputSchema, resolveOutputSchema } from '../output/schemas.ts';

async function readInput(file: string | undefined, ctx: CliContext): Promise<string> {
  // yargs hands over "-" as "" (no file can have an empty name).
  if (file === undefined || file === '-' || file === '') {
    if (file === undefined && (ctx.deps.stdin as { isTTY?: boolean }).isTTY) {
      throw errors.usage('supervisor parse needs the output to parse', 'Give a file, or pipe the output in (e.g. claude -p ... | supervisor parse --role reviewer).');
    }
    return readStream(ctx.deps.stdin);
  }
  const path = resolve(ctx.deps.cwd, file);
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw errors.fileRead(path, cause);
  }
}

interface ParseSetup {
  opts: ParseOutputOptions;
  /** The role's `x-` extension fields, for the adapter's request. */
  extensions: Record<string, unknown>;
}

async function parseSetup(args: Args, ctx: CliContext, registry: Registry): Promise<ParseSetup> {
  const parser = typeof args.parser === 'string' ? args.parser : undefined;
  const legacy = args.legacy === true;
  if (typeof args.role === 'string') {
    // A role name, or a role file (relative to the current folder), as every command takes it.
    const { loadRoleArg } = await import('../command/role-arg.ts');
    const role = await loadRoleArg(args.role, ctx);
    const opts = {
      registry,
      schema: resolveOutputSchema(role),
      parser: parser ?? role.parser ?? DEFAULT_PARSER,
      role: { name: role.name, baseRole: role.base_role },
      legacy: legacy || wantsLegacyGrammar(role),
    };
    return { opts, extensions: role.extensions };
  }
  const chosen = parser ?? DEFAULT_PARSER;
  // Without a role, the parser may say which built-in schema its answers follow (v2-headers: v2-result).
  const schemaName = typeof args.schema === 'string' ? args.schema : (registry.get('parser', chosen).defaultSchema ?? GENERIC_SCHEMA);
  return { opts: { registry, schema: loadOutputSchema(schemaName, { baseDir: ctx.deps.cwd }), parser: chosen, legacy }, extensions: {} };
}

/** The adapter's request, as a run would make it: the role's extensions, the schema only when the CLI takes one. */
async function extractRequest(adapter: AdapterPlugin, setup: ParseSetup, scratchDir: string, ctx: CliContext): Promise<CommandRequest> {
  const { schema, role } = setup.opts;
  let outputSchema: CommandRequest['outputSchema'];
  if (adapter.acceptsOutputSchema) {
    const file = join(scratchDir, 'output-schema.json');
    await writeFile(file, `${JSON.stringify(schema.schema, null, 2)}\n`);
    outputSchema = { name: schema.name, schema: schema.schema, file };
  }
  const roleView = { name: role?.name ?? 'parse', baseRole: role?.baseRole ?? null, extensions: setup.extensions };
  return bareRequest({ prompt: '', cwd: ctx.repoRoot, scratchDir, role: roleView, ...(outputSchema ? { outputSchema } : {}) });
}

async function extract(adapterName: string, stdout: string, setup: ParseSetup, ctx: CliContext): Promise<Extraction> {
  const adapter = setup.opts.registry.get('adapter', adapterName);
  const scratchDir = await mkdtemp(join(tmpdir(), 'sv-parse-'));
  const result: ProcessResult = {
    stdout,
    stderr: '',
    exitCode: 0,
    signal: null,
    durationMs: 0,
    timedOut: false,
    interrupted: false,
    truncated: { stdout: false, stderr: false },
  };
  try {
    const request = await extractRequest(adapter, setup, scratchDir, ctx);
    return await callHook(adapter, 'extract', () =>
      adapter.extract(result, request, { env: ctx.deps.env, self: selfCommand(), notice: (m) => ctx.warn(`notice: ${m}`) }),
    );
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

export async function runParse(args: Args, ctx: CliContext): Promise<number> {
  const input = await readInput(typeof args.file === 'string' ? args.file : undefined, ctx);
  const registry = await ctx.registry();
  const setup = await parseSetup(args, ctx, registry);
  let output: Record<string, unknown>;
  if (typeof args.cli === 'string') {
    const extraction = await extract(args.cli, input, setup, ctx);
    if (extraction.failure) throw outputErrors.cliReportedFailure(args.cli, extraction.failure);
    output = parseExtraction(extraction, { ...setup.opts, adapter: args.cli });
  } else {
    output = parseOutput(input, setup.opts);
  }
  ctx.out(JSON.stringify(output, null, 2));
  return 0;
}
