/** Validation of a parsed answer against its output schema: defaults applied, every violation listed. */
import { errors } from '../errors.ts';
import { formatViolations, validateJson, type SchemaViolation } from '../json-schema.ts';
import type { OutputSchema } from './schemas.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** OUTPUT_INVALID naming the schema and listing every violation with its JSON pointer. */
function outputInvalid(schema: Pick<OutputSchema, 'name' | 'file'>, violations: SchemaViolation[]) {
  return errors.outputInvalid(`The answer does not match the ${schema.name} schema: ${formatViolations(violations)}`, {
    schema: schema.name,
    file: schema.file,
    violations,
  });
}

/**
 * Validates a value against the schema, applies its defaults and returns the result; the
 * answer must be a JSON object whatever the schema says. Throws OUTPUT_INVALID.
 */
export function validateOutput(schema: Pick<OutputSchema, 'name' | 'file' | 'schema'>, value: unknown): Record<string, unknown> {
  let outcome: ReturnType<typeof validateJson>;
  try {
    outcome = validateJson(schema.schema, value, { defaults: true });
  } catch (cause) {
    // The validator can throw on hostile values: a recursive user schema walking a very deep
    // answer overflows the stack, a "format" check meets a malformed URI. Neither is valid.
    const message = cause instanceof RangeError ? 'the answer is nested too deeply to validate' : `the answer cannot be validated (${(cause as Error)?.message ?? String(cause)})`;
    throw outputInvalid(schema, [{ pointer: '', keyword: 'validator', message }]);
  }
  if (!outcome.valid) {
    // core/json-schema.ts already points a missing field's violation at the field itself.
    const violations = outcome.violations.length ? outcome.violations : [{ pointer: '', keyword: 'schema', message: 'does not match the schema' }];
    throw outputInvalid(schema, violations);
  }
  if (!isPlainObject(outcome.value)) {
    throw outputInvalid(schema, [{ pointer: '', keyword: 'type', message: `must be a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}` }]);
  }
  return outcome.value;
}
