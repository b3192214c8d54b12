/**
 * Builds a filled-in example value from a JSON Schema: the first enum value, the default, or a
 * placeholder of the right type; required properties always, optional ones too. Used to show
 * the model a valid answer and by adapters that answer offline. Local `$ref`s
 * (#/$defs/..., #/definitions/..., #) are resolved against the root schema.
 */
type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  minimum?: number;
  format?: string;
};

/** Nesting of `$ref`s followed before a recursive schema is cut short. */
const MAX_REF_DEPTH = 12;

/** The schema a local `$ref` ("#/$defs/x", "#") points at, or undefined (remote or broken refs). */
function refTarget(ref: string, root: unknown): Record<string, unknown> | undefined {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  const keys = ref === '#' ? [] : ref.slice(2).split('/').map((key) => decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~'));
  const target = keys.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), root);
  return target && typeof target === 'object' && !Array.isArray(target) ? (target as Record<string, unknown>) : undefined;
}

/** The schema with a top-level local `$ref` replaced by its target (siblings of the ref win). */
function followRef(schema: Record<string, unknown>, root: unknown): Record<string, unknown> {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < MAX_REF_DEPTH; hops++) {
    const target = refTarget(current.$ref, root);
    if (!target) return current;
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

/** Inlines local `$ref`s throughout a schema (for readers that walk it); cycles stop after MAX_REF_DEPTH. */
export function derefSchema(schema: Record<string, unknown>, root: Record<string, unknown> = schema, depth = 0): Record<string, unknown> {
  if (depth > MAX_REF_DEPTH) return {};
  const resolved = followRef(schema, root);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resolved)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, Record<string, unknown>>).map(([k, v]) => [k, derefSchema(v, root, depth + 1)]));
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = derefSchema(value as Record<string, unknown>, root, depth + 1);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((v) => derefSchema(v as Record<string, unknown>, root, depth + 1));
    } else if (key !== '$defs' && key !== 'definitions') {
      out[key] = value;
    }
  }
  return out;
}

/** Marks a value left out: it would only repeat a `$ref` already being expanded (a cycle). */
const OMIT = Symbol('omit');

/** `refs`: the `$ref`s being expanded on the way here, so a recursive schema stops at its first repeat. */
function build(schema: unknown, name: string, root: unknown, refs: readonly string[]): unknown {
  const raw = (schema ?? {}) as Record<string, unknown>;
  const ref = typeof raw.$ref === 'string' ? raw.$ref : undefined;
  if (ref !== undefined && refs.includes(ref)) return OMIT;
  const inner = ref === undefined ? refs : [...refs, ref];
  const s = followRef(raw, root) as JsonSchema;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined && !(Array.isArray(s.default) && s.default.length === 0)) return s.default;
  const variant = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (variant) return build(variant, name, root, inner);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(s.properties ?? {})) {
        const value = build(sub, key, root, inner);
        if (value !== OMIT) out[key] = value;
      }
      return out;
    }
    case 'array': {
      const item = s.items ? build(s.items, name, root, inner) : OMIT;
      return item === OMIT ? [] : [item];
    }
    case 'integer':
    case 'number':
      return s.minimum !== undefined && s.minimum > 1 ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return s.format === 'uri' ? 'file:///path/to/file' : `<${name}>`;
    default:
      return `<${name}>`;
  }
}

/** An example value for `schema`; `$ref`s resolve against `schema` itself (the root). */
export function exampleFromSchema(schema: unknown, name = 'value'): unknown {
  const value = build(schema, name, schema, []);
  return value === OMIT ? {} : value;
}
