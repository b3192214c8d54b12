/** `supervisor workflow resume <id>`: continue after Ctrl-C, kill -9, the cost ceiling or a crash. */
import { defineCommand } from '../../command.ts';
import { checkCliRoles, driveOptions, driveWorkflow, engineOptions } from '../../workflow-drive.ts';

export default defineCommand({
  command: 'resume <id>',
  describe: 'Continue a workflow where it stopped: integrated tasks never run again; a task caught mid-run restarts from its branch',
  builder: (y) => driveOptions(y.positional('id', { type: 'string', describe: 'The workflow id (supervisor workflow list)' })),
  async run(args, ctx) {
    const options = await engineOptions(args, ctx);
    const { resumeWorkflow } = await import('../../../workflow/engine/run-workflow.ts');
    const { WorkflowStore } = await import('../../../workflow/engine/store.ts');
    const id = String(args.id);
    const store = new WorkflowStore(ctx.repoRoot, id);
    const plan = store.exists() ? store.plan() : null;
    if (plan) checkCliRoles(options.cli, plan);
    const taskIds = plan ? plan.tasks.map((t) => t.id) : [];
    return driveWorkflow(ctx, taskIds, (extra) => resumeWorkflow(id, { ...options, ...extra }));
  },
});
