/**
 * Which CLI and model each run of a plan uses, decided once for the engine, `--dry-run` and
 * the checks before a workflow spends: `--cli ROLE=NAME`, `--cli NAME`, the task's cli, its
 * model through the model table, the plan's default, else the role's own.
 */
import type { Workflow, WorkflowTask } from '../plugin-api/workflow-model.ts';

/** Which CLI runs what: `--cli NAME` for every role, `--cli ROLE=NAME` for one. */
export interface CliChoice {
  all?: string;
  byRole: Record<string, string>;
}

export interface CliRouting {
  workflow: Pick<Workflow, 'models' | 'defaults'>;
  cli?: CliChoice;
  /** Model name → adapter (the model table); without it a task's model picks no CLI. */
  cliForModel?: (model: string, overrides: Record<string, string>) => string | null;
}

/** The CLI the plan or the command line chooses for this role of this task; undefined: the role's own. */
export function plannedCli(routing: CliRouting, task: Pick<WorkflowTask, 'cli' | 'model'>, role: string): string | undefined {
  const { cli, cliForModel, workflow } = routing;
  const fromModel = task.model && cliForModel ? cliForModel(task.model, workflow.models) : null;
  return cli?.byRole[role] ?? cli?.all ?? task.cli ?? fromModel ?? workflow.defaults.cli ?? undefined;
}

/** The model the plan gives this task (the task's, else the plan's default); null: the role's own. */
export function plannedModel(workflow: Pick<Workflow, 'defaults'>, task: Pick<WorkflowTask, 'model'>): string | null {
  return task.model ?? workflow.defaults.model ?? null;
}
