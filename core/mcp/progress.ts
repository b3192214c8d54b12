/**
 * Progress notifications for a long tool call, sent only when the client asked for them (a
 * `progressToken` in the request's `_meta`): one per change of the run's or workflow's state,
 * with the same line the command line prints on stderr. Progress only goes up; no total.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A function to call with each progress line; a no-op when the client gave no token. */
export function progressReporter(extra: ToolExtra): (message: string) => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let progress = 0;
  return (message) => {
    progress += 1;
    // A client that went away cannot be told; the run goes on (and is stopped by the disconnect).
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(() => {});
  };
}
