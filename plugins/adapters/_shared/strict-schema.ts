/**
 * OpenAI's structured outputs (codex --output-schema) run in strict mode: every object lists all
 * its properties as required and forbids others, and keywords such as `default` are refused.
 * Optional properties therefore become required-but-nullable, and the model's nulls for them
 * are dropped again before validation against the role's own schema.
 */
type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

const UNSUPPORTED = new Set(['default', 'examples', '$schema', 'minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'format']);

function allowsNull(schema: Schema): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  return [schema.anyOf, schema.oneOf].some((list) => Array.isArray(list) && list.some((s) => allowsNull(s as Schema)));
}

function nullable(schema: Schema): Schema {
  if (allowsNull(schema)) return schema;
  if (typeof schema.type === 'string' && !schema.enum) return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'];
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions'];

/**
 * An object strict mode cannot describe: no `properties` to list, or keys beyond them allowed
 * (`additionalProperties: true` or a schema, `patternProperties`): a free-form map.
 */
function isFreeForm(schema: Schema): boolean {
  const type = schema.type;
  const objectTyped = type === 'object' || (Array.isArray(type) && type.includes('object')) || schema.properties !== undefined;
  if (!objectTyped) return false;
  return !isSchema(schema.properties) || schema.additionalProperties === true || isSchema(schema.additionalProperties) || schema.patternProperties !== undefined;
}

/** Whether a free-form object is left anywhere in the schema (properties, items, members, $defs). */
function hasFreeForm(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasFreeForm);
  if (!isSchema(schema)) return false;
  if (isFreeForm(schema)) return true;
  if (hasFreeForm(schema.items)) return true;
  if (SUBSCHEMA_LISTS.some((key) => hasFreeForm(schema[key]))) return true;
  return SUBSCHEMA_MAPS.some((key) => isSchema(schema[key]) && Object.values(schema[key] as Schema).some(hasFreeForm));
}

/** Leaves out optional properties that are (or hold) free-form maps, at every depth. */
function withoutOptionalFreeForm(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutOptionalFreeForm);
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value)) {
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const kept = Object.entries(value).filter(([name, sub]) => required.has(name) || !hasFreeForm(sub));
      out.properties = Object.fromEntries(kept.map(([name, sub]) => [name, withoutOptionalFreeForm(sub)]));
    } else if (SUBSCHEMA_MAPS.includes(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutOptionalFreeForm(sub)]));
    } else if (key === 'items' || SUBSCHEMA_LISTS.includes(key)) out[key] = withoutOptionalFreeForm(value);
    else out[key] = value;
  }
  return out;
}

/**
 * The schema to hand a strict-mode CLI, or undefined when strict mode cannot express it.
 * Optional free-form maps (v2's parser-set `extra_headers`, a plan's free-form dependencies) are
 * left out: the model may not fill them in strict mode, and the role's own schema, which the
 * answer is validated against, still allows them. A schema that needs a free-form object (the
 * generic schema's open root) is not handed over: the prompt's answer format stays the contract.
 */
export function strictSchemaFor(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const pruned = withoutOptionalFreeForm(schema);
  if (hasFreeForm(pruned)) return undefined;
  return toStrictSchema(pruned) as Record<string, unknown>;
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


/** The schema `$ref` points at inside `root` ("#/$defs/x", "#/definitions/x"), or undefined. */
function resolveRef(ref: unknown, root: Schema): Schema | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) node = isSchema(node) ? node[token.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isSchema(node) ? node : undefined;
}

/**
 * A schema and every alternative it stands for: its `$ref` target and the members of its
 * anyOf / oneOf / allOf, recursively (toStrictSchema rewrites all of them, $defs included).
 */
function alternatives(schema: unknown, root: Schema, seen = new Set<Schema>()): Schema[] {
  if (!isSchema(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const out = [schema, ...alternatives(resolveRef(schema.$ref, root), root, seen)];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const member of list) out.push(...alternatives(member, root, seen));
  }
  return out;
}

/** The alternative an object value was written for: strict mode names all its keys in `properties`. */
function objectSchema(value: Schema, schema: unknown, root: Schema): Schema | undefined {
  const keys = Object.keys(value);
  const withProps = alternatives(schema, root).filter((s) => isSchema(s.properties));
  return withProps.find((s) => keys.every((k) => k in (s.properties as Schema))) ?? withProps[0];
}

function dropIn(value: unknown, schema: unknown, root: Schema): unknown {
  if (Array.isArray(value)) {
    const items = alternatives(schema, root).find((s) => s.items !== undefined)?.items;
    return value.map((item) => dropIn(item, items, root));
  }
  if (!isSchema(value)) return value;
  const chosen = objectSchema(value, schema, root);
  const props = (chosen?.properties ?? {}) as Record<string, unknown>;
  const required = new Set((chosen?.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const sub = props[key];
    if (item === null && isSchema(sub) && !required.has(key) && !alternatives(sub, root).some(allowsNull)) continue;
    out[key] = dropIn(item, sub, root);
  }
  return out;
}

/**
 * Removes nulls the strict schema forced onto optional properties the original does not let be
 * null. Walks the structure toStrictSchema rewrites: properties, items, anyOf / oneOf / allOf
 * members and `$ref`s into `$defs` / `definitions`.
 */
export function dropForcedNulls(value: unknown, schema: unknown): unknown {
  return dropIn(value, schema, isSchema(schema) ? schema : {});
}
