/**
 * `supervisor workflow plan --task "<goal>"`: runs the planner role (through runRole, as `run`
 * does) and writes its phases as a workflow YAML file for a person to read and edit before
 * running it. The file is checked with loadWorkflow right after it is written.
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { errors } from '../../../errors.ts';
import type { RunResult } from '../../../run/result.ts';
import { defineCommand, type Args } from '../../../command/command.ts';
import { flagArg, listArg, stringArg } from '../../../command/read-args.ts';
import type { CliContext } from '../../../command/context.ts';
import { fromCliContext } from '../../../command/app-deps.ts';
import { loadWorkflowArg } from '../../../command/workflow-arg.ts';
import { nameOption } from '../../../command/name-option.ts';

async function runPlanner(args: Args, task: string, ctx: CliContext): Promise<RunResult> {
  const { runRole } = await import('../../../run/run-role.ts');
  const { describeEvent } = await import('../../../runs/render.ts');
  const controller = new AbortController();
  const stopListening = ctx.deps.onInterrupt(() => {
    if (!controller.signal.aborted) ctx.warn('interrupt: ending the planner and cleaning up (the checkout is not touched)');
    controller.abort();
  });
  try {
    // Through the application layer, as `run` does: its refusals, the trust decision and the tuning from the environment.
    const { runRequest } = await import('../../../app/run.ts');
    const cli = nameOption(args, 'cli', 'an adapter name (supervisor plugins list)');
    const call = await runRequest({ role: stringArg(args, 'role') ?? 'planner', task, targets: listArg(args, 'target'), ...(cli === undefined ? {} : { cli }) }, fromCliContext(ctx));
    return await runRole(call.request, call.deps, {
      ...call.hooks,
      signal: controller.signal,
      onEvent: (event) => {
        const line = describeEvent(event);
        if (line) ctx.progress(line);
      },
    });
  } finally {
    stopListening();
  }
}

function header(result: RunResult, goal: string, shown: string): string[] {
  const output = result.output ?? {};
  const risks = Array.isArray(output.risks) ? output.risks.filter((r): r is string => typeof r === 'string') : [];
  const next = typeof output.next_step === 'string' ? output.next_step : null;
  return [
    `Workflow planned by \`supervisor workflow plan\` (planner run ${result.run_id}, status ${result.reported_status ?? result.status}).`,
    `Goal: ${goal.trim().split('\n')[0]}`,
    '',
    'Read and edit it before running it: the tasks, their order (depends_on), files, roles',
    '(worker; reviewers, or review: full | spec-only | none), cli and model, max_rounds.',
    'Every field: supervisor workflow schema (the plan\'s JSON schema).',
    `  check: supervisor workflow check ${shown}`,
    `  run:   supervisor workflow run ${shown}`,
    ...(risks.length ? ['', 'Risks the planner named:', ...risks.map((r) => `  - ${r}`)] : []),
    ...(next ? ['', `Next step (planner): ${next}`] : []),
  ];
}

export default defineCommand({
  command: 'plan',
  describe: 'Run the planner on a goal and write its phases as a workflow YAML file to read and edit before running it',
  example: { command: '$0 workflow plan --task "Migrate auth to sessions" --out plan.yaml', describe: 'have the planner write a workflow file to read and edit' },
  builder: (y) =>
    y
      .option('task', { type: 'string', demandOption: 'Give the goal: --task "<text>", --task @file or --task - (stdin)', describe: 'The goal to plan: text, @file, or - for stdin' })
      .option('out', { type: 'string', describe: 'The workflow file to write (default: .supervisor/workflows/<slug of the goal>.yaml)' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite the file when it exists' })
      .option('cli', { type: 'string', describe: "Adapter the planner runs on instead of the role's cli (e.g. replay, offline)" })
      .option('role', { type: 'string', default: 'planner', describe: 'The planner role' })
      .option('target', { type: 'string', array: true, default: [] as string[], describe: 'A file the goal is about (repeatable)' }),
  async run(args, ctx) {
    const { readTextArg } = await import('../../../command/text-arg.ts');
    const goal = await readTextArg(stringArg(args, 'task') ?? '', ctx.deps, 'task');
    if (!goal.trim()) throw errors.usage('The task is empty', 'Give the goal as text, @file or - for stdin.');
    const { slugify } = await import('../../../workflow/resolve-workflow.ts');
    const out = stringArg(args, 'out');
    const file = out !== undefined ? resolve(ctx.deps.cwd, out) : join(ctx.repoRoot, '.supervisor', 'workflows', `${slugify(goal)}.yaml`);
    // Checked before the planner runs: a person's edits are not overwritten, and no tokens are spent for nothing.
    if (!flagArg(args, 'force') && (await access(file).then(() => true, () => false))) throw errors.fileExists(file);

    const result = await runPlanner(args, goal, ctx);
    const { planToWorkflow, renderPlannedWorkflow } = await import('../../../workflow/plan-to-workflow.ts');
    const planned = result.output ? planToWorkflow(result.output, goal, (m) => ctx.warn(`notice: ${m}`)) : null;
    if (!planned?.tasks.length) {
      ctx.warn(`error: the planner (run ${result.run_id}) gave ${result.output ? 'no phases' : 'no valid answer'} (status ${result.reported_status ?? result.status}); nothing written${result.issues.length ? `\n  ${result.issues.join('\n  ')}` : ''}`);
      if (ctx.options.json) ctx.out(JSON.stringify({ file: null, workflow_id: null, tasks: [], run_id: result.run_id, planner_status: result.status, exit_code: result.exit_code || 1 }, null, 2));
      return result.exit_code || 1;
    }
    const shown = relative(ctx.deps.cwd, file) || file;
    await mkdir(dirname(file), { recursive: true });
    const text = renderPlannedWorkflow(planned, header(result, goal, shown));
    await writeFile(file, text);
    // Written at the user's request: the user's own plan, runnable without --trust while it is these bytes (core/app/plan-trust.ts).
    const { recordWritten } = await import('../../../app/written-record.ts');
    recordWritten(ctx.deps.homeDir, text, 'plan', file);
    const workflow = await loadWorkflowArg(file, ctx).catch((error: unknown) => {
      ctx.warn(`Wrote ${shown}, but it does not load as a workflow: fix it by hand (the error follows).`);
      throw error;
    });
    if (result.status !== 'pass') ctx.warn(`notice: the planner's status is ${result.reported_status ?? result.status}: read the plan closely before running it`);
    if (ctx.options.json) {
      ctx.out(JSON.stringify({ file, workflow_id: workflow.id, tasks: workflow.tasks.map((t) => t.id), run_id: result.run_id, planner_status: result.status, exit_code: result.exit_code }, null, 2));
    } else {
      ctx.show(`Wrote ${shown}: ${workflow.tasks.length} task${workflow.tasks.length === 1 ? '' : 's'} (${workflow.tasks.map((t) => `${t.id}${t.depends_on.length ? ` after ${t.depends_on.join(', ')}` : ''}`).join('; ')})`);
      ctx.warn(`Read and edit it, then: supervisor workflow check ${shown} && supervisor workflow run ${shown}`);
    }
    return result.exit_code;
  },
});
