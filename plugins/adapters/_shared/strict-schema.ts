/**
 * OpenAI's structured outputs (codex --output-schema) run in strict mode: every object lists all
 * its properties as required and forbids others, and keywords such as `default` are refused.
 * Optional properties therefore become required-but-nullable, and the model's nulls for them
 * are dropped again before validation against the role's own schema.
 */
type Schema = Record<string, unknown>;

const UNSUPPORTED = new Set(['default', 'examples', '$schema', 'minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'format']);

function allowsNull(schema: Schema): boolean {
  const type = schema.type;
  return type === 'null' || (Array.isArray(type) && type.includes('null')) || (Array.isArray(schema.anyOf) && schema.anyOf.some((s) => allowsNull(s as Schema)));
}

function nullable(schema: Schema): Schema {
  if (allowsNull(schema)) return schema;
  if (typeof schema.type === 'string' && !schema.enum) return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** A strict-mode copy of a JSON Schema. */
export function toStrictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toStrictSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (UNSUPPORTED.has(key)) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, toStrictSchema(v)]));
    } else out[key] = toStrictSchema(value);
  }
  if (out.properties && typeof out.properties === 'object') {
    const required = new Set((out.required as string[] | undefined) ?? []);
    const props = out.properties as Record<string, Schema>;
    for (const key of Object.keys(props)) if (!required.has(key)) props[key] = nullable(props[key]!);
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  return out;
}

/** Removes nulls the strict schema forced onto optional properties the original does not let be null. */
export function dropForcedNulls(value: unknown, schema: unknown): unknown {
  if (Array.isArray(value)) {
    const items = (schema as Schema | undefined)?.items;
    return value.map((item) => dropForcedNulls(item, items));
  }
  if (typeof value !== 'object' || value === null) return value;
  const props = ((schema as Schema | undefined)?.properties ?? {}) as Record<string, Schema>;
  const required = new Set(((schema as Schema | undefined)?.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Schema)) {
    const sub = props[key];
    if (item === null && sub && !required.has(key) && !allowsNull(sub)) continue;
    out[key] = dropForcedNulls(item, sub);
  }
  return out;
}
