/** `supervisor workflow show <id> <task> [--diff] [--json]`: one task, round by round, and its change. */
import { defineCommand } from '../../../command/command.ts';

export default defineCommand({
  command: 'show <id> <task>',
  describe: "One task of a workflow: its text, rounds (each run's role, CLI, status, cost, duration, id), the reviewers' issues, gates, conflicts, decisions, and with --diff its change",
  example: { command: '$0 workflow show last parse --diff', describe: 'what task parse of the newest workflow changed, and what its reviewers said' },
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last' })
      .positional('task', { type: 'string', describe: 'The task id' })
      .option('diff', { type: 'boolean', default: false, describe: "Show the task's change (capped; always in --json as diff)" }),
  async run(args, ctx) {
    const { resolveWorkflowId } = await import('../../../workflow/engine/workflow-id.ts');
    const { showTask } = await import('../../../runs/workflow-show.ts');
    const id = resolveWorkflowId(ctx.repoRoot, String(args.id));
    const show = await showTask({ repoRoot: ctx.repoRoot, env: ctx.deps.env }, id, String(args.task));
    if (ctx.options.json) {
      ctx.out(JSON.stringify(show, null, 2));
      return 0;
    }
    if (show.diff?.notice && args.diff === true) ctx.warn(`notice: ${show.diff.notice}`);
    const { renderTaskShow } = await import('../../../runs/render-workflow-show.ts');
    ctx.out(renderTaskShow(show, args.diff === true));
    return 0;
  },
});
