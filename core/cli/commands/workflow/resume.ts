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
    driveOptions(y.positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest unfinished)' }))
      .option('remote', { type: 'string', describe: "Resume the workflow a shared remote holds (workflow task --remote): here, every task its branch does not hold yet, then the final step; needs --plan" })
      .option('plan', { type: 'string', describe: 'With --remote: the plan file' })
      .option('plan-sha256', { type: 'string', describe: 'With --remote: refuse (PLAN_CHANGED) a plan file whose bytes do not hash to this' }),
  async run(args, ctx) {
    if (stringArg(args, 'remote') !== undefined) return (await import('./remote-resume.ts')).remoteResume(args, ctx);
    const { prepareWorkflowResume } = await import('../../../app/workflow-continue.ts');
    const id = stringArg(args, 'id');
    return driveWorkflow(ctx, await prepareWorkflowResume({ ...driveInputFromArgs(args), ...(id === undefined ? {} : { id }) }, fromCliContext(ctx)));
  },
});
