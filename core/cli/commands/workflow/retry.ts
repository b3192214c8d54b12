/** `supervisor workflow retry <id> [<task>...]`: run failed tasks again on the same integration branch. */
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand } from '../../../command/command.ts';
import { driveInputFromArgs, driveOptions, driveWorkflow } from '../../../command/workflow-drive.ts';
import { flagArg, listArg, stringArg } from '../../../command/read-args.ts';

export default defineCommand({
  command: 'retry <id> [tasks..]',
  describe: 'Continue a finished or stopped workflow on its integration branch: the named tasks (default: every task that ended error, gaps, blocked or skipped) run again, then the tasks skipped because of them; integrated tasks never run again',
  example: { command: '$0 workflow retry last parse --fresh', describe: 'run task parse of the newest workflow again, from the integration tip' },
  builder: (y) =>
    driveOptions(
      y
        .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last' })
        .positional('tasks', { type: 'string', array: true, describe: 'Task ids to run again (default: every task that did not end integrated)' }),
    ).option('fresh', { type: 'boolean', default: false, describe: "Start the tasks over from the integration tip instead of continuing from their branches" }),
  async run(args, ctx) {
    const { prepareWorkflowRetry } = await import('../../../app/workflow-continue.ts');
    const input = { ...driveInputFromArgs(args), id: stringArg(args, 'id') ?? '', tasks: listArg(args, 'tasks'), fresh: flagArg(args, 'fresh') };
    return driveWorkflow(ctx, await prepareWorkflowRetry(input, fromCliContext(ctx)));
  },
});
