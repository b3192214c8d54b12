/** `supervisor workflow list`: every workflow recorded in this repository, newest first. */
import { defineCommand } from '../../../command/command.ts';

export default defineCommand({
  command: 'list',
  describe: 'Workflows recorded in this repository, newest first, with their status',
  example: { command: '$0 workflow list --json', describe: 'every workflow of this repository with its status, as JSON' },
  async run(_args, ctx) {
    const { listWorkflows } = await import('../../../workflow/engine/status.ts');
    const { renderWorkflowList } = await import('../../../workflow/engine/render.ts');
    const items = listWorkflows(ctx.repoRoot);
    if (ctx.options.json) ctx.out(JSON.stringify(items, null, 2));
    else ctx.show(renderWorkflowList(items));
    return 0;
  },
});
