/**
 * `supervisor workflow check <file>`: load and check a plan, and everything its runs need
 * (each role and output schema, each CLI installed and runnable, each sandbox, trust for the
 * plan's commands): it refuses what `workflow run` refuses. Prints its normalised summary and,
 * per task, approve, set-up, gates, allowed commands and sandbox (or, with --json, the plan).
 * Starts no run.
 */
import { fromCliContext } from '../../../command/app-deps.ts';
import type { WorkflowCheckInput } from '../../../app/workflow-run.ts';
import type { Args } from '../../../command/command.ts';
import { defineCommand } from '../../../command/command.ts';
import { READER_OPTION } from '../../../command/workflow-arg.ts';
import { listArg, stringArg } from '../../../command/read-args.ts';

/** argv → the check use case's input. */
export function workflowCheckInput(args: Args): WorkflowCheckInput {
  const reader = stringArg(args, 'reader');
  const sandbox = stringArg(args, 'sandbox');
  return { file: stringArg(args, 'file') ?? '', cli: listArg(args, 'cli'), allowCommands: listArg(args, 'allow-command'), ...(reader === undefined ? {} : { reader }), ...(sandbox === undefined ? {} : { sandbox }) };
}

export default defineCommand({
  command: 'check <file>',
  describe: 'Read a plan file (workflow YAML, plan markdown, ...) and check it and the CLIs, roles, sandboxes and trust its runs need, without running anything; exit 0 when it can run, 2 when not',
  example: { command: '$0 workflow check plan.yaml --sandbox bwrap', describe: 'check the plan, its roles and CLIs, and the sandbox, running nothing' },
  builder: (y) =>
    y
      .positional('file', { type: 'string', describe: 'The plan file' })
      .option('reader', READER_OPTION)
      .option('cli', { type: 'string', array: true, default: [] as string[], describe: 'Check with this adapter for every role (NAME), or for one role (ROLE=NAME), as workflow run --cli' })
      .option('sandbox', { type: 'string', describe: 'Check with this sandbox for every run, as workflow run --sandbox' })
      .option('allow-command', { type: 'string', array: true, default: [] as string[], describe: 'As workflow run --allow-command ("*" needs a sandbox)' }),
  async run(args, ctx) {
    const { workflowCheck } = await import('../../../app/workflow-run.ts');
    const { workflow, per_task } = await workflowCheck(workflowCheckInput(args), fromCliContext(ctx));
    // Not an error: a task may create its files. But a typo is worth a line.
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    for (const task of workflow.tasks) {
      for (const file of task.files) {
        if (!/[*?[]/.test(file) && !existsSync(join(ctx.repoRoot, file))) ctx.warn(`warning: task ${task.id}: the file ${file} does not exist in the repository (fine if the task creates it)`);
      }
    }
    if (ctx.options.json) {
      ctx.out(JSON.stringify(workflow, null, 2));
      return 0;
    }
    const { renderWorkflowSummary } = await import('../../../workflow/render-summary.ts');
    const { renderTaskRunViews } = await import('../../../app/workflow-plan-view.ts');
    ctx.show(`${renderWorkflowSummary(workflow, ctx.deps.cwd)}\n${renderTaskRunViews(per_task)}`);
    return 0;
  },
});
