/** `supervisor workflow run <file>`: run a plan as a DAG of tasks into supervisor/wf/<id>. */
import { defineCommand } from '../../../command/command.ts';
import { checkCliRoles, driveOptions, driveWorkflow, engineOptions } from '../../../command/workflow-drive.ts';
import { READER_OPTION, loadWorkflowArg } from '../../../command/workflow-arg.ts';

export default defineCommand({
  command: 'run <file>',
  describe: 'Run a plan: each task implemented in its own worktree, reviewed in a loop, merged into supervisor/wf/<id>; your checkout is never touched',
  example: { command: '$0 workflow run plan.yaml --jobs 3 --max-cost-usd 5', describe: 'run the plan, three tasks at once, stopping new runs at $5' },
  builder: (y) =>
    driveOptions(y.positional('file', { type: 'string', describe: 'The plan file' }).option('reader', READER_OPTION))
      .option('base', { type: 'string', describe: "Commit or branch the integration branch starts from (default: the plan's base, else HEAD)" })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Show the tasks, their order and CLIs; start nothing, create nothing' }),
  async run(args, ctx) {
    const workflow = await loadWorkflowArg(String(args.file), ctx, args.reader);
    const options = await engineOptions(args, ctx);
    checkCliRoles(options.cli, workflow);
    if (typeof args.base === 'string') options.base = args.base;
    // Every CLI, role, schema and sandbox the plan needs, checked before anything starts (exit 2).
    // A dry run shows the plan all the same, and says what the real run would refuse.
    const { preflight } = await import('../../../workflow/preflight.ts');
    const checked = preflight({ ...options, workflow, allowCommands: options.runDefaults?.allowCommands ?? [] });
    if (args['dry-run'] === true) {
      await checked.catch((error: Error) => ctx.warn(`notice: workflow run would stop before starting anything: ${error.message}`));
      const { dryRunWorkflow, renderDryRun } = await import('../../../workflow/engine/dry-run.ts');
      const plan = await dryRunWorkflow({ ...options, workflow });
      if (plan.untrusted_commands.length) {
        const { untrustedNotice } = await import('../../../trust/decide.ts');
        ctx.warn(`notice: ${untrustedNotice(`${plan.untrusted_commands.length} command${plan.untrusted_commands.length === 1 ? '' : 's'} of the plan (${plan.untrusted_commands.map((c) => c.pointer).join(', ')})`, ctx.repoRoot)}`);
      }
      if (ctx.options.json) ctx.out(JSON.stringify(plan, null, 2));
      else ctx.show(renderDryRun(plan));
      return 0;
    }
    await checked;
    const { runWorkflow } = await import('../../../workflow/engine/run-workflow.ts');
    return driveWorkflow(ctx, workflow.tasks.map((t) => t.id), (extra) => runWorkflow({ ...options, ...extra, workflow }));
  },
});
