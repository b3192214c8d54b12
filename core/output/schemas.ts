/**
 * Output schemas: the JSON Schema files of schemas/ (read through the assets, so they work in
 * the binary) or a user's file, and which one a role's answer is validated against.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { listAssets, readAsset } from '../assets.ts';
import { errors } from '../errors.ts';
import { outputErrors } from './errors.ts';

export interface OutputSchema {
  /** "review", "generic", ... or the file's stem for a user schema. */
  name: string;
  /** The JSON Schema. Shared between callers: treat it as read-only. */
  schema: Record<string, unknown>;
  /** What to show users as the file (a built-in's Asset.displayPath, or the absolute path). */
  file: string;
}

/**
 * Which built-in schema answers for a role with no output_schema, by the role's name or its
 * base_role (seed 001). The built-in roles name theirs; this serves users' roles that take a
 * base role's name (an override of `planner` in .supervisor/roles, say) without naming one.
 */
const ROLE_SCHEMAS: Readonly<Record<string, string>> = Object.freeze({
  planner: 'plan',
  implementer: 'implementation',
  reviewer: 'review',
  worker: 'v2-result',
  'spec-reviewer': 'v2-result',
  'code-quality-reviewer': 'v2-result',
});

/** The schema for roles with no schema of their own and no known name or base role. */
export const GENERIC_SCHEMA = 'generic';

const builtins = new Map<string, OutputSchema>();

/** Names of the built-in output schemas (schemas/*.json, not the *.schema.json config schemas). */
export function listOutputSchemas(): string[] {
  return listAssets('schemas')
    .map((asset) => asset.slice('schemas/'.length))
    .filter((file) => file.endsWith('.json') && !file.endsWith('.schema.json'))
    .map((file) => file.slice(0, -'.json'.length));
}

/**
 * An output schema value is a path (not a built-in name) when it has a folder part or a .json
 * ending. The one rule for this (core/roles/pre-merge.ts keeps a copy, isSchemaPath).
 */
export function isSchemaPath(nameOrPath: string): boolean {
  return /[\\/]/.test(nameOrPath) || /\.json$/i.test(nameOrPath);
}

function parseSchema(content: string, file: string): Record<string, unknown> {
  let schema: unknown;
  try {
    schema = JSON.parse(content);
  } catch (cause) {
    throw outputErrors.schemaInvalid(file, `not valid JSON (${(cause as Error).message})`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw outputErrors.schemaInvalid(file, 'the top level must be a JSON object');
  }
  const type = (schema as { type?: unknown }).type;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    throw outputErrors.schemaInvalid(file, `it describes ${JSON.stringify(type)}, but an answer must be a JSON object`);
  }
  return schema as Record<string, unknown>;
}

function loadBuiltin(name: string): OutputSchema {
  const cached = builtins.get(name);
  if (cached) return cached;
  const known = listOutputSchemas();
  const asset = known.includes(name) ? readAsset(`schemas/${name}.json`) : undefined;
  if (!asset) throw outputErrors.schemaNotFound(name, known);
  const loaded = { name, schema: parseSchema(asset.content, asset.displayPath), file: asset.displayPath };
  builtins.set(name, loaded);
  return loaded;
}

/**
 * Loads an output schema by built-in name ("review") or by path (absolute, or relative to
 * baseDir; anything with a slash or ending in .json is a path). User files are read each time.
 */
export function loadOutputSchema(nameOrPath: string, opts: { baseDir: string }): OutputSchema {
  if (!isSchemaPath(nameOrPath)) return loadBuiltin(nameOrPath);
  const file = resolve(opts.baseDir, nameOrPath);
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (cause) {
    throw errors.fileRead(file, cause);
  }
  return { name: basename(file).replace(/\.json$/i, ''), schema: parseSchema(content, file), file };
}

/**
 * The schema a role's answer is validated against: the role's own `output_schema`, else the
 * built-in for its name, else the one for its base_role, else generic (so unknown and overlay
 * roles are still validated). Loaded roles hold absolute schema paths; a relative one is taken
 * relative to the role's file, and a role without a file must give an absolute path.
 */
/** What of a role chooses its output schema (a Role has these fields). */
export interface SchemaOwner {
  name: string;
  base_role: string | null;
  output_schema: string | null;
  file: string;
}

export function resolveOutputSchema(role: SchemaOwner): OutputSchema {
  const own = role.output_schema;
  if (own) {
    if (isSchemaPath(own) && !isAbsolute(own) && !role.file) {
      throw outputErrors.schemaInvalid(own, `a relative path, but role "${role.name}" has no file it could be relative to`);
    }
    return loadOutputSchema(own, { baseDir: role.file ? dirname(role.file) : '/' });
  }
  const byName = Object.hasOwn(ROLE_SCHEMAS, role.name) ? ROLE_SCHEMAS[role.name] : undefined;
  const byBase = role.base_role && Object.hasOwn(ROLE_SCHEMAS, role.base_role) ? ROLE_SCHEMAS[role.base_role] : undefined;
  return loadBuiltin(byName ?? byBase ?? GENERIC_SCHEMA);
}
