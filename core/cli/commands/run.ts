import { errors } from '../../errors.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { positive } from '../numbers.ts';
import { repoRelative } from '../targets.ts';

/** Test and tuning knobs read from the environment (documented in README "Running roles"). */
function envMs(ctx: CliContext, name: string): number | undefined {
  const raw = ctx.deps.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw errors.usage(`${name} must be a number of milliseconds, got "${raw}"`);
  return value;
}

/** The largest `--retries`: the same bound as a role's config.max_retries (schemas/role.schema.json). */
async function maxRetries(): Promise<number> {
  const { readAsset } = await import('../../assets.ts');
  const asset = readAsset('schemas/role.schema.json');
  const schema = asset ? (JSON.parse(asset.content) as { properties?: { config?: { properties?: { max_retries?: { maximum?: unknown } } } } }) : {};
  const max = schema.properties?.config?.properties?.max_retries?.maximum;
  return typeof max === 'number' ? max : Infinity;
}

export default defineCommand({
  command: 'run <role>',
  describe: 'Run a role on a task: pack, prompt, run its CLI in a worktree, validate, gate, retry; print one result',
  builder: (y) =>
    y
      .positional('role', { type: 'string', describe: 'Role name (supervisor roles list)' })
      .option('task', { type: 'string', demandOption: 'Give the task: --task "<text>", --task @file or --task - (stdin)', describe: 'The task: text, @file, or - for stdin' })
      .option('target', { type: 'string', array: true, default: [] as string[], describe: 'A file the task is about (repeatable)' })
      .option('cli', { type: 'string', describe: "Adapter to use instead of the role's cli" })
      .option('context', { type: 'string', array: true, default: [] as string[], describe: 'Extra context: key=value or key=@file (repeatable)' })
      .option('timeout', { type: 'string', describe: "Seconds before the CLI's process tree is ended (default: role config.timeout, else 600)" })
      .option('retries', { type: 'string', describe: 'Retries after the first attempt (default: role config.max_retries, else 2)' })
      .option('gate', { type: 'string', array: true, default: [] as string[], describe: "A check command run after a passing answer, in the worktree (repeatable; after the role's gates)" })
      .option('worktree', { type: 'boolean', default: true, describe: 'Run in an isolated git worktree (--no-worktree: in place)' })
      .option('keep-worktree', { type: 'boolean', default: false, describe: 'Keep the worktree folder after the run (the branch always stays)' })
      .option('base', { type: 'string', describe: 'Start the worktree from this commit or branch instead of HEAD' })
      .option('review', { type: 'string', describe: 'Review <base>..<head>, or a branch (its commits since the merge base with --base/HEAD): the git parts come from it, the worktree is at its head' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print the prompt and the exact command line; start nothing' })
      .option('max-cost-usd', { type: 'string', describe: 'Stop further attempts once the summed cost reaches this (default: role config.max_cost_usd)' }),
  async run(args, ctx) {
    const { readKeyValues, readTextArg } = await import('../text-arg.ts');
    const task = await readTextArg(String(args.task), ctx.deps, 'task');
    if (!task.trim()) throw errors.usage('The task is empty', 'Give the task as text, @file or - for stdin.');
    const options = {
      role: String(args.role),
      task,
      targets: (args.target as string[]).map((t) => repoRelative(String(t), ctx.deps.cwd, ctx.repoRoot)),
      extraContext: await readKeyValues(args.context as string[], ctx.deps, 'context'),
      repoRoot: ctx.repoRoot,
      homeDir: ctx.deps.homeDir,
      env: ctx.deps.env,
      registry: await ctx.registry(),
      cli: typeof args.cli === 'string' ? args.cli : undefined,
      timeoutSec: positive(args, 'timeout'),
      retries: positive(args, 'retries', { integer: true, zero: true, max: await maxRetries() }),
      gates: (args.gate as string[]).map(String),
      worktree: args.worktree !== false,
      keepWorktree: args['keep-worktree'] === true,
      maxCostUsd: positive(args, 'max-cost-usd'),
      ...(typeof args.base === 'string' ? { base: args.base } : {}),
      ...(typeof args.review === 'string' ? { review: args.review } : {}),
      graceMs: envMs(ctx, 'SUPERVISOR_KILL_GRACE_MS'),
      backoffMs: envMs(ctx, 'SUPERVISOR_RETRY_BACKOFF_MS'),
      onNotice: (message: string) => ctx.warn(`notice: ${message}`),
    };
    const render = await import('../../engine/render.ts');
    if (args['dry-run'] === true) {
      const { dryRunRole } = await import('../../engine/dry-run.ts');
      const dry = await dryRunRole(options);
      ctx.out(ctx.options.json ? JSON.stringify(dry, null, 2) : render.renderDryRun(dry));
      return 0;
    }
    const { runRole } = await import('../../engine/run-role.ts');
    const controller = new AbortController();
    const stopListening = ctx.deps.onInterrupt(() => {
      if (!controller.signal.aborted) ctx.warn('interrupt: ending the CLI and cleaning up (the checkout is not touched)');
      controller.abort();
    });
    try {
      const result = await runRole({
        ...options,
        signal: controller.signal,
        onEvent: (event) => {
          const line = render.describeEvent(event);
          if (line) ctx.progress(line);
        },
      });
      ctx.out(ctx.options.json ? JSON.stringify(result, null, 2) : render.renderResult(result, ctx.deps.cwd));
      return result.exit_code;
    } finally {
      stopListening();
    }
  },
});
