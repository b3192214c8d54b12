/** Valibot shapes of plugin values: a plugin's default export is untrusted until it passes. */
import * as v from 'valibot';
import { PLUGIN_KINDS, type Plugin } from './contracts.ts';

const fn = v.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'a function');
/** A plugin name: letters, digits, "-" or "_", starting with a letter. */
export const PLUGIN_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]*$/;
const name = v.pipe(v.string(), v.regex(PLUGIN_NAME_PATTERN, 'letters, digits, "-" or "_", starting with a letter'));

const identity = {
  name,
  description: v.optional(v.string()),
};

const adapterShape = v.looseObject({
  kind: v.literal('adapter'),
  ...identity,
  bin: v.pipe(v.string(), v.minLength(1)),
  selfHosted: v.optional(v.boolean()),
  versionArgs: v.optional(v.array(v.string())),
  instructions: v.optional(v.picklist(['prompt', 'argument'])),
  acceptsOutputSchema: v.optional(v.boolean()),
  acceptsBudget: v.optional(v.boolean()),
  quietEnv: v.optional(v.record(v.string(), v.string())),
  configKeys: v.optional(v.array(v.string())),
  commandPermissions: v.optional(v.picklist(['list', 'all-or-none'])),
  installed: v.optional(fn),
  access: v.optional(
    v.object({
      hosts: v.optional(v.array(v.pipe(v.string(), v.regex(/^[^\s:]+:\d+$/, 'a "host:port" entry')))),
      baseUrlEnv: v.optional(v.array(v.string())),
      config: v.optional(v.array(v.object({ path: v.pipe(v.string(), v.minLength(1)), env: v.optional(v.string()), under: v.optional(v.string()), mode: v.optional(v.picklist(['bind', 'copy'])) }))),
      env: v.optional(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, 'a variable name, or a prefix ending in "*"')))),
      secrets: v.optional(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name')))),
    }),
  ),
  command: fn,
  extract: fn,
});

const packerShape = v.looseObject({ kind: v.literal('packer'), ...identity, contextKeys: v.optional(v.array(v.string())), pack: fn });
const parserShape = v.looseObject({
  kind: v.literal('parser'),
  ...identity,
  parse: fn,
  formatInstructions: v.optional(fn),
  exampleAnswer: v.optional(fn),
  defaultSchema: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]+$/, 'the name of a built-in output schema'))),
});

const planReaderShape = v.looseObject({
  kind: v.literal('plan-reader'),
  ...identity,
  extensions: v.optional(v.array(v.pipe(v.string(), v.regex(/^\.[^\\/]+$/, 'a file name ending that starts with "." (".yaml")')))),
  detect: v.optional(fn),
  read: fn,
});

const sandboxShape = v.looseObject({ kind: v.literal('sandbox'), ...identity, available: fn, wrap: fn, ahead: v.optional(fn) });

const shapes = { adapter: adapterShape, packer: packerShape, parser: parserShape, 'plan-reader': planReaderShape, sandbox: sandboxShape } as const;

export type ShapeCheck =
  | { ok: true; plugin: Plugin }
  | { ok: false; unknownKind: true; kind: unknown }
  | { ok: false; unknownKind: false; problems: string[] };

/** Checks a loaded value; on failure lists each wrong field as "path: expected ...". */
export function checkPluginShape(value: unknown): ShapeCheck {
  if (typeof value !== 'object' || value === null) {
    return { ok: false, unknownKind: false, problems: [`default export: expected an object from definePlugin(...), got ${describeValue(value)}`] };
  }
  const kind = (value as { kind?: unknown }).kind;
  if (!(PLUGIN_KINDS as readonly unknown[]).includes(kind)) return { ok: false, unknownKind: true, kind };
  const result = v.safeParse(shapes[kind as keyof typeof shapes], value);
  if (result.success) return { ok: true, plugin: value as Plugin };
  return {
    ok: false,
    unknownKind: false,
    problems: result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`),
  };
}

// ---- what hooks return: checked at the one place each hook is called (core/plugins/call-hook.ts)

const stringList = v.array(v.string());
const nullableNumber = v.nullable(v.number());

const commandSpecShape = v.looseObject({
  bin: v.optional(v.pipe(v.string(), v.minLength(1))),
  args: stringList,
  stdin: v.optional(v.string()),
  env: v.optional(v.record(v.string(), v.string())),
});

const metricsShape = v.looseObject({
  inputTokens: nullableNumber,
  outputTokens: nullableNumber,
  cachedTokens: nullableNumber,
  costUsd: nullableNumber,
  durationMs: nullableNumber,
  turns: nullableNumber,
  sessionId: v.nullable(v.string()),
  model: v.nullable(v.string()),
});

const extractionShape = v.looseObject({
  text: v.nullable(v.string()),
  structured: v.optional(v.unknown()),
  alternates: v.optional(stringList),
  metrics: metricsShape,
  failure: v.optional(
    v.looseObject({
      // Any failure class word: the engine maps the ones it knows and reports the rest as they are.
      class: v.pipe(v.string(), v.regex(/^[a-z][a-z_]*$/, 'a failure class such as "nonzero_exit"')),
      detail: v.string(),
      httpStatus: v.optional(v.number()),
      retryable: v.optional(v.boolean()),
    }),
  ),
});

const packResultShape = v.looseObject({
  parts: v.optional(v.array(v.looseObject({ key: v.pipe(v.string(), v.minLength(1)), content: v.string(), files: v.optional(stringList) }))),
  notices: v.optional(stringList),
  warnings: v.optional(stringList),
});

const parsedShape = v.record(v.string(), v.unknown());

const availabilityShape = v.variant('ok', [
  v.looseObject({ ok: v.literal(true), detail: v.optional(v.string()) }),
  v.looseObject({ ok: v.literal(false), missing: v.string(), hint: v.string() }),
]);

const sandboxedShape = v.looseObject({
  bin: v.pipe(v.string(), v.minLength(1)),
  args: stringList,
  env: v.record(v.string(), v.optional(v.string())),
  teardown: v.optional(fn),
});

/**
 * The shape each hook must return, by "kind.hook"; hooks not listed here are not checked. A new
 * plugin kind adds its hooks here, and core/plugins/call-hook.ts checks them with no more code.
 */
export const HOOK_RESULT_SHAPES: Readonly<Record<string, v.GenericSchema>> = {
  'adapter.command': commandSpecShape,
  'adapter.extract': extractionShape,
  'adapter.installed': availabilityShape,
  'packer.pack': packResultShape,
  'parser.parse': parsedShape,
  'parser.formatInstructions': v.string(),
  'sandbox.available': availabilityShape,
  'sandbox.wrap': sandboxedShape,
  // A returned closure is a hook too: `teardown` settles with nothing (Promise<void>).
  'sandbox.teardown': v.undefined(),
  'sandbox.ahead': v.optional(v.looseObject({ release: fn })),
  'sandbox.release': v.undefined(),
  'plan-reader.detect': v.boolean(),
};

/** Problems with what a hook of a plugin kind returned, each as "field: expected ..., got ..."; empty when it is right. */
export function checkHookResult(kind: string, hook: string, value: unknown): string[] {
  const shape = HOOK_RESULT_SHAPES[`${kind}.${hook}`];
  if (!shape) return [];
  const result = v.safeParse(shape, value);
  if (result.success) return [];
  return result.issues.map((issue) => `${v.getDotPath(issue) ?? '(the value returned)'}: ${issue.message}`);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing (no default export)';
  return typeof value;
}
