/** `supervisor workflow run <file>`: run a plan as a DAG of tasks into supervisor/wf/<id>. */
import { fromCliContext } from '../../../command/app-deps.ts';
import type { WorkflowRunInput } from '../../../app/workflow-run.ts';
import type { Args } from '../../../command/command.ts';
import { defineCommand } from '../../../command/command.ts';
import { READER_OPTION } from '../../../command/workflow-arg.ts';
import { driveInputFromArgs, driveOptions, driveWorkflow } from '../../../command/workflow-drive.ts';
import { stringArg } from '../../../command/read-args.ts';

/** argv → the run use case's input. */
export function workflowRunInput(args: Args): WorkflowRunInput {
  const reader = stringArg(args, 'reader');
  const base = stringArg(args, 'base');
  return { ...driveInputFromArgs(args), file: stringArg(args, 'file') ?? '', ...(reader === undefined ? {} : { reader }), ...(base === undefined ? {} : { base }) };
}

export default defineCommand({
  command: 'run <file>',
  describe: 'Run a plan: each task implemented in its own worktree, reviewed in a loop, merged into supervisor/wf/<id>; your checkout is never touched',
  example: { command: '$0 workflow run plan.yaml --jobs 3 --max-cost-usd 5', describe: 'run the plan, three tasks at once, stopping new runs at $5' },
  builder: (y) =>
    driveOptions(y.positional('file', { type: 'string', describe: 'The plan file' }).option('reader', READER_OPTION))
      .option('base', { type: 'string', describe: "Commit or branch the integration branch starts from (default: the plan's base, else HEAD)" })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Show the tasks, their order, CLIs and per task approve, set-up, gates, allowed commands and sandbox; start nothing, create nothing (exit 2 when run would refuse)' }),
  async run(args, ctx) {
    const input = workflowRunInput(args);
    const deps = fromCliContext(ctx);
    if (args['dry-run'] === true) {
      const { workflowDryRun } = await import('../../../app/workflow-run.ts');
      const { plan, refusal } = await workflowDryRun(input, deps);
      if (plan.untrusted_commands.length) {
        const { untrustedNotice } = await import('../../../trust/decide.ts');
        ctx.warn(`notice: ${untrustedNotice(`${plan.untrusted_commands.length} command${plan.untrusted_commands.length === 1 ? '' : 's'} of the plan (${plan.untrusted_commands.map((c) => c.pointer).join(', ')})`, ctx.repoRoot)}`);
      }
      if (ctx.options.json) ctx.out(JSON.stringify(plan, null, 2));
      else {
        const { renderDryRun } = await import('../../../workflow/engine/dry-run.ts');
        const { renderTaskRunViews } = await import('../../../app/workflow-plan-view.ts');
        ctx.show(`${renderDryRun(plan)}${renderTaskRunViews(plan.per_task)}`);
      }
      // What a real run would refuse, refused here too (exit 2), after showing the plan.
      if (refusal) throw refusal;
      return 0;
    }
    const { prepareWorkflowRun } = await import('../../../app/workflow-run.ts');
    return driveWorkflow(ctx, await prepareWorkflowRun(input, deps));
  },
});
