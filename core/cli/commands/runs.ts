import { fromCliContext } from '../../command/app-deps.ts';
import { DEFAULT_RUNS_LIMIT as DEFAULT_LIMIT, RUN_STATUSES as STATUSES, type RunsListInput } from '../../app/runs.ts';
import { errors } from '../../errors.ts';
import { defineCommand, type Args } from '../../command/command.ts';
import { numberOption, positive } from '../../command/numbers.ts';
import { stringArg } from '../../command/read-args.ts';
import runsTail, { runIdInput } from './runs-tail.ts';

/** argv → the runs list use case's input. */
export function runsListInput(args: Args): RunsListInput {
  const limit = positive(args, 'limit', { integer: true });
  const status = stringArg(args, 'status');
  const found = STATUSES.find((s) => s === status);
  if (status !== undefined && found === undefined) throw errors.usage(`--status expects one of ${STATUSES.join(', ')}, got "${status}"`);
  const input: RunsListInput = { ...(limit === undefined ? {} : { limit }), ...(found === undefined ? {} : { status: found }) };
  for (const key of ['role', 'since', 'workflow', 'task'] as const) {
    const value = stringArg(args, key);
    if (value !== undefined) input[key] = value;
  }
  return input;
}

const list = defineCommand({
  command: 'list',
  describe: 'List the runs of this repository, newest first (status, role, cli, attempts, tokens, cost, duration)',
  example: { command: '$0 runs list --workflow last --task parse', describe: 'the runs of one task of the newest workflow' },
  builder: (y) =>
    numberOption(y, 'limit', `Show at most this many runs (default ${DEFAULT_LIMIT})`)
      .option('role', { type: 'string', describe: 'Only runs of this role' })
      .option('status', { choices: STATUSES, describe: 'Only runs with this status (or still running, or cut short)' })
      .option('since', { type: 'string', describe: 'Only runs started since: an age (30m, 12h, 7d, 2w) or a date (2026-11-20)' })
      .option('workflow', { type: 'string', describe: 'Only runs of this workflow (an id, a unique part of one, or last)' })
      .option('task', { type: 'string', describe: 'With --workflow: only runs of this task' }),
  async run(args, ctx) {
    const input = runsListInput(args);
    const { runsList } = await import('../../app/runs.ts');
    const { renderRunsList } = await import('../../runs/render.ts');
    const runs = await runsList(input, fromCliContext(ctx));
    const filtered = (['role', 'status', 'since', 'workflow', 'task'] as const).flatMap((key) => (input[key] === undefined ? [] : [`--${key} ${input[key]}`]));
    if (ctx.options.json) ctx.out(JSON.stringify(runs, null, 2));
    else if (!runs.length && filtered.length) ctx.show(`No run matches ${filtered.join(' ')}.`);
    else ctx.show(renderRunsList(runs));
    return 0;
  },
});

const show = defineCommand({
  command: 'show <run-id>',
  describe: 'Show one run: its result and its events (a run id, a unique part of one, or "last")',
  example: { command: '$0 runs show last --json', describe: 'the newest run: its result and every event, as JSON' },
  builder: (y) => y.positional('run-id', { type: 'string' }),
  async run(args, ctx) {
    const { runsShow } = await import('../../app/runs.ts');
    const { renderRunShow } = await import('../../runs/render.ts');
    const record = await runsShow(runIdInput(args), fromCliContext(ctx));
    if (ctx.options.json) ctx.out(JSON.stringify({ ...record.summary, result: record.result, events: record.events }, null, 2));
    else ctx.show(renderRunShow(record, ctx.deps.cwd));
    return 0;
  },
});

export default defineCommand({
  command: 'runs',
  describe: 'Read back the run log (.supervisor/runs/)',
  subcommands: [list, show, runsTail],
});
