/** Model text → validated object, through the parser plugin the role (or the caller) names. */
import { errors } from '../errors.ts';
import { callHookSync } from '../plugins/call-hook.ts';
import type { ParserContext } from '../plugin-api/contracts.ts';
import type { Registry } from '../registry.ts';
import type { OutputSchema } from './schemas.ts';
import { validateOutput } from './validate-output.ts';

/** The parser used when a role names none. */
export const DEFAULT_PARSER = 'fenced-json';

export interface ParseOutputOptions {
  registry: Registry;
  /** Parser plugin name; default fenced-json. */
  parser?: string;
  schema: OutputSchema;
  role?: { name: string; baseRole: string | null };
  /** Recognise the legacy free-text grammar too (v2-headers). */
  legacy?: boolean;
}

/** What a ParserContext is made of. */
export type ParserContextOptions = Pick<ParseOutputOptions, 'schema' | 'role' | 'legacy'> & { schemaInPrompt?: boolean };

/**
 * The one ParserContext factory (parse, format instructions): `validate` is validateOutput
 * (defaults applied, OUTPUT_INVALID listing every violation, hostile values refused). Objects
 * it returns are added to `validated` when given.
 */
export function parserContext(opts: ParserContextOptions, validated?: WeakSet<object>): ParserContext {
  return {
    schemaName: opts.schema.name,
    schema: opts.schema.schema,
    validate: (value) => {
      const checked = validateOutput(opts.schema, value);
      validated?.add(checked);
      return checked;
    },
    ...(opts.role ? { role: opts.role } : {}),
    legacy: opts.legacy ?? false,
    ...(opts.schemaInPrompt === undefined ? {} : { schemaInPrompt: opts.schemaInPrompt }),
  };
}

/**
 * Parses model text with the parser plugin and returns the validated object. Throws
 * PARSE_NO_JSON / PARSE_INVALID_JSON / PARSE_UNRECOGNISED / OUTPUT_INVALID SupervisorErrors;
 * anything else a parser throws is wrapped once as PLUGIN_HOOK naming the parser. Whatever the
 * parser returns is validated unless it is the object ctx.validate returned.
 */
export function parseOutput(text: string, opts: ParseOutputOptions): Record<string, unknown> {
  const name = opts.parser ?? DEFAULT_PARSER;
  const parser = opts.registry.get('parser', name);
  const validated = new WeakSet<object>();
  const ctx = parserContext(opts, validated);
  // The result is checked against the schema below, so only the call itself is guarded here.
  const result: unknown = callHookSync(parser, 'parse', () => parser.parse(text, ctx), { checkResult: false });
  if (result instanceof Promise) {
    result.catch(() => {});
    throw errors.pluginHook(name, 'parse', new Error('returned a Promise; parse must return the object synchronously'));
  }
  // The core guarantees a schema-valid object whatever a (user's) parser returned; the very
  // object ctx.validate handed back needs no second pass (it matters for multi-MiB answers).
  if (typeof result === 'object' && result !== null && validated.has(result)) return result as Record<string, unknown>;
  return validateOutput(opts.schema, result);
}
