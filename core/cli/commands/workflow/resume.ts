/** `supervisor workflow resume [<id>]`: continue after Ctrl-C, kill -9, the cost ceiling, an approval or a crash. */
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand } from '../../../command/command.ts';
import { driveInputFromArgs, driveOptions, driveWorkflow } from '../../../command/workflow-drive.ts';
import { stringArg } from '../../../command/read-args.ts';

export default defineCommand({
  command: 'resume [id]',
  describe: 'Continue a workflow where it stopped, with the settings it was started with: integrated tasks never run again; a task caught mid-run restarts from its branch (default: the newest unfinished workflow)',
  example: { command: '$0 workflow resume', describe: 'continue the newest unfinished workflow' },
  builder: (y) =>
    driveOptions(y.positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest unfinished)' })),
  async run(args, ctx) {
    const { prepareWorkflowResume } = await import('../../../app/workflow-continue.ts');
    const id = stringArg(args, 'id');
    return driveWorkflow(ctx, await prepareWorkflowResume({ ...driveInputFromArgs(args), ...(id === undefined ? {} : { id }) }, fromCliContext(ctx)));
  },
});
