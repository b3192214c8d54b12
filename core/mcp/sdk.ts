/**
 * Every value the server takes from the MCP SDK and zod, in one module. The single binary ships
 * it as a lazy chunk of its own (scripts/pkg/bundle.mjs LAZY_CHUNKS), so only `supervisor mcp`
 * reads and compiles its ~700 KiB; other commands start as before. Import these from here.
 */
export { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { z } from 'zod';
