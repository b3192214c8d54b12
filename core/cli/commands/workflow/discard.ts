/** `supervisor workflow discard <id> [--force]`: remove a workflow's branches, worktrees, runs and state. */
import { fromCliContext } from '../../../command/app-deps.ts';
import { defineCommand } from '../../../command/command.ts';
import { flagArg, stringArg } from '../../../command/read-args.ts';
import type { DiscardOutcome } from '../../../app/workflow-discard.ts';

function renderDiscard(outcome: DiscardOutcome): string {
  const lines = outcome.branches.map((b) => `deleted branch ${b.name} (was ${b.commit.slice(0, 12)}${b.unmerged ? `; dropped: ${b.unmerged}` : ''})`);
  lines.push(...outcome.worktrees.map((w) => `removed worktree ${w}`));
  lines.push(`discarded ${outcome.workflow_id}: ${outcome.branches.length} branch(es), ${outcome.worktrees.length} worktree(s), ${outcome.runs.length} run folder(s)${outcome.state ? ', its state' : ''}`);
  return lines.join('\n');
}

export default defineCommand({
  command: 'discard <id>',
  describe: "Remove a workflow: its branches (supervisor/wf/<id>...), worktrees, runs and state; work merged nowhere else needs --force",
  example: { command: '$0 workflow discard last', describe: 'remove the newest workflow, once its work is merged or handed on' },
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last' })
      .option('force', { type: 'boolean', default: false, describe: 'Also drop work found nowhere else (named in the refusal without it)' }),
  async run(args, ctx) {
    const { workflowDiscard } = await import('../../../app/workflow-discard.ts');
    const outcome = await workflowDiscard({ id: stringArg(args, 'id') ?? '', force: flagArg(args, 'force') }, fromCliContext(ctx));
    ctx.out(ctx.options.json ? JSON.stringify(outcome, null, 2) : renderDiscard(outcome));
    return 0;
  },
});
