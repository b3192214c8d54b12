/** `supervisor workflow export <file> --to gitlab-ci|github-actions`: the plan as a CI pipeline (issue 29). */
import { fromCliContext } from '../../../command/app-deps.ts';
import type { ExportTarget, WorkflowExportInput } from '../../../app/workflow-export.ts';
import type { Args } from '../../../command/command.ts';
import { defineCommand } from '../../../command/command.ts';
import type { CliContext } from '../../../command/context.ts';
import { READER_OPTION } from '../../../command/workflow-arg.ts';
import { driveInputFromArgs, driveOptions } from '../../../command/workflow-drive.ts';
import { stringArg } from '../../../command/read-args.ts';

/** argv → the export use case's input. */
export function workflowExportInput(args: Args, ctx: CliContext): WorkflowExportInput {
  const reader = stringArg(args, 'reader');
  const base = stringArg(args, 'base');
  const output = stringArg(args, 'output');
  const remote = stringArg(args, 'remote');
  return {
    ...driveInputFromArgs(args),
    file: stringArg(args, 'file') ?? '',
    to: (stringArg(args, 'to') ?? '') as ExportTarget,
    trust: ctx.options.trust === true,
    ...(reader === undefined ? {} : { reader }),
    ...(base === undefined ? {} : { base }),
    ...(output === undefined ? {} : { output }),
    ...(remote === undefined ? {} : { remote }),
  };
}

export default defineCommand({
  command: 'export <file>',
  describe: "Write the plan as a CI pipeline (GitLab CI or GitHub Actions): one job per task, each running `workflow task ... --remote` with this command's settings, integrating on the shared remote; and a final job for the plan's gates and result. --trust also puts --trust on every job (the team trusts what the plan runs)",
  example: { command: '$0 workflow export plan.yaml --to gitlab-ci -o .gitlab-ci.yml --sandbox bwrap', describe: 'write the GitLab pipeline of the plan (for GitHub: --to github-actions -o .github/workflows/supervisor-<id>.yml)' },
  builder: (y) =>
    driveOptions(y.positional('file', { type: 'string', describe: 'The plan file (commit it: every job reads it, pinned by its sha256)' }).option('reader', READER_OPTION))
      .option('to', { type: 'string', choices: ['gitlab-ci', 'github-actions'], demandOption: true, describe: 'The CI engine: gitlab-ci or github-actions' })
      .option('output', { alias: 'o', type: 'string', describe: 'Write the pipeline to this file (default: stdout), e.g. .gitlab-ci.yml or .github/workflows/supervisor-<id>.yml' })
      .option('remote', { type: 'string', describe: 'The remote every job integrates on, by name or URL (default: $SUPERVISOR_REMOTE on the runner, else origin)' })
      .option('base', { type: 'string', describe: "Commit or branch the integration branch starts from (default: the plan's base, else the job's HEAD)" }),
  async run(args, ctx) {
    const { workflowExport } = await import('../../../app/workflow-export.ts');
    const result = await workflowExport(workflowExportInput(args, ctx), fromCliContext(ctx));
    for (const notice of result.notices) ctx.warn(`notice: ${notice}`);
    if (ctx.options.json) {
      const { text, ...rest } = result;
      ctx.out(JSON.stringify(result.file === null ? { ...rest, text } : rest, null, 2));
    } else if (result.file === null) {
      ctx.out(result.text);
    } else {
      ctx.warn(`wrote ${result.file}: ${result.jobs.length} jobs (${result.jobs.length - 1} tasks and the final one) for the workflow ${result.workflow_id}`);
    }
    return 0;
  },
});
