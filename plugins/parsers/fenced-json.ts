/**
 * The default parser: the answer is the LAST fenced block whose info string is `json`.
 * Strict by design (seed 000, Task 3): no bare JSON, no markers or magic strings, no guessing,
 * so text the model merely quotes or echoes cannot pass as its answer.
 */
import { definePlugin, errors, exampleFromSchema, type ParserContext } from '../../core/plugin-api/index.ts';
import { scanFencedBlocks, type FencedBlock } from './lib/fences.ts';
import { findJsonSyntaxError, tooDeepAt } from './lib/json-syntax.ts';
import { lineAndColumn } from './lib/text-position.ts';

/** Deeper JSON than this is refused: nothing sane nests so deep, and printing it would overflow. */
export const MAX_JSON_DEPTH = 512;

function lastJsonBlock(text: string): { block: FencedBlock | undefined; otherFences: number } {
  let block: FencedBlock | undefined;
  let otherFences = 0;
  scanFencedBlocks(text, (found) => {
    if (found.lang.toLowerCase() === 'json') block = found;
    else otherFences++;
  });
  return { block, otherFences };
}

function invalidJson(text: string, block: FencedBlock, offsetInBlock: number, reason: string) {
  const where = lineAndColumn(text, block.contentStart + offsetInBlock, { offset: block.contentStart, line: block.openLine + 1 });
  return errors.parseInvalidJson(
    `Invalid JSON in the last \`\`\`json block (opened at line ${block.openLine}) at line ${where.line}, column ${where.column}: ${reason}`,
    { line: where.line, column: where.column, blockLine: block.openLine, closed: block.closed },
  );
}

/** Extracts and JSON-parses the last ```json block; throws PARSE_NO_JSON or PARSE_INVALID_JSON. */
export function extractJsonBlock(text: string): unknown {
  const { block, otherFences } = lastJsonBlock(text);
  if (!block) {
    const seen = otherFences ? ` (it has ${otherFences} fenced block(s) without the json info string, which do not count)` : '';
    throw errors.parseNoJson(`No \`\`\`json block found in the answer${seen}`, { otherFences });
  }
  const json = text.slice(block.contentStart, block.contentEnd);
  if (json.trim() === '') throw invalidJson(text, block, 0, 'the block is empty');
  const deep = tooDeepAt(json, MAX_JSON_DEPTH);
  if (deep >= 0) throw invalidJson(text, block, deep, `nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(json);
  } catch (cause) {
    const found = findJsonSyntaxError(json);
    throw invalidJson(text, block, found?.offset ?? 0, found?.message ?? (cause as Error).message);
  }
}

/** Seed 000's required wording: one fenced ```json block at the end, no bare JSON. */
const REQUIRED_FORMAT = [
  'You MUST end your response with a fenced JSON code block containing your structured output.',
  '',
  '**CRITICAL:** Use exactly this format, with triple backticks and the `json` label:',
  '',
  '```json',
  '{ "status": "...", ... }',
  '```',
  '',
  'The JSON MUST be in a fenced code block (triple backticks with the json label).',
  'Bare JSON without fences will NOT be accepted. If you write more than one ```json block,',
  'only the last one is read, so make the last block of your response your final answer.',
  'Write any explanation before that block, not after it.',
];

/** The required format; the schema and an example too unless the prompt already shows them. */
export function fencedJsonFormat(ctx: Pick<ParserContext, 'schemaName' | 'schema' | 'schemaInPrompt'>): string {
  if (ctx.schemaInPrompt) return REQUIRED_FORMAT.join('\n');
  return [
    ...REQUIRED_FORMAT,
    '',
    `The object must validate against this JSON Schema ("${ctx.schemaName}"):`,
    '',
    '```json',
    JSON.stringify(ctx.schema, null, 2),
    '```',
    '',
    'For example (replace the values with your real answer):',
    '',
    '```json',
    JSON.stringify(exampleFromSchema(ctx.schema), null, 2),
    '```',
  ].join('\n');
}

export default definePlugin({
  kind: 'parser',
  name: 'fenced-json',
  description: 'Strict: the last ```json fenced block, validated against the output schema',
  parse(text, ctx) {
    return ctx.validate(extractJsonBlock(text));
  },
  formatInstructions: fencedJsonFormat,
});
