/** A ParserContext over a built-in schema with the core's real validation. */
import type { ParserContext } from '../../../core/plugin/contracts.ts';
import { loadOutputSchema } from '../../../core/output/schemas.ts';
import { validateOutput } from '../../../core/output/validate-output.ts';

export function parserContext(schemaName: string, extra: Partial<ParserContext> = {}): ParserContext {
  const schema = loadOutputSchema(schemaName, { baseDir: '/' });
  return {
    schemaName: schema.name,
    schema: schema.schema,
    validate: (value) => validateOutput(schema, value),
    legacy: false,
    ...extra,
  };
}

/** The error a call throws (fails the test when it returns). */
export function thrown(fn: () => unknown): { code?: string; message: string; details?: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected an error');
}
