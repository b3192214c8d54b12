/** `supervisor workflow status [<id>]`: a workflow's tasks and state (default: the newest). */
import { defineCommand } from '../../command.ts';

export default defineCommand({
  command: 'status [id]',
  describe: "A workflow's status and its tasks' states (default: the newest workflow)",
  builder: (y) => y.positional('id', { type: 'string', describe: 'The workflow id (supervisor workflow list)' }),
  async run(args, ctx) {
    const { readWorkflowStatus, renderWorkflowStatus } = await import('../../../workflow/engine/status.ts');
    const { listWorkflowIds } = await import('../../../workflow/engine/store.ts');
    const { engineErrors } = await import('../../../workflow/engine/errors.ts');
    const id = typeof args.id === 'string' ? args.id : listWorkflowIds(ctx.repoRoot)[0];
    if (!id) throw engineErrors.notFound('(newest)', []);
    const view = readWorkflowStatus(ctx.repoRoot, id);
    if (ctx.options.json) ctx.out(JSON.stringify(view, null, 2));
    else ctx.show(renderWorkflowStatus(view));
    return 0;
  },
});
