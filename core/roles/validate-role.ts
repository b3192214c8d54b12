/**
 * Post-merge validation: the merged role against schemas/role.schema.json, with `cli` (and
 * `parser`, `context.packers` when their names are known) limited to the registered plugins.
 * Every violation is kept, given a message a person can act on, and attributed to the file
 * that gave the field.
 */
import { readAsset } from '../assets.ts';
import { unescapePointerToken, validateJson, type SchemaViolation } from '../json-schema.ts';
import { SupervisorError } from '../errors.ts';
import { listOutputSchemas } from '../output/schemas.ts';
import type { RoleViolation } from './errors.ts';
import { isSchemaPath } from './pre-merge.ts';
import { sourceOf, type MergedRole } from './merge.ts';

/** Plugin names a role may use. */
export interface RolePluginNames {
  /** Registered adapter names: the only allowed values of `cli`. */
  adapters: string[];
  /** Registered parser names; when given, `parser` must be one of them. */
  parsers?: string[];
  /** Registered packer names; when given, `context.packers` entries must be among them. */
  packers?: string[];
}

type Json = Record<string, unknown>;
let baseSchema: Json | undefined;
const schemas = new Map<string, Json>();

function loadBaseSchema(): Json {
  if (baseSchema) return baseSchema;
  const asset = readAsset('schemas/role.schema.json');
  if (!asset) throw new SupervisorError('INTERNAL', 'The role schema schemas/role.schema.json is missing from this build');
  baseSchema = JSON.parse(asset.content) as Json;
  return baseSchema;
}

/** The role schema with the plugin-name enums filled in (cached per set of names). */
export function roleSchema(names: RolePluginNames): Json {
  const key = JSON.stringify([names.adapters, names.parsers ?? null, names.packers ?? null]);
  const cached = schemas.get(key);
  if (cached) return cached;
  const schema = structuredClone(loadBaseSchema());
  const props = schema.properties as Record<string, Json>;
  props.cli!.enum = [...names.adapters];
  if (names.parsers) props.parser!.enum = [...names.parsers];
  if (names.packers) ((props.context!.properties as Record<string, Json>).packers!.items as Json).enum = [...names.packers];
  schemas.set(key, schema);
  return schema;
}

/** Top-level fields a role file may hold (for "did you mean" hints). */
export function knownRoleFields(): string[] {
  return [...Object.keys((loadBaseSchema().properties as Json) ?? {}), 'system_prompt_additions'];
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Json)[unescapePointerToken(part)];
  }
  return value;
}

/** Edit distance counting a swap of neighbours as one edit ("reveiw" is one edit from "review"). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

function suggest(field: string, known: string[]): string {
  const close = known.filter((k) => distance(field.toLowerCase(), k) <= (k.length <= 4 ? 1 : 2));
  return close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
}

const TYPE_WORDS: Record<string, string> = { object: 'a mapping', array: 'a list', integer: 'a whole number', number: 'a number', string: 'a string', boolean: 'true or false', null: 'empty' };
const word = (type: string) => TYPE_WORDS[type] ?? type;

function enumMessage(pointer: string, value: unknown, names: RolePluginNames): string | undefined {
  const list = (kind: string, known: string[] | undefined) =>
    known && known.length ? `${JSON.stringify(value)} is not a registered ${kind}; registered: ${known.join(', ')}` : `${JSON.stringify(value)} is not a registered ${kind} (no ${kind} plugins are loaded)`;
  if (pointer === '/cli') return `${list('adapter', names.adapters)}. Add an adapter plugin to use another CLI.`;
  if (pointer === '/parser') return list('parser', names.parsers);
  if (/^\/context\/packers\/\d+$/.test(pointer)) return list('packer', names.packers);
  return undefined;
}

function describe(v: SchemaViolation, config: Json, names: RolePluginNames, parentField: string): string {
  const value = valueAt(config, v.pointer);
  switch (v.keyword) {
    case 'type': {
      const [, actual = '?', expected = '?'] = /type "(\w+)" is invalid\. Expected "(\w+)"/.exec(v.message) ?? [];
      return `must be ${word(expected)}, not ${word(actual)}`;
    }
    case 'enum':
      return enumMessage(v.pointer, value, names) ?? v.message;
    case 'minimum':
      return `must be at least ${/less than (\S+?)\.?$/.exec(v.message)?.[1] ?? '?'} (got ${JSON.stringify(value)})`;
    case 'maximum':
      return `must be at most ${/greater than (\S+?)\.?$/.exec(v.message)?.[1] ?? '?'} (got ${JSON.stringify(value)})`;
    case 'exclusiveMinimum':
      return `must be greater than ${/less than (\S+?)\.?$/.exec(v.message)?.[1] ?? '?'} (got ${JSON.stringify(value)})`;
    case 'pattern':
      return `${JSON.stringify(value)} is not a valid name: start with a letter and use only letters, digits, "-" and "_"`;
    case 'minLength':
      return 'must not be empty';
    case 'additionalProperties':
      return parentField === '' ? `${v.message}${suggest(v.pointer.slice(1), knownRoleFields())}` : v.message;
    default:
      return v.message;
  }
}

/** Every problem of a merged role, attributed to files; empty when the role is valid. */
export function roleViolations(merged: MergedRole, leaf: { name: string; path: string }, names: RolePluginNames): RoleViolation[] {
  const outcome = validateJson(roleSchema(names), merged.config);
  // A value of the wrong type fails its enum and pattern too; the type is the one to report.
  const wrongType = new Set(outcome.violations.filter((v) => v.keyword === 'type').map((v) => v.pointer));
  const relevant = outcome.violations.filter((v) => v.keyword === 'type' || !wrongType.has(v.pointer));
  const violations: RoleViolation[] = relevant.map((v) => {
    const parent = v.pointer.slice(0, v.pointer.lastIndexOf('/'));
    let message = describe(v, merged.config, names, parent);
    if (v.pointer === '/system_prompt' && v.keyword === 'required' && merged.orphanAdditions) {
      message += ` (system_prompt_additions in ${merged.orphanAdditions} needs a system_prompt to add to: give one, or extend a role that has one)`;
    }
    return { pointer: v.pointer, keyword: v.keyword, message, file: sourceOf(merged, v.pointer, leaf.path) };
  });
  const schema = merged.config.output_schema;
  const known = listOutputSchemas();
  if (typeof schema === 'string' && schema !== '' && !isSchemaPath(schema) && known.length && !known.includes(schema)) {
    violations.push({
      pointer: '/output_schema',
      keyword: 'output_schema',
      message: `"${schema}" is not a built-in output schema (built-in: ${known.join(', ')}); to use your own, give the path of a .json file${suggest(schema, known)}`,
      file: sourceOf(merged, '/output_schema', leaf.path),
    });
  }
  const name = merged.config.name;
  if (typeof name === 'string' && name !== leaf.name) {
    violations.push({
      pointer: '/name',
      keyword: 'name',
      message: `"${name}" does not match the file name; a role is named after its file, so this one must say name: ${leaf.name}`,
      file: sourceOf(merged, '/name', leaf.path),
    });
  }
  return violations;
}
