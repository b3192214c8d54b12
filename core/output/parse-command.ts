/** `supervisor parse`: raw CLI output → (adapter extract) → parser → validated JSON on stdout. */
import { roleLoadOptions } from '../roles/load-options.ts';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Args } from '../cli/command.ts';
import type { CliContext } from '../cli/context.ts';
import { readStream } from '../cli/text-arg.ts';
import { errors, wrapPluginError } from '../errors.ts';
import type { CommandRequest, Extraction, ProcessResult } from '../plugin/contracts.ts';
import type { Registry } from '../registry.ts';
import type { Role } from '../roles/role.ts';
import { selfCommand } from '../self-command.ts';
import { outputErrors } from './errors.ts';
import { wantsLegacyGrammar } from './legacy.ts';
import { parseExtraction } from './parse-extraction.ts';
import { DEFAULT_PARSER, parseOutput, type ParseOutputOptions } from './parse-output.ts';
import { GENERIC_SCHEMA, loadOutputSchema, resolveOutputSchema } from './schemas.ts';

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

/** The role through the roles loader (imported lazily: most parse calls need no role). */
async function loadRoleForParse(name: string, ctx: CliContext, registry: Registry): Promise<Role> {
  const { loadRole } = await import('../roles/load-role.ts');
  return loadRole(name, roleLoadOptions(registry, { repoRoot: ctx.repoRoot, homeDir: ctx.deps.homeDir }));
}

async function parseOptions(args: Args, ctx: CliContext, registry: Registry): Promise<ParseOutputOptions> {
  const parser = typeof args.parser === 'string' ? args.parser : undefined;
  const legacy = args.legacy === true;
  if (typeof args.role === 'string') {
    const role = await loadRoleForParse(args.role, ctx, registry);
    return {
      registry,
      schema: resolveOutputSchema(role),
      parser: parser ?? role.parser ?? DEFAULT_PARSER,
      role: { name: role.name, baseRole: role.base_role },
      legacy: legacy || wantsLegacyGrammar(role),
    };
  }
  const chosen = parser ?? DEFAULT_PARSER;
  const schemaName = typeof args.schema === 'string' ? args.schema : chosen === 'v2-headers' ? 'v2-result' : GENERIC_SCHEMA;
  return { registry, schema: loadOutputSchema(schemaName, { baseDir: ctx.deps.cwd }), parser: chosen, legacy };
}

async function extract(adapterName: string, stdout: string, opts: ParseOutputOptions, ctx: CliContext): Promise<Extraction> {
  const adapter = opts.registry.get('adapter', adapterName);
  const scratchDir = await mkdtemp(join(tmpdir(), 'sv-parse-'));
  const request: CommandRequest = {
    prompt: '',
    cwd: ctx.repoRoot,
    scratchDir,
    outputSchema: { name: opts.schema.name, schema: opts.schema.schema, file: opts.schema.file },
    instructionFiles: [],
    flags: [],
    config: {},
    allowEdits: false,
    stream: false,
    attempt: 1,
    role: { name: opts.role?.name ?? 'parse', baseRole: opts.role?.baseRole ?? null, extensions: {} },
  };
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
    return await adapter.extract(result, request, { env: ctx.deps.env, self: selfCommand(), notice: (m) => ctx.warn(`notice: ${m}`) });
  } catch (error) {
    throw wrapPluginError(adapterName, 'extract', error);
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

export async function runParse(args: Args, ctx: CliContext): Promise<number> {
  const input = await readInput(typeof args.file === 'string' ? args.file : undefined, ctx);
  const registry = await ctx.registry();
  const opts = await parseOptions(args, ctx, registry);
  let output: Record<string, unknown>;
  if (typeof args.cli === 'string') {
    const extraction = await extract(args.cli, input, opts, ctx);
    if (extraction.failure) throw outputErrors.cliReportedFailure(args.cli, extraction.failure);
    output = parseExtraction(extraction, { ...opts, adapter: args.cli });
  } else {
    output = parseOutput(input, opts);
  }
  ctx.out(JSON.stringify(output, null, 2));
  return 0;
}
