/** `supervisor workflow resume [<id>]`: continue after Ctrl-C, kill -9, the cost ceiling, an approval or a crash. */
import { defineCommand } from '../../../command/command.ts';
import { driveOptions, resumeById } from '../../../command/workflow-drive.ts';

export default defineCommand({
  command: 'resume [id]',
  describe: 'Continue a workflow where it stopped: integrated tasks never run again; a task caught mid-run restarts from its branch (default: the newest unfinished workflow)',
  example: { command: '$0 workflow resume', describe: 'continue the newest unfinished workflow' },
  builder: (y) =>
    driveOptions(y.positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest unfinished)' })),
  async run(args, ctx) {
    const { resolveWorkflowId } = await import('../../../workflow/engine/workflow-id.ts');
    const id = resolveWorkflowId(ctx.repoRoot, typeof args.id === 'string' ? args.id : undefined, { unfinished: true });
    return resumeById(ctx, args, id);
  },
});
