/** `supervisor workflow logs [<id>] [<task>] [-f]`: the runs' output, interleaved, each line tagged with task and role. */
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand, type Args } from '../../../command/command.ts';
import { flagArg, stringArg } from '../../../command/read-args.ts';
import { followUntilEnd } from '../../follow.ts';
import { remoteOption } from './remote-views.ts';

const POLL_MS = 250;

/** argv → the workflow logs use case's input. */
export function workflowLogsInput(args: Args): { id?: string; task?: string } {
  const id = stringArg(args, 'id');
  const task = stringArg(args, 'task');
  return { ...(id === undefined ? {} : { id }), ...(task === undefined ? {} : { task }) };
}

export default defineCommand({
  command: 'logs [id] [task]',
  describe: "The output of a workflow's runs, interleaved, each line tagged [task role]; -f follows new runs as they start until the workflow ends",
  example: { command: '$0 workflow logs last -f', describe: 'follow the output of every run of the newest workflow' },
  builder: (y) =>
    remoteOption(
      y
        .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest)' })
        .positional('task', { type: 'string', describe: 'Only this task' })
        .option('follow', { alias: 'f', type: 'boolean', default: false, describe: 'Keep following (new runs too) until the workflow ends, or Ctrl-C' })),
  async run(args, ctx) {
    if (stringArg(args, 'remote') !== undefined) return (await import('./remote-views.ts')).remoteLogs(args, ctx);
    const { workflowLogs } = await import('../../../app/workflow-views.ts');
    const { renderLogLine } = await import('../../../runs/workflow-logs.ts');
    const { follower, width } = await workflowLogs(workflowLogsInput(args), fromCliContext(ctx));
    const print = (lines: ReturnType<typeof follower.poll>) => {
      for (const line of lines) {
        if (ctx.options.json) ctx.out(JSON.stringify(line));
        else ctx.show(renderLogLine(line, width));
      }
    };
    if (!flagArg(args, 'follow')) {
      print(follower.poll(true));
      return 0;
    }
    return followUntilEnd(follower, { pollMs: POLL_MS, onInterrupt: ctx.deps.onInterrupt, print, writing: () => follower.running() });
  },
});
