/** `supervisor workflow retry <id> [<task>...]`: run failed tasks again on the same integration branch. */
import { defineCommand } from '../../../command/command.ts';
import { driveOptions, driveWorkflow, engineOptions } from '../../../command/workflow-drive.ts';

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
    const options = await engineOptions(args, ctx);
    const { retryWorkflow } = await import('../../../workflow/engine/retry-workflow.ts');
    const { WorkflowStore } = await import('../../../workflow/engine/store.ts');
    const { resolveWorkflowId } = await import('../../../workflow/engine/workflow-id.ts');
    const id = resolveWorkflowId(ctx.repoRoot, String(args.id));
    const names = ((args.tasks as unknown[] | undefined) ?? []).map(String);
    const store = new WorkflowStore(ctx.repoRoot, id);
    const taskIds = store.exists() ? store.plan().tasks.map((t) => t.id) : [];
    return driveWorkflow(ctx, taskIds, (extra) => retryWorkflow(id, names, { ...options, ...extra, fresh: args.fresh === true }));
  },
});
