/**
 * `supervisor workflow check <file>`: load and check a plan, and everything its runs need
 * (each role and output schema, each CLI installed and runnable, each sandbox); print its
 * normalised summary (or, with --json, the plan). Starts no run.
 */
import { defineCommand } from '../../../command/command.ts';
import { READER_OPTION, loadWorkflowArg } from '../../../command/workflow-arg.ts';
import { checkCliRoles, cliChoice } from '../../../command/workflow-drive.ts';

export default defineCommand({
  command: 'check <file>',
  describe: 'Read a plan file (workflow YAML, plan markdown, ...) and check it and the CLIs, roles and sandboxes its runs need, without running anything; exit 0 when it can run, 2 when not',
  example: { command: '$0 workflow check plan.yaml --sandbox bwrap', describe: 'check the plan, its roles and CLIs, and the sandbox, running nothing' },
  builder: (y) =>
    y
      .positional('file', { type: 'string', describe: 'The plan file' })
      .option('reader', READER_OPTION)
      .option('cli', { type: 'string', array: true, default: [] as string[], describe: 'Check with this adapter for every role (NAME), or for one role (ROLE=NAME), as workflow run --cli' })
      .option('sandbox', { type: 'string', describe: 'Check with this sandbox for every run, as workflow run --sandbox' })
      .option('allow-command', { type: 'string', array: true, default: [] as string[], describe: 'As workflow run --allow-command ("*" needs a sandbox)' }),
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
    const registry = await ctx.registry();
    const cli = cliChoice((args.cli as string[]).map(String));
    for (const name of [cli?.all, ...Object.values(cli?.byRole ?? {})]) if (name) registry.get('adapter', name);
    checkCliRoles(cli, workflow);
    const { preflight } = await import('../../../workflow/preflight.ts');
    const { cliForModel } = await import('../../../workflow/model-cli.ts');
    await preflight({
      workflow,
      registry,
      repoRoot: ctx.repoRoot,
      homeDir: ctx.deps.homeDir,
      env: ctx.deps.env,
      cliForModel,
      ...(cli ? { cli } : {}),
      ...(typeof args.sandbox === 'string' ? { sandbox: args.sandbox } : {}),
      allowCommands: (args['allow-command'] as string[]).map(String),
    });
    if (ctx.options.json) {
      ctx.out(JSON.stringify(workflow, null, 2));
      return 0;
    }
    const { renderWorkflowSummary } = await import('../../../workflow/render-summary.ts');
    ctx.show(renderWorkflowSummary(workflow, ctx.deps.cwd));
    return 0;
  },
});
