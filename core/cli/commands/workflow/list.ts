/** `supervisor workflow list`: every workflow recorded in this repository, newest first. */
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand } from '../../../command/command.ts';

export default defineCommand({
  command: 'list',
  describe: 'Workflows recorded in this repository, newest first, with their status',
  example: { command: '$0 workflow list --json', describe: 'every workflow of this repository with its status, as JSON' },
  async run(_args, ctx) {
    const { workflowList } = await import('../../../app/workflow-views.ts');
    const { renderWorkflowList } = await import('../../../workflow/engine/render.ts');
    const items = await workflowList(fromCliContext(ctx));
    if (ctx.options.json) ctx.out(JSON.stringify(items, null, 2));
    else ctx.show(renderWorkflowList(items));
    return 0;
  },
});
