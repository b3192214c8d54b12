/** `supervisor workflow status [<id>]`: a workflow's tasks and state (default: the newest). */
import { defineCommand } from '../../command.ts';

export default defineCommand({
  command: 'status [id]',
  describe: "A workflow's status and its tasks' states (default: the newest workflow)",
  builder: (y) => y.positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest)' }),
  async run(args, ctx) {
    const { readWorkflowStatus, renderWorkflowStatus } = await import('../../../workflow/engine/status.ts');
    const { resolveWorkflowId } = await import('../../../workflow/engine/workflow-id.ts');
    const id = resolveWorkflowId(ctx.repoRoot, typeof args.id === 'string' ? args.id : undefined);
    const view = readWorkflowStatus(ctx.repoRoot, id);
    ctx.out(ctx.options.json ? JSON.stringify(view, null, 2) : renderWorkflowStatus(view));
    return 0;
  },
});
