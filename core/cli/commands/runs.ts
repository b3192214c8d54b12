import { errors } from '../../errors.ts';
import { parseSince } from '../../text/age.ts';
import { defineCommand } from '../../command/command.ts';
import { numberOption, positive } from '../../command/numbers.ts';
import runsTail from './runs-tail.ts';

const DEFAULT_LIMIT = 50;
const STATUSES = ['pass', 'gaps', 'error', 'running', 'incomplete'] as const;

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
    const limit = positive(args, 'limit', { integer: true }) ?? DEFAULT_LIMIT;
    const since = typeof args.since === 'string' ? parseSince(args.since, new Date()) : undefined;
    if (since === null) throw errors.usage(`--since expects an age (30m, 12h, 7d, 2w) or a date (2026-11-20), got "${String(args.since)}"`);
    const { listRuns } = await import('../../runs/runs-store.ts');
    const { renderRunsList } = await import('../../runs/render.ts');
    if (typeof args.task === 'string' && typeof args.workflow !== 'string') throw errors.usage('runs list --task needs --workflow <id>: task ids are per workflow');
    const { resolveWorkflowId } = await import('../../workflow/engine/workflow-id.ts');
    const workflow = typeof args.workflow === 'string' ? resolveWorkflowId(ctx.repoRoot, args.workflow) : undefined;
    const runs = listRuns(ctx.repoRoot, {
      limit,
      ...(workflow ? { workflow } : {}),
      ...(typeof args.task === 'string' ? { task: args.task } : {}),
      ...(typeof args.role === 'string' ? { role: args.role } : {}),
      ...(typeof args.status === 'string' ? { status: args.status } : {}),
      ...(since ? { since } : {}),
      onNotice: (message) => ctx.warn(`notice: ${message}`),
    });
    const filtered = ['role', 'status', 'since', 'workflow', 'task'].filter((key) => typeof args[key] === 'string').map((key) => `--${key} ${String(args[key])}`);
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
    const { readRun } = await import('../../runs/runs-store.ts');
    const { renderRunShow } = await import('../../runs/render.ts');
    const record = readRun(ctx.repoRoot, String(args['run-id'] ?? args.runId), (message) => ctx.warn(`notice: ${message}`));
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
