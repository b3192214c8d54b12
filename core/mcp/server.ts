/**
 * The MCP server of one repository: the tools the command line allowed, the resources, and
 * instructions that say what the server may do there (trust, read-only). Transport-free:
 * `serve-stdio.ts` connects it.
 */
import { McpServer } from './sdk.ts';
import type { CliContext } from '../command/context.ts';
import { untrustedNotice, type TrustDecision } from '../trust/decide.ts';
import { VERSION } from '../version.ts';
import { Activity } from './activity.ts';
import { mcpErrors } from './errors.ts';
import { registerResources } from './resources.ts';
import type { ToolExtra } from './progress.ts';
import type { ToolDef, ToolEnv } from './tool.ts';
import { answer } from './tool-result.ts';
import { rolesList, rolesShow } from './tools/roles.ts';
import { run } from './tools/run.ts';
import { runsList, runsShow } from './tools/runs.ts';
import { workflowApprove, workflowCheck, workflowReject, workflowResume, workflowRun, workflowShow, workflowStatus } from './tools/workflow.ts';

// Each tool's argument type differs; the list only needs what they share.
type AnyTool = ToolDef<any>;

/** Every tool, in the order clients list them. Names are API: add freely, never rename. */
export const TOOLS: AnyTool[] = [run, workflowCheck, workflowRun, workflowStatus, workflowShow, workflowApprove, workflowReject, workflowResume, runsList, runsShow, rolesList, rolesShow];

export interface ServerOptions {
  /** --allow-tool: only these (empty: all). */
  allowTools: string[];
  /** --read-only: only the tools that start nothing. */
  readOnly: boolean;
}

/** The tools to offer; an unknown name, or a list --read-only empties, is a usage error. */
export function selectTools(options: ServerOptions): AnyTool[] {
  const names = TOOLS.map((t) => t.name);
  for (const name of options.allowTools) if (!names.includes(name)) throw mcpErrors.unknownTool(name, names);
  const chosen = TOOLS.filter((t) => (!options.allowTools.length || options.allowTools.includes(t.name)) && !(options.readOnly && t.startsWork));
  if (!chosen.length) throw mcpErrors.noTools(options.allowTools);
  return chosen;
}

export function renderInstructions(repoRoot: string, trust: TrustDecision, tools: AnyTool[], readOnly: boolean): string {
  const lines = [
    `supervisor runs AI coding CLIs as workers in roles on the repository ${repoRoot}: each run in its own git worktree (the user's checkout is never touched), its answer validated against the role's schema.`,
    trust.trusted
      ? 'This repository is trusted: its own plugins, prompt templates and tools run.'
      : `This repository is NOT trusted: none of its own code runs. ${untrustedNotice('its plugins, prompt templates and tools', repoRoot)}.`,
    readOnly ? 'Read-only: only tools that start nothing are offered (status, show, list, check).' : 'Runs and workflows started here live as long as this server: when the client disconnects they are interrupted (a workflow stays resumable with workflow_resume or `supervisor workflow resume <id>`).',
    `Tools: ${tools.map((t) => t.name).join(', ')}. Resources: supervisor://runs/<id> (a run's result and log), supervisor://workflows/<id> (a workflow's status).`,
  ];
  return lines.join('\n');
}

export interface SupervisorServer {
  server: McpServer;
  activity: Activity;
  /** Stops watching the state folders. */
  close(): void;
}

export async function createSupervisorServer(ctx: CliContext, options: ServerOptions): Promise<SupervisorServer> {
  const tools = selectTools(options);
  const trust = await ctx.trust();
  const server = new McpServer({ name: 'supervisor', version: VERSION }, { instructions: renderInstructions(ctx.repoRoot, trust, tools, options.readOnly) });
  const activity = new Activity();
  const resources = registerResources(server, ctx);
  const env: ToolEnv = { ctx, activity, resourcesMayHaveChanged: resources.check, runningWorkflows: new Set() };
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: { readOnlyHint: !tool.startsWork, openWorldHint: tool.startsWork } },
      (args: Record<string, unknown>, extra: ToolExtra) => answer(() => tool.call(args, extra, env), ctx.warn),
    );
  }
  return { server, activity, close: resources.close };
}
