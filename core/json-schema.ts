/**
 * JSON Schema validation for the core (role files, output schemas), on @cfworker/json-schema:
 * every violation reported with its JSON pointer, and defaults applied on request.
 */
import { Validator, type Schema } from '@cfworker/json-schema';

export interface SchemaViolation {
  /** JSON pointer into the instance ("" for the root), e.g. "/context/token_budget". */
  pointer: string;
  message: string;
  keyword: string;
}

// Keywords that only say "something below failed"; the leaf errors say what.
const AGGREGATE_KEYWORDS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'false', 'patternProperties', 'additionalItems', 'contains', 'dependentSchemas', 'then', 'else', 'if']);

const validators = new WeakMap<object, Validator>();

function validatorFor(schema: Record<string, unknown>): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    const draft = String(schema.$schema ?? '').includes('2020-12') ? '2020-12' : String(schema.$schema ?? '').includes('2019-09') ? '2019-09' : '7';
    validator = new Validator(schema as unknown as Schema, draft, false);
    validators.set(schema, validator);
  }
  return validator;
}

/** One key as a JSON pointer token (RFC 6901): "~" → "~0", "/" → "~1". */
export function escapePointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** A JSON pointer token back to its key: "~1" → "/", then "~0" → "~". */
export function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

function toPointer(location: string): string {
  return location.replace(/^#/, '');
}

/**
 * A violation a person can act on: an unknown or a missing field is reported at the field's own
 * pointer ("/status"), not at the object holding it.
 */
function describeViolation(error: { instanceLocation: string; keyword: string; error: string }): SchemaViolation {
  const pointer = toPointer(error.instanceLocation);
  if (error.keyword === 'additionalProperties') {
    const field = /Property "(.*)" does not match/.exec(error.error)?.[1] ?? '?';
    return { pointer: `${pointer}/${escapePointerToken(field)}`, keyword: 'additionalProperties', message: `unknown field "${field}" (not allowed here)` };
  }
  const missing = error.keyword === 'required' ? /required property "(.*)"/.exec(error.error)?.[1] : undefined;
  if (missing !== undefined) return { pointer: `${pointer}/${escapePointerToken(missing)}`, keyword: 'required', message: `missing: ${missing} is required` };
  return { pointer, keyword: error.keyword, message: error.error };
}

/** Fills in `default`s of declared properties that are absent, recursively through objects. */
export function applyDefaults(schema: unknown, value: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return value;
  const s = schema as { properties?: Record<string, unknown>; items?: unknown };
  if (value && typeof value === 'object' && !Array.isArray(value) && s.properties) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [key, sub] of Object.entries(s.properties)) {
      const def = (sub as { default?: unknown } | null)?.default;
      if (!(key in out) && def !== undefined) out[key] = structuredClone(def);
      else if (key in out) out[key] = applyDefaults(sub, out[key]);
    }
    return out;
  }
  if (Array.isArray(value) && s.items && typeof s.items === 'object') return value.map((item) => applyDefaults(s.items, item));
  return value;
}

export interface ValidationOutcome {
  valid: boolean;
  violations: SchemaViolation[];
  /** The value with defaults applied (when asked). */
  value: unknown;
}

export function validateJson(schema: Record<string, unknown>, value: unknown, options: { defaults?: boolean } = {}): ValidationOutcome {
  const withDefaults = options.defaults ? applyDefaults(schema, value) : value;
  const result = validatorFor(schema).validate(withDefaults);
  const violations = result.errors.filter((e) => !AGGREGATE_KEYWORDS.has(e.keyword)).map(describeViolation);
  return { valid: result.valid, violations: result.valid ? [] : violations, value: withDefaults };
}

/** "  /a/b: message" lines for error messages. */
export function formatViolations(violations: SchemaViolation[]): string {
  return violations.map((v) => `${v.pointer || '(root)'}: ${v.message}`).join('; ');
}
