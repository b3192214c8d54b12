/** `runs_list` and `runs_show`: the run log, as `runs list/show --json`. */
import { runsListInput, runsListOutput, runsShowInput, runsShowOutput } from '../schemas.ts';
import { defineTool } from '../tool.ts';
import { toolResult } from '../tool-result.ts';
import type { RunsListInput } from '../../app/runs.ts';
import { mcpDeps } from './workflow.ts';

/** runs_list's arguments → the runs list use case's input. */
export function runsListToolInput(args: { limit?: number | undefined; role?: string | undefined; status?: RunsListInput['status'] | undefined }): RunsListInput {
  return { ...(args.limit === undefined ? {} : { limit: args.limit }), ...(args.role ? { role: args.role } : {}), ...(args.status ? { status: args.status } : {}) };
}

export const runsList = defineTool({
  name: 'runs_list',
  title: 'List runs',
  description: 'Runs of this repository, newest first: id, state (finished, running, incomplete), status, role, cli, attempts, tokens, cost, duration.',
  startsWork: false,
  input: runsListInput,
  output: runsListOutput,
  async call(args, _extra, { ctx }) {
    const { runsList: list } = await import('../../app/runs.ts');
    const runs = await list(runsListToolInput(args), mcpDeps(ctx));
    return toolResult({ runs: runs as unknown as Record<string, unknown>[] });
  },
});

export const runsShow = defineTool({
  name: 'runs_show',
  title: 'Show a run',
  description: "One run: its summary, its result (the validated answer as `output`, `issues`, `failure`, git range, files changed) and its events.",
  startsWork: false,
  input: runsShowInput,
  output: runsShowOutput,
  async call({ id }, _extra, { ctx }) {
    const { runsShow: show } = await import('../../app/runs.ts');
    const record = await show({ id }, mcpDeps(ctx));
    return toolResult({ ...record.summary, result: record.result, events: record.events } as unknown as Record<string, unknown>);
  },
});
