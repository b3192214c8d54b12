/**
 * `run`: one role on one task, as `supervisor run <role> --json` (same options, same result).
 * Progress notifications carry the run's events; cancelling the request ends the CLI's
 * process tree as Ctrl-C does, and the run finishes `interrupted`.
 */
import type { RunInput } from '../../app/run.ts';
import { errors } from '../../errors.ts';
import { progressReporter } from '../progress.ts';
import { runInput, runOutput } from '../schemas.ts';
import { defineTool } from '../tool.ts';
import { toolResult } from '../tool-result.ts';
import { cliList, mcpDeps } from './workflow.ts';

/** The tool's input → the run use case's input (paths are the repository's). */
export function runToolInput(input: { role: string; task: string; targets?: string[] | undefined; cli?: string | string[] | undefined; base?: string | undefined; review?: string | undefined; sandbox?: string | undefined; allow_hosts?: string[] | undefined; max_cost_usd?: number | undefined; timeout?: number | undefined }): RunInput {
  const clis = cliList(input.cli);
  if (clis.length > 1) throw errors.usage(`run takes one cli, got ${clis.length}: ${clis.join(', ')}`);
  return {
    role: input.role,
    task: input.task,
    targets: input.targets ?? [],
    allowHosts: input.allow_hosts ?? [],
    ...(clis[0] === undefined ? {} : { cli: clis[0] }),
    ...(input.base === undefined ? {} : { base: input.base }),
    ...(input.review === undefined ? {} : { review: input.review }),
    ...(input.sandbox === undefined ? {} : { sandbox: input.sandbox }),
    ...(input.max_cost_usd === undefined ? {} : { maxCostUsd: input.max_cost_usd }),
    ...(input.timeout === undefined ? {} : { timeoutSec: input.timeout }),
  };
}

export const run = defineTool({
  name: 'run',
  title: 'Run a role',
  description:
    "Runs a role (reviewer, implementer, planner, ...) on a task: packs the repository context, runs the role's CLI in an isolated git worktree (your checkout is never touched), validates the answer against the role's schema, runs its gates, retries with feedback. Returns the result of `supervisor run --json`: status pass | gaps | error, the validated answer as `output`, `issues`, `run_id`, and for workers the `git_range`/`branch` of the commit.",
  startsWork: true,
  input: runInput,
  output: runOutput,
  async call(input, extra, env) {
    const { runRequest } = await import('../../app/run.ts');
    const call = await runRequest(runToolInput(input), mcpDeps(env.ctx));
    const { runRole } = await import('../../run/run-role.ts');
    const { describeEvent } = await import('../../runs/render.ts');
    const report = progressReporter(extra);
    const result = await env.activity.start(
      (signal) =>
        runRole(call.request, call.deps, {
          ...call.hooks,
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
