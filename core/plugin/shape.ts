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
  command: fn,
  extract: fn,
});

const packerShape = v.looseObject({ kind: v.literal('packer'), ...identity, pack: fn });
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

const shapes = { adapter: adapterShape, packer: packerShape, parser: parserShape, 'plan-reader': planReaderShape } as const;

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

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing (no default export)';
  return typeof value;
}
