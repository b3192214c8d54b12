/**
 * `run`: one role on one task, as `supervisor run <role> --json` (same options, same result).
 * Progress notifications carry the run's events; cancelling the request ends the CLI's
 * process tree as Ctrl-C does, and the run finishes `interrupted`.
 */
import type { Args } from '../../command/command.ts';
import { runRoleOptions } from '../../command/run-options.ts';
import { progressReporter } from '../progress.ts';
import { runInput, runOutput } from '../schemas.ts';
import { defineTool } from '../tool.ts';
import { toolResult } from '../tool-result.ts';

export const run = defineTool({
  name: 'run',
  title: 'Run a role',
  description:
    "Runs a role (reviewer, implementer, planner, ...) on a task: packs the repository context, runs the role's CLI in an isolated git worktree (your checkout is never touched), validates the answer against the role's schema, runs its gates, retries with feedback. Returns the result of `supervisor run --json`: status pass | gaps | error, the validated answer as `output`, `issues`, `run_id`, and for workers the `git_range`/`branch` of the commit.",
  startsWork: true,
  input: runInput,
  output: runOutput,
  async call(input, extra, env) {
    // The command's own arguments: one place turns them into engine options, checked as on the command line.
    const args: Args = {
      _: [],
      role: input.role,
      target: input.targets ?? [],
      'allow-host': input.allow_hosts ?? [],
      ...(input.cli === undefined ? {} : { cli: input.cli }),
      ...(input.base === undefined ? {} : { base: input.base }),
      ...(input.review === undefined ? {} : { review: input.review }),
      ...(input.sandbox === undefined ? {} : { sandbox: input.sandbox }),
      ...(input.max_cost_usd === undefined ? {} : { 'max-cost-usd': input.max_cost_usd }),
      ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
    };
    const options = await runRoleOptions(args, env.ctx, { task: input.task, cwd: env.ctx.repoRoot });
    const { runRole } = await import('../../run/run-role.ts');
    const { describeEvent } = await import('../../runs/render.ts');
    const report = progressReporter(extra);
    const result = await env.activity.start(
      (signal) =>
        runRole({
          ...options,
          signal,
          onEvent: (event) => {
            if (event.kind === 'run_started') env.resourcesMayHaveChanged();
            const line = describeEvent(event);
            if (line) report(line);
          },
        }),
      extra.signal,
    );
    env.resourcesMayHaveChanged();
    // No usable answer (or the CLI failed): the result still says why, and the call is an error.
    return toolResult(result as unknown as Record<string, unknown>, { isError: result.status === 'error' });
  },
});
