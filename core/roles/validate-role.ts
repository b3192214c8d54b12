/**
 * Post-merge validation: the merged role against schemas/role.schema.json, with `cli` (and
 * `parser`, `context.packers` when their names are known) limited to the registered plugins.
 * Every violation is kept, given a message a person can act on, and attributed to the file
 * that gave the field.
 */
import { readAsset } from '../assets.ts';
import { unescapePointerToken, validateJson, type SchemaViolation } from '../json-schema.ts';
import { SupervisorError } from '../errors.ts';
import { referenceViolations } from './check-references.ts';
import type { RoleViolation } from './errors.ts';
import { sourceOf, type MergedRole } from './merge.ts';
import { suggest } from '../text/suggest.ts';

/** Plugin names a role may use. */
export interface RolePluginNames {
  /** Registered adapter names: the only allowed values of `cli`. */
  adapters: string[];
  /** Registered parser names; when given, `parser` must be one of them. */
  parsers?: string[];
  /** Registered packer names; when given, `context.packers` entries must be among them. */
  packers?: string[];
  /** `config` keys the registered adapters read; when given, other keys the core does not know are reported. */
  configKeys?: string[];
  /** `context` keys the registered packers read; when given, other keys the core does not know are reported. */
  contextKeys?: string[];
}

/** What post-merge validation needs: the plugin names, and where the repository's own files are. */
export interface RoleCheckOptions extends RolePluginNames {
  repoRoot: string;
  /**
   * Also check that the template exists and that an output schema file loads as a JSON Schema
   * (the `roles` commands ask for this; a run meets those problems, with their own error codes,
   * when it builds the prompt and reads the answer).
   */
  checkReferences?: boolean;
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
function roleSchema(names: RolePluginNames): Json {
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
function knownRoleFields(): string[] {
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
export function roleViolations(merged: MergedRole, leaf: { name: string; path: string }, names: RoleCheckOptions): RoleViolation[] {
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
  violations.push(...unknownKeyViolations(merged, leaf, names));
  violations.push(...referenceViolations(merged, leaf.path, names));
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

/**
 * Keys of `config` and `context` that nothing reads (`max_retry`, `timout`, `includes`): the
 * core's keys are the schema's, the rest are those the plugins declare; `x-` keys pass.
 */
function unknownKeyViolations(merged: MergedRole, leaf: { path: string }, names: RoleCheckOptions): RoleViolation[] {
  const out: RoleViolation[] = [];
  const props = loadBaseSchema().properties as Record<string, Json>;
  for (const [field, pluginKeys, declaredBy] of [
    ['config', names.configKeys, 'adapter plugins (configKeys)'],
    ['context', names.contextKeys, 'packer plugins (contextKeys)'],
  ] as const) {
    const value = merged.config[field];
    if (pluginKeys === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const known = [...Object.keys((props[field]!.properties as Json) ?? {}), ...pluginKeys];
    for (const key of Object.keys(value)) {
      if (known.includes(key) || key.startsWith('x-')) continue;
      const pointer = `/${field}/${key}`;
      out.push({
        pointer,
        keyword: 'unknownKey',
        message: `unknown ${field} key "${key}"${suggest(key, known)} (known: ${[...new Set(known)].sort().join(', ')}; keys are declared by the core and by ${declaredBy}; prefix your own with x-)`,
        file: sourceOf(merged, pointer, leaf.path),
      });
    }
  }
  return out;
}
