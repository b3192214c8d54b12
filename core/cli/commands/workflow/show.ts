/** `supervisor workflow show <id> <task> [--diff] [--json]`: one task, round by round, and its change. */
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand, type Args } from '../../../command/command.ts';
import { flagArg, stringArg } from '../../../command/read-args.ts';
import { remoteOption } from './remote-views.ts';

/** argv → the workflow show use case's input (both positionals are required by yargs). */
export function workflowShowInput(args: Args): { id: string; task: string } {
  return { id: stringArg(args, 'id') ?? '', task: stringArg(args, 'task') ?? '' };
}

export default defineCommand({
  command: 'show <id> <task>',
  describe: "One task of a workflow: its text, rounds (each run's role, CLI, status, cost, duration, id), the reviewers' issues, gates, conflicts, decisions, and with --diff its change",
  example: { command: '$0 workflow show last parse --diff', describe: 'what task parse of the newest workflow changed, and what its reviewers said' },
  builder: (y) =>
    remoteOption(
      y
        .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last' })
        .positional('task', { type: 'string', describe: 'The task id' })
        .option('diff', { type: 'boolean', default: false, describe: "Show the task's change (capped; always in --json as diff)" })),
  async run(args, ctx) {
    if (stringArg(args, 'remote') !== undefined) return (await import('./remote-views.ts')).remoteShow(args, ctx);
    const { workflowShowTask } = await import('../../../app/workflow-views.ts');
    const show = await workflowShowTask(workflowShowInput(args), fromCliContext(ctx));
    if (ctx.options.json) {
      ctx.out(JSON.stringify(show, null, 2));
      return 0;
    }
    if (show.diff?.notice && flagArg(args, 'diff')) ctx.warn(`notice: ${show.diff.notice}`);
    const { renderTaskShow } = await import('../../../runs/render-workflow-show.ts');
    ctx.out(renderTaskShow(show, flagArg(args, 'diff')));
    return 0;
  },
});
