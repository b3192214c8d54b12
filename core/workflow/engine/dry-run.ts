/**
 * `workflow run --dry-run`: the tasks in the order they could start (each wave is what can run
 * once the waves before are integrated), with the roles and the CLI each run would use.
 * Nothing is created: no branch, no state folder, no process.
 */
import { untrustedPlanCommands, type PlanCommand } from '../plan-commands.ts';
import type { CliChoice, WorkflowRunOptions } from './context.ts';

export interface WorkflowDryRun {
  dry_run: true;
  workflow_id: string;
  name: string;
  base: string;
  branch: string;
  jobs: number;
  waves: string[][];
  tasks: { id: string; title: string; depends_on: string[]; worker: string; reviewers: string[]; cli: Record<string, string>; model: string | null; max_rounds: number }[];
  /** Commands of a plan inside an untrusted repository: `workflow run` refuses them until it is trusted. */
  untrusted_commands: PlanCommand[];
}

function chosenCli(options: WorkflowRunOptions, role: string, task: WorkflowRunOptions['workflow']['tasks'][number]): string {
  const cli: CliChoice | undefined = options.cli;
  const fromModel = task.model && options.cliForModel ? options.cliForModel(task.model, options.workflow.models) : null;
  return cli?.byRole[role] ?? cli?.all ?? task.cli ?? fromModel ?? options.workflow.defaults.cli ?? "(the role's own)";
}

export function dryRunWorkflow(options: WorkflowRunOptions): WorkflowDryRun {
  const { workflow } = options;
  const waves: string[][] = [];
  const placed = new Set<string>();
  while (placed.size < workflow.tasks.length) {
    const wave = workflow.tasks.filter((t) => !placed.has(t.id) && t.depends_on.every((d) => placed.has(d))).map((t) => t.id);
    if (!wave.length) break; // the loader refuses cycles; this only guards the loop
    wave.forEach((id) => placed.add(id));
    waves.push(wave);
  }
  return {
    dry_run: true,
    workflow_id: workflow.id,
    name: workflow.name,
    base: options.base ?? workflow.base ?? 'HEAD',
    branch: `supervisor/wf/${workflow.id}`,
    jobs: options.jobs ?? workflow.jobs ?? 2,
    waves,
    tasks: workflow.tasks.map((t) => ({
      id: t.id,
      title: t.title,
      depends_on: t.depends_on,
      worker: t.worker,
      reviewers: t.reviewers,
      cli: Object.fromEntries([t.worker, ...t.reviewers].map((role) => [role, chosenCli(options, role, t)])),
      model: t.model ?? workflow.defaults.model,
      max_rounds: options.maxRounds ?? t.max_rounds,
    })),
    untrusted_commands: untrustedPlanCommands(workflow, options.repoRoot, options.runDefaults?.trustedRepo === true),
  };
}

export function renderDryRun(plan: WorkflowDryRun): string {
  const lines = [`workflow ${plan.workflow_id} (dry run): ${plan.name}`, `base ${plan.base} → branch ${plan.branch}, ${plan.jobs} at once`];
  plan.waves.forEach((wave, i) => lines.push(`wave ${i + 1}: ${wave.join(', ')}`));
  for (const t of plan.tasks) {
    const roles = [t.worker, ...t.reviewers].map((r) => `${r} (${t.cli[r]})`).join(' → ');
    lines.push(`  ${t.id}: ${t.title}${t.depends_on.length ? ` [after ${t.depends_on.join(', ')}]` : ''}`, `      ${roles}; up to ${t.max_rounds} rounds${t.model ? `; model ${t.model}` : ''}`);
  }
  if (plan.untrusted_commands.length) {
    lines.push('commands from the plan (this repository is not trusted: run refuses them until you trust it):');
    for (const c of plan.untrusted_commands) lines.push(`  ${c.pointer}: ${c.command}`);
  }
  return `${lines.join('\n')}\n`;
}
