/**
 * The answer format a role's parser asks for, in words and with an example: what templates show
 * as `it.outputFormat` and what the engine repeats when it retries after an unusable answer.
 * The parser plugin owns the wording (its formatInstructions); this is the one place that asks it.
 */
import { callHookSync } from '../plugins/call-hook.ts';
import type { Registry } from '../registry.ts';
import { DEFAULT_PARSER, parserContext, type ParserContextOptions } from './parse-output.ts';

export interface AnswerFormatOptions extends ParserContextOptions {
  registry: Registry;
  /** Parser plugin name; default fenced-json. */
  parser?: string;
}

/** For parsers without formatInstructions: name the parser and, unless the prompt shows it, the schema. */
function fallbackFormat(parser: string, opts: AnswerFormatOptions): string {
  const lines = [
    'End your response with your result in the report format your instructions define; it is',
    `read by the \`${parser}\` parser, and an answer it cannot read counts as no answer.`,
  ];
  if (opts.schemaInPrompt) return lines.join('\n');
  return [...lines, '', `The result must validate against this JSON Schema ("${opts.schema.name}"):`, '', '```json', JSON.stringify(opts.schema.schema, null, 2), '```'].join('\n');
}

/** The parser's example answer for the role (undefined when it has none or its hook fails: an example is a convenience). */
export function exampleAnswer(opts: AnswerFormatOptions): string | undefined {
  const parser = opts.registry.get('parser', opts.parser ?? DEFAULT_PARSER);
  try {
    const text = parser.exampleAnswer?.(parserContext(opts));
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The role's parser's answer format. Throws PLUGIN_NOT_FOUND for an unknown parser, PLUGIN_HOOK when its hook fails. */
export function answerFormat(opts: AnswerFormatOptions): string {
  const name = opts.parser ?? DEFAULT_PARSER;
  const parser = opts.registry.get('parser', name);
  if (!parser.formatInstructions) return fallbackFormat(name, opts);
  const format = parser.formatInstructions.bind(parser);
  return callHookSync(parser, 'formatInstructions', () => format(parserContext(opts))).trimEnd();
}
