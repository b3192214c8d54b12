/** Loads the plan file a `workflow` subcommand names, with the registry and the role folders of this repository. */
import { resolve } from 'node:path';
import type { Workflow } from '../plugin-api/workflow-model.ts';
import type { CliContext } from './context.ts';

/** The `--reader` option every subcommand that reads a plan file takes. */
export const READER_OPTION = { type: 'string', describe: 'Plan reader to use (default: chosen by the file; supervisor plugins list)' } as const;

export async function loadWorkflowArg(file: string, ctx: CliContext, reader?: unknown): Promise<Workflow> {
  const { loadWorkflow } = await import('../workflow/load-workflow.ts');
  return loadWorkflow(resolve(ctx.deps.cwd, file), {
    registry: await ctx.registry(),
    repoRoot: ctx.repoRoot,
    homeDir: ctx.deps.homeDir,
    reader: typeof reader === 'string' ? reader : undefined,
    onNotice: (message) => ctx.warn(`notice: ${message}`),
  });
}
