/** A ParserContext over a built-in schema, made by the core's own factory (real validation). */
import type { ParserContext } from '../../../core/plugin-api/contracts.ts';
import { parserContext as coreParserContext } from '../../../core/output/parse-output.ts';
import { loadOutputSchema } from '../../../core/output/schemas.ts';

export function parserContext(schemaName: string, extra: Partial<ParserContext> = {}): ParserContext {
  return { ...coreParserContext({ schema: loadOutputSchema(schemaName, { baseDir: '/' }) }), ...extra };
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
