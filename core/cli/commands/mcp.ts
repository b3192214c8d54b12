/** `supervisor mcp`: serve this repository's roles, runs and workflows to an agent over the Model Context Protocol (stdio). */
import { defineCommand } from '../../command/command.ts';
import { listArg } from '../../command/read-args.ts';

export default defineCommand({
  command: 'mcp',
  describe: 'Serve runs, workflows and roles as MCP tools over stdio, for an agent (Claude Code, Codex, Gemini CLI, Cline): see README "Use from an agent"',
  example: { command: '$0 mcp --read-only', describe: 'serve only the tools that start nothing (status, show, list, check)' },
  builder: (y) =>
    y
      .option('allow-tool', { type: 'string', array: true, default: [] as string[], describe: 'Offer only this tool (repeatable; default: all)' })
      .option('read-only', { type: 'boolean', default: false, describe: 'Offer only the tools that start nothing (status, show, list, check)' })
      .epilogue('stdout carries only the protocol; notices go to stderr. Runs and workflows started through MCP are interrupted (resumable) when the client disconnects.'),
  async run(args, ctx) {
    const { serveStdio } = await import('../../mcp/serve-stdio.ts');
    return serveStdio(ctx, { allowTools: listArg(args, 'allow-tool'), readOnly: args['read-only'] === true });
  },
});
