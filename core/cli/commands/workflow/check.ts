/** `supervisor workflow check <file>`: load and check a plan; print its normalised summary (or, with --json, the plan). */
import { defineCommand } from '../../command.ts';
import { READER_OPTION, loadWorkflowArg } from '../../workflow-arg.ts';

export default defineCommand({
  command: 'check <file>',
  describe: 'Read a plan file (workflow YAML, plan markdown, ...) and check it without running anything; exit 0 when valid, 2 when not',
  builder: (y) => y.positional('file', { type: 'string', describe: 'The plan file' }).option('reader', READER_OPTION),
  async run(args, ctx) {
    const workflow = await loadWorkflowArg(String(args.file), ctx, args.reader);
    // Not an error: a task may create its files. But a typo is worth a line before anything runs.
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
    ctx.show(renderWorkflowSummary(workflow, ctx.deps.cwd));
    return 0;
  },
});
