/**
 * A reader's WorkflowInput → the normalised Workflow: defaults filled in, the CLI of each task
 * chosen (its own `cli`, else its model through the model table, else the defaults'), and the
 * id made stable: `<slug of the name>-<short hash of the normalised plan>` unless the plan names one.
 */
import { checkAllowedCommands } from '../run/allowed-commands.ts';
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import { cliForModel } from './model-cli.ts';
import type { Workflow, WorkflowDefaults, WorkflowInput, WorkflowTask } from '../plugin-api/workflow-model.ts';
import { reviewersForLevel } from '../plugin-api/review-levels.ts';

export const DEFAULT_WORKER = 'worker';
export const DEFAULT_MAX_ROUNDS = 3;

/** "Codex Worker/Reviewer Parity: Phase 1" → "codex-worker-reviewer-parity-phase-1" (at most 40 characters). */
export function slugify(name: string): string {
  const slug = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return slug || 'workflow';
}

/**
 * Set-up fields (`setup`, `copy`) are in the model only when a plan gives them: a plan without
 * set-up reads, hashes and is stored as it was before set-up existed.
 */
function listed<K extends 'setup' | 'copy'>(key: K, value: string[] | undefined): { [P in K]?: string[] } {
  return (value?.length ? { [key]: [...value] } : {}) as { [P in K]?: string[] };
}

/** The CLI a task runs on, or null (the role's own). A model the table cannot place stays null: the checks report it. */
function taskCli(own: { cli?: string | null; model?: string | null }, defaults: WorkflowDefaults, models: Record<string, string>): string | null {
  if (own.cli) return own.cli;
  if (own.model) return cliForModel(own.model, models);
  if (defaults.cli) return defaults.cli;
  return defaults.model ? cliForModel(defaults.model, models) : null;
}

function resolveTask(task: WorkflowInput['tasks'][number], defaults: WorkflowDefaults, models: Record<string, string>): WorkflowTask {
  return {
    id: task.id,
    title: task.title.trim() || task.id,
    task: task.task,
    files: task.files ?? [],
    depends_on: [...new Set(task.depends_on ?? [])],
    worker: task.worker ?? defaults.worker,
    reviewers: task.reviewers ?? [...defaults.reviewers],
    cli: taskCli(task, defaults, models),
    model: task.model ?? defaults.model,
    gates: task.gates ?? [],
    ...listed('setup', task.setup ?? defaults.setup),
    ...listed('copy', task.copy ?? defaults.copy),
    ...allowed(task.allowed_commands ?? defaults.allowed_commands, `task ${task.id}'s allowed_commands`),
    max_rounds: task.max_rounds ?? defaults.max_rounds,
    approve: task.approve ?? defaults.approve,
  };
}

/** A plan's allowed commands, checked against the grammar (ALLOWED_COMMAND_INVALID); in the model only when given. */
function allowed(value: string[] | undefined, source: string): { allowed_commands?: string[] } {
  if (value === undefined) return {};
  checkAllowedCommands(value, source);
  return { allowed_commands: [...value] };
}

/** The short hash of everything that makes the plan what it is (not its id or where it was read from). */
function planHash(workflow: object): string {
  return createHash('sha256').update(JSON.stringify(workflow)).digest('hex').slice(0, 8);
}

export function resolveWorkflow(input: WorkflowInput, source: { file: string; reader: string }): Workflow {
  const defaults: WorkflowDefaults = {
    worker: input.defaults?.worker ?? DEFAULT_WORKER,
    reviewers: input.defaults?.reviewers ?? reviewersForLevel('full'),
    cli: input.defaults?.cli ?? null,
    model: input.defaults?.model ?? null,
    max_rounds: input.defaults?.max_rounds ?? DEFAULT_MAX_ROUNDS,
    approve: input.defaults?.approve ?? false,
    ...listed('setup', input.defaults?.setup ?? input.setup),
    ...listed('copy', input.defaults?.copy ?? input.copy),
    ...allowed(input.defaults?.allowed_commands, "the plan's defaults.allowed_commands"),
  };
  const models = { ...(input.models ?? {}) };
  const plan = {
    name: input.name?.trim() || basename(source.file, extname(source.file)),
    base: input.base ?? null,
    jobs: input.jobs ?? null,
    gates: input.gates ?? [],
    gates_on: input.gates_on ?? 'merge',
    max_cost_usd: input.max_cost_usd ?? null,
    ...(input.setup_once === false ? { setup_once: false } : {}),
    ...(input.setup_timeout == null ? {} : { setup_timeout: input.setup_timeout }),
    defaults,
    models,
    tasks: input.tasks.map((task) => resolveTask(task, defaults, models)),
  };
  const id = input.id ?? `${slugify(plan.name)}-${planHash(plan)}`;
  const merge = input.merge ?? 'merge';
  const onEvent = input.on_event ?? [];
  const { setup_once, setup_timeout } = plan as Partial<Pick<Workflow, 'setup_once' | 'setup_timeout'>>;
  const topLevel = (['setup', 'copy'] as const).filter((field) => input[field] !== undefined && input.defaults?.[field] === undefined);
  return {
    id,
    name: plan.name,
    source,
    base: plan.base,
    jobs: plan.jobs,
    gates: plan.gates,
    gates_on: plan.gates_on,
    max_cost_usd: plan.max_cost_usd,
    ...(setup_once === false ? { setup_once } : {}),
    ...(setup_timeout ? { setup_timeout } : {}),
    defaults,
    ...(topLevel.length ? { top_level: topLevel } : {}),
    models,
    merge,
    on_event: onEvent,
    tasks: plan.tasks,
  };
}
