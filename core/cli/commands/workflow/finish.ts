/** `supervisor workflow finish <id> [--into <branch>] [--squash]`: hand a passed workflow's result on, never touching a checkout. */
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand } from '../../../command/command.ts';
import { flagArg, stringArg } from '../../../command/read-args.ts';

export default defineCommand({
  command: 'finish [id]',
  describe: 'Hand a passed workflow on: --into moves a branch that is not checked out (fast-forward, else a merge; --squash: one commit); a checked-out branch gets the exact git command instead',
  example: { command: '$0 workflow finish last --into release', describe: 'move the branch release (not checked out) to hold the workflow' },
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last (default: the newest)' })
      .option('into', { type: 'string', describe: 'The branch to move (created when it does not exist); without it, the command that merges the branch is printed' })
      .option('squash', { type: 'boolean', default: false, describe: 'One commit with the whole change instead of a merge' }),
  async run(args, ctx) {
    const { workflowFinish } = await import('../../../app/workflow-views.ts');
    const { renderFinish } = await import('../../../workflow/engine/finish.ts');
    const into = stringArg(args, 'into');
    const id = stringArg(args, 'id');
    const outcome = await workflowFinish({ ...(id === undefined ? {} : { id }), ...(into === undefined ? {} : { into }), squash: flagArg(args, 'squash') }, fromCliContext(ctx));
    ctx.out(ctx.options.json ? JSON.stringify(outcome, null, 2) : renderFinish(outcome));
    return 0;
  },
});
