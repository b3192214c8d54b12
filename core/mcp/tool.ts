/**
 * One MCP tool: its stable name, whether it starts anything (--read-only offers only those
 * that do not), its schemas and its body. `defineTool` only helps TypeScript infer the
 * arguments from the input shape.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { CliContext } from '../command/context.ts';
import type { Activity } from './activity.ts';
import type { ToolExtra } from './progress.ts';

/** What every tool body gets from the server. */
export interface ToolEnv {
  ctx: CliContext;
  activity: Activity;
  /** Call when runs or workflows may have appeared: the resource list is compared and, when it changed, the client told. */
  resourcesMayHaveChanged(): void;
  /** Workflows running in this server now (a second engine on one of them is refused). */
  runningWorkflows: Set<string>;
}

export interface ToolDef<I extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** Starts runs or workflows (left out by --read-only). */
  startsWork: boolean;
  input: I;
  output: z.ZodType<Record<string, unknown>>;
  call(args: z.infer<z.ZodObject<I>>, extra: ToolExtra, env: ToolEnv): Promise<CallToolResult>;
}

export function defineTool<I extends z.ZodRawShape>(def: ToolDef<I>): ToolDef<I> {
  return def;
}
