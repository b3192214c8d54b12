/**
 * Turns an output JSON Schema into what `_output_schema` shows the model: one line per field
 * (path, type, allowed values, required or not, default, description) and a filled-in example
 * built with exampleFromSchema. Local `$ref`s are inlined first (derefSchema, beside exampleFromSchema).
 */
import { derefSchema, exampleFromSchema } from '../plugin-api/schema-example.ts';

type Schema = Record<string, unknown>;

export interface SchemaField {
  /** Dotted path; array items as `[]`: "issues[].severity". */
  path: string;
  /** Nesting depth (0 for top-level fields), for indentation. */
  depth: number;
  /** "string", "array of strings", "integer or null", ... */
  type: string;
  required: boolean;
  /** Allowed values (enum/const), JSON-encoded; empty when any value of the type goes. */
  allowed: string[];
  /** The default, JSON-encoded, when the schema gives one. */
  default: string | null;
  description: string;
  /** Other constraints worth telling the model, as phrases: "must match /^a/", "must be at least 1". */
  constraints: string[];
  /** All of the above as one line of prose, for templates that just list fields. */
  summary: string;
}

export interface SchemaView {
  fields: SchemaField[];
  /** The example answer, pretty-printed JSON. */
  example: string;
  /** Whether fields other than the listed ones are accepted at the top level. */
  openObject: boolean;
}

const MAX_DEPTH = 6;

function plural(type: string): string {
  if (type === 'object') return 'objects';
  if (type === 'any') return 'values';
  return type.endsWith('s') ? type : `${type}s`;
}

function typeOf(schema: Schema): string {
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants?.length) return [...new Set(variants.map(typeOf))].join(' or ');
  const raw = schema.type ?? (schema.properties ? 'object' : undefined);
  const types = Array.isArray(raw) ? (raw as string[]) : raw ? [raw as string] : [];
  if (!types.length) return schema.enum || schema.const !== undefined ? 'value' : 'any';
  return types
    .map((t) => (t === 'array' ? `array of ${plural(schema.items ? typeOf(schema.items as Schema) : 'any')}` : t))
    .join(' or ');
}

function constraintsOf(schema: Schema): string[] {
  const out: string[] = [];
  if (typeof schema.pattern === 'string') out.push(`must match /${schema.pattern}/`);
  if (typeof schema.format === 'string') out.push(`must be in ${schema.format} format`);
  if (typeof schema.minimum === 'number') out.push(`must be at least ${schema.minimum}`);
  if (typeof schema.maximum === 'number') out.push(`must be at most ${schema.maximum}`);
  if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push(`must have at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`);
  if (typeof schema.minItems === 'number' && schema.minItems > 0) out.push(`must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (typeof schema.maxItems === 'number') out.push(`must have at most ${schema.maxItems} items`);
  return out;
}

function allowedOf(schema: Schema): string[] {
  if (schema.const !== undefined) return [JSON.stringify(schema.const)];
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v));
  return [];
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function summarise(field: Omit<SchemaField, 'summary'>): string {
  const notes = [
    field.description && sentence(field.description),
    field.allowed.length && `Allowed values: ${field.allowed.join(', ')}.`,
    field.constraints.length && sentence(capitalise(field.constraints.join('; '))),
    field.default !== null && `Default: ${field.default}.`,
  ].filter(Boolean);
  const head = `(${field.type}, ${field.required ? 'required' : 'optional'})`;
  return notes.length ? `${head}: ${notes.join(' ')}` : head;
}

function walk(schema: Schema, prefix: string, depth: number, out: SchemaField[]): void {
  if (depth >= MAX_DEPTH) return;
  const target = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array')) ? (schema.items as Schema | undefined) : schema;
  const itemPrefix = target === schema ? prefix : `${prefix}[]`;
  const properties = (target?.properties ?? {}) as Record<string, Schema>;
  const required = new Set((target?.required as string[] | undefined) ?? []);
  for (const [key, sub] of Object.entries(properties)) {
    const path = itemPrefix ? `${itemPrefix}.${key}` : key;
    const field = {
      path,
      depth,
      type: typeOf(sub),
      required: required.has(key),
      allowed: allowedOf(sub),
      default: sub.default === undefined ? null : JSON.stringify(sub.default),
      description: typeof sub.description === 'string' ? sub.description.trim().replace(/\s+/g, ' ') : '',
      constraints: constraintsOf(sub),
    };
    out.push({ ...field, summary: summarise(field) });
    walk(sub, path, depth + 1, out);
  }
}

/** The fields and example `_output_schema` renders for one schema. */
export function describeSchema(schema: Schema): SchemaView {
  const resolved = derefSchema(schema);
  const fields: SchemaField[] = [];
  walk(resolved, '', 0, fields);
  return {
    fields,
    example: JSON.stringify(exampleFromSchema(schema), null, 2),
    openObject: resolved.additionalProperties !== false,
  };
}
