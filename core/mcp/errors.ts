/** Errors of `supervisor mcp`: a tool list the command line narrowed wrongly, a server that is stopping. */
import { EXIT, SupervisorError } from '../errors.ts';
import { suggest } from '../text/suggest.ts';

export const mcpErrors = {
  unknownTool: (name: string, known: string[]) =>
    new SupervisorError('MCP_UNKNOWN_TOOL', `--allow-tool ${name}: there is no tool of that name${suggest(name, known)}`, { hint: `The tools: ${known.join(', ')}.`, exitCode: EXIT.usage, details: { tool: name } }),
  noTools: (allowed: string[]) =>
    new SupervisorError('MCP_NO_TOOLS', `--allow-tool ${allowed.join(', ')} with --read-only leaves no tool to offer`, { hint: 'With --read-only only the tools that start nothing are offered: allow one of those.', exitCode: EXIT.usage }),
  stopping: () =>
    new SupervisorError('MCP_STOPPING', 'The server is stopping (its client went away or it was signalled): nothing new starts', { exitCode: EXIT.interrupted }),
};
