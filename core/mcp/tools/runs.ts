/** `runs_list` and `runs_show`: the run log, as `runs list/show --json`. */
import { runsListInput, runsListOutput, runsShowInput, runsShowOutput } from '../schemas.ts';
import { defineTool } from '../tool.ts';
import { toolResult } from '../tool-result.ts';

const DEFAULT_LIMIT = 50;

export const runsList = defineTool({
  name: 'runs_list',
  title: 'List runs',
  description: 'Runs of this repository, newest first: id, state (finished, running, incomplete), status, role, cli, attempts, tokens, cost, duration.',
  startsWork: false,
  input: runsListInput,
  output: runsListOutput,
  async call({ limit, role, status }, _extra, { ctx }) {
    const { listRuns } = await import('../../runs/runs-store.ts');
    const runs = listRuns(ctx.repoRoot, { limit: limit ?? DEFAULT_LIMIT, ...(role ? { role } : {}), ...(status ? { status } : {}), onNotice: (message) => ctx.warn(`notice: ${message}`) });
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
    const { readRun } = await import('../../runs/runs-store.ts');
    const record = readRun(ctx.repoRoot, id, (message) => ctx.warn(`notice: ${message}`));
    return toolResult({ ...record.summary, result: record.result, events: record.events } as unknown as Record<string, unknown>);
  },
});
