/**
 * What a tool call answers: the result as `structuredContent` and, for clients that read only
 * text, the same JSON as text. A SupervisorError (a bad role, a bad plan, ...) is a tool
 * result with `isError: true` and the error's code, message and hint, never a protocol error
 * and never a crashed server.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toSupervisorError } from '../command/render-error.ts';

export function toolResult(structured: Record<string, unknown>, options: { isError?: boolean } = {}): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
    ...(options.isError ? { isError: true } : {}),
  };
}

/**
 * The error as `{ error: { code, message, hint?, details } }` text. No `structuredContent`: the
 * SDK's client checks it against the tool's output schema even on an error.
 */
export function toolError(thrown: unknown): CallToolResult {
  const error = toSupervisorError(thrown);
  return { content: [{ type: 'text', text: JSON.stringify({ error: error.toJSON() }, null, 2) }], isError: true };
}

/** Runs a tool's body; whatever it throws becomes an error result (unexpected ones also a line on stderr). */
export async function answer(body: () => Promise<CallToolResult>, warn: (line: string) => void): Promise<CallToolResult> {
  try {
    return await body();
  } catch (thrown) {
    const error = toSupervisorError(thrown);
    if (error.code === 'INTERNAL') warn(`error: ${error.message}${thrown instanceof Error && thrown.stack ? `\n${thrown.stack}` : ''}`);
    return toolError(error);
  }
}
