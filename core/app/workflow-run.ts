/**
 * Use cases that read a plan file: `workflow run`, `workflow run --dry-run` and `workflow check`.
 * Every refusal happens in `prepare*` before anything starts (SECURITY.md; issue 26): the
 * plan's commands without trust, a CLI the plan needs that is not installed, a role or sandbox
 * that does not load, "*" allowed without a sandbox. The command line and MCP call these.
 */
import { resolve } from 'node:path';
import type { Registry } from '../registry.ts';
import type { Workflow } from '../plugin-api/workflow-model.ts';
import type { WorkflowRunOptions } from '../workflow/engine/context.ts';
import type { WorkflowDryRun } from '../workflow/engine/dry-run.ts';
import type { WorkflowResult } from '../workflow/engine/result.ts';
import type { AppDeps } from './deps.ts';
import { filePlanTrust, refuseFilePlan, refusedCommands, rememberStoredPlan, type PlanTrust } from './plan-trust.ts';
import { startingSettings, writeSettings, type WorkflowSettings } from './settings.ts';
import { checkCliRoles, engineOptions, givenSettings, type DriveInput } from './workflow-options.ts';
import { taskRunViews, type TaskRunView } from './workflow-plan-view.ts';

export interface PlanFileInput {
  /** The plan file, relative to deps.cwd. */
  file: string;
  /** The plan reader (default: chosen by the file). */
  reader?: string;
}

export interface WorkflowRunInput extends PlanFileInput, DriveInput {
  /** Commit or branch the integration branch starts from. */
  base?: string;
}

/** What the caller wires in: Ctrl-C or a cancelled request, progress, notices, the id once known. */
export type WorkflowHooks = Pick<WorkflowRunOptions, 'signal' | 'onProgress' | 'onNotice' | 'onStart'>;

/** A workflow checked and ready: nothing has started yet. */
export interface PreparedWorkflow {
  /** Known before start for resume, approve, reject and retry; null for a new run. */
  workflowId: string | null;
  taskIds: string[];
  start(hooks: WorkflowHooks): Promise<WorkflowResult>;
}

export async function loadPlanFile(input: PlanFileInput, deps: AppDeps): Promise<Workflow> {
  const { loadWorkflow } = await import('../workflow/load-workflow.ts');
  return loadWorkflow(resolve(deps.cwd, input.file), {
    registry: await deps.registry(),
    repoRoot: deps.repoRoot,
    homeDir: deps.homeDir,
    ...(input.reader === undefined ? {} : { reader: input.reader }),
    onNotice: (message) => deps.warn(`notice: ${message}`),
  });
}

export interface Checked {
  workflow: Workflow;
  registry: Registry;
  settings: WorkflowSettings;
  planTrust: PlanTrust;
  options: Omit<WorkflowRunOptions, 'workflow'>;
}

/** The plan loaded and resolved with this command's settings; refusals not yet applied. */
export async function resolvePlan(input: WorkflowRunInput, deps: AppDeps): Promise<Checked> {
  const workflow = await loadPlanFile(input, deps);
  const registry = await deps.registry();
  const given = await givenSettings(input, registry);
  checkCliRoles(given.cli, workflow);
  const repository = await deps.trust();
  const planTrust = await filePlanTrust(resolve(deps.cwd, input.file), deps);
  const settings = startingSettings(workflow.id, given, { repository: repository.trusted, via: repository.via, plan_commands: planTrust.trusted });
  const options = await engineOptions(settings, input, deps, registry, { repository: repository.trusted, planCommands: planTrust.trusted });
  if (input.base !== undefined) options.base = input.base;
  return { workflow, registry, settings, planTrust, options };
}

/** Every check `workflow run` makes before it starts anything; throws the first refusal. */
export async function refuse(checked: Checked, deps: AppDeps, where: { elsewhere?: boolean } = {}): Promise<void> {
  refuseFilePlan(checked.workflow, checked.planTrust, deps.repoRoot);
  const { preflight } = await import('../workflow/preflight.ts');
  await preflight({ ...checked.options, workflow: checked.workflow, allowCommands: checked.settings.allow_commands, ...(where.elsewhere ? { elsewhere: true } : {}) });
}

export async function prepareWorkflowRun(input: WorkflowRunInput, deps: AppDeps): Promise<PreparedWorkflow> {
  const checked = await resolvePlan(input, deps);
  await refuse(checked, deps);
  const { workflow, options, settings, planTrust } = checked;
  return {
    workflowId: null,
    taskIds: workflow.tasks.map((t) => t.id),
    async start(hooks) {
      const { runWorkflow } = await import('../workflow/engine/run-workflow.ts');
      return runWorkflow({
        ...options,
        ...hooks,
        workflow,
        onStart: (info) => {
          // The state folder exists: what the workflow was started with, and (a plan of the user's own) its stored plan as theirs.
          writeSettings(deps.repoRoot, deps.homeDir, { ...settings, workflow_id: info.workflow_id });
          if (planTrust.via === 'own') rememberStoredPlan(info.workflow_id, deps);
          hooks.onStart?.(info);
        },
      });
    },
  };
}

export interface DryRunView extends WorkflowDryRun {
  per_task: TaskRunView[];
}

/** `workflow run --dry-run`: the plan as it would run, and the refusal `run` would meet (null: none). Creates nothing. */
export async function workflowDryRun(input: WorkflowRunInput, deps: AppDeps): Promise<{ plan: DryRunView; refusal: Error | null }> {
  const checked = await resolvePlan(input, deps);
  const refusal = await refuse(checked, deps).then(
    () => null,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  const { dryRunWorkflow } = await import('../workflow/engine/dry-run.ts');
  const dry = await dryRunWorkflow({ ...checked.options, workflow: checked.workflow });
  return { plan: { ...dry, untrusted_commands: refusedCommands(checked.workflow, checked.planTrust), per_task: taskRunViews(checked.workflow, checked.settings) }, refusal };
}

export type WorkflowCheckInput = PlanFileInput & Pick<DriveInput, 'cli' | 'sandbox' | 'allowCommands'>;

/** `workflow check`: refuses what `workflow run` refuses; otherwise the plan and what each task would run with. */
export async function workflowCheck(input: WorkflowCheckInput, deps: AppDeps): Promise<{ workflow: Workflow; per_task: TaskRunView[] }> {
  const checked = await resolvePlan(input, deps);
  await refuse(checked, deps);
  return { workflow: checked.workflow, per_task: taskRunViews(checked.workflow, checked.settings) };
}
