import { defineCommand } from '../command.ts';
import { numberOption, positive } from '../numbers.ts';

const DEFAULT_LIMIT = 50;

const list = defineCommand({
  command: 'list',
  describe: 'List the runs of this repository, newest first (status, role, cli, attempts, tokens, cost, duration)',
  builder: (y) => numberOption(y, 'limit', `Show at most this many runs (default ${DEFAULT_LIMIT})`),
  async run(args, ctx) {
    const limit = positive(args, 'limit', { integer: true }) ?? DEFAULT_LIMIT;
    const { listRuns } = await import('../../engine/runs-store.ts');
    const { renderRunsList } = await import('../../engine/render.ts');
    const runs = listRuns(ctx.repoRoot, limit);
    if (ctx.options.json) ctx.out(JSON.stringify(runs, null, 2));
    else ctx.show(renderRunsList(runs));
    return 0;
  },
});

const show = defineCommand({
  command: 'show <run-id>',
  describe: 'Show one run: its result and its events (a run id, a unique part of one, or "last")',
  builder: (y) => y.positional('run-id', { type: 'string' }),
  async run(args, ctx) {
    const { readRun } = await import('../../engine/runs-store.ts');
    const { renderRunShow } = await import('../../engine/render.ts');
    const record = readRun(ctx.repoRoot, String(args['run-id'] ?? args.runId));
    if (ctx.options.json) ctx.out(JSON.stringify({ ...record.summary, result: record.result, events: record.events }, null, 2));
    else ctx.show(renderRunShow(record, ctx.deps.cwd));
    return 0;
  },
});

export default defineCommand({
  command: 'runs',
  describe: 'Read back the run log (.supervisor/runs/)',
  subcommands: [list, show],
});
