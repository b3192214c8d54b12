/**
 * Use cases that continue a recorded workflow: resume, approve, reject, retry. Each one, before
 * anything starts: the workflow exists and no live process holds it (WORKFLOW_BUSY); its stored
 * plan's commands are trusted now (plan-trust.ts: decided again, never read from state); the
 * recorded settings apply (settings.ts), loosened only when asked; and the preflight `run`
 * makes passes with them.
 */
import type { WorkflowResult } from '../workflow/engine/result.ts';
import type { WorkflowRunOptions } from '../workflow/engine/context.ts';
import type { AppDeps } from './deps.ts';
import { appErrors } from './errors.ts';
import { refuseStoredPlan, storedPlanTrust } from './plan-trust.ts';
import { applyGiven, readSettings, startingSettings, writeSettings, type WorkflowSettings } from './settings.ts';
import { checkCliRoles, engineOptions, givenSettings, type DriveInput } from './workflow-options.ts';
import type { PreparedWorkflow } from './workflow-run.ts';

export interface WorkflowResumeInput extends DriveInput {
  /** Id, unique part, or `last`; absent: the newest unfinished workflow. */
  id?: string;
}

export interface WorkflowRetryInput extends DriveInput {
  id: string;
  /** Tasks to run again (empty: every task that did not end integrated). */
  tasks: string[];
  fresh?: boolean;
}

export interface WorkflowDecideInput extends DriveInput {
  id: string;
  tasks: string[];
  decision: 'approved' | 'rejected';
  /** The worker's feedback (reject). */
  issues: string[];
  /** Who decides (recorded on the approval). */
  by: string;
  /** Continue the workflow after recording (default true). */
  resume?: boolean;
}

async function resolveId(query: string | undefined, deps: AppDeps, unfinished: boolean): Promise<string> {
  const { resolveWorkflowId } = await import('../workflow/engine/workflow-id.ts');
  return resolveWorkflowId(deps.repoRoot, query, { unfinished });
}

/** Refuses a workflow a live process (of another command) holds. */
async function refuseBusy(id: string, deps: AppDeps): Promise<void> {
  const { WorkflowStore } = await import('../workflow/engine/store.ts');
  const { engineErrors } = await import('../workflow/engine/errors.ts');
  const store = new WorkflowStore(deps.repoRoot, id);
  if (!store.exists()) throw engineErrors.notFound(id, []);
  const owner = store.owner();
  if (owner) throw engineErrors.busy(id, owner.pid);
}

/** What a command can continue: resume an unfinished workflow, retry a finished one (the engine checks again under its lock). */
type Continuable = (finished: WorkflowResult | null) => void;

async function resumable(id: string): Promise<Continuable> {
  const { RESUMABLE } = await import('../workflow/engine/result.ts');
  const { engineErrors } = await import('../workflow/engine/errors.ts');
  return (finished) => {
    if (finished && !RESUMABLE.includes(finished.status)) throw engineErrors.finished(id, finished.status);
  };
}

async function retryable(id: string): Promise<Continuable> {
  const { engineErrors } = await import('../workflow/engine/errors.ts');
  return (finished) => {
    if (!finished) throw engineErrors.unfinishedRetry(id);
  };
}

/** Every refusal, then the engine's options and the settings to record when it starts. */
async function prepareContinue(id: string, input: DriveInput, deps: AppDeps, command: string, can: Continuable): Promise<{ options: Omit<WorkflowRunOptions, 'workflow'>; taskIds: string[]; record: () => void }> {
  await refuseBusy(id, deps);
  const { WorkflowStore } = await import('../workflow/engine/store.ts');
  // Read (and checked) whole, as the engine reads it: a corrupt file is WORKFLOW_CORRUPT before anything else.
  const { plan: workflow, result } = new WorkflowStore(deps.repoRoot, id).read();
  can(result);
  const registry = await deps.registry();
  const given = await givenSettings(input, registry);
  checkCliRoles(given.cli, workflow);
  const repository = await deps.trust();
  const planTrust = await storedPlanTrust(id, deps);
  refuseStoredPlan(id, workflow, planTrust, deps.repoRoot);
  const recorded = readSettings(deps.repoRoot, id, deps.homeDir);
  if (recorded.kind === 'foreign') deps.warn(`warning: ${recorded.file} was not written by supervisor for you (a repository may carry it): its settings are not used; this command's are`);
  const trust = { repository: repository.trusted, via: repository.via, plan_commands: planTrust.trusted };
  let settings: WorkflowSettings;
  let change: { loosened: string[]; tightened: string[] } = { loosened: [], tightened: [] };
  if (recorded.kind === 'ours') {
    const applied = applyGiven(recorded.settings, given);
    if (applied.loosened.length && input.loosen !== true) throw appErrors.loosening(id, applied.loosened);
    if (applied.loosened.length) deps.warn(`notice: loosening the settings of workflow ${id} (--loosen): ${applied.loosened.join('; ')}`);
    settings = applied.settings;
    change = applied;
  } else {
    settings = startingSettings(id, given, trust);
  }
  const options = await engineOptions(settings, input, deps, registry, { repository: repository.trusted, planCommands: planTrust.trusted });
  const { preflight } = await import('../workflow/preflight.ts');
  await preflight({ ...options, workflow, allowCommands: settings.allow_commands });
  const changed = change.loosened.length || change.tightened.length;
  const record = () =>
    writeSettings(deps.repoRoot, deps.homeDir, changed ? { ...settings, changes: [...settings.changes, { at: new Date().toISOString(), command, ...change }] } : settings);
  return { options, taskIds: workflow.tasks.map((t) => t.id), record };
}

async function resumePrepared(id: string, input: DriveInput, deps: AppDeps, command: string): Promise<PreparedWorkflow> {
  const { options, taskIds, record } = await prepareContinue(id, input, deps, command, await resumable(id));
  return {
    workflowId: id,
    taskIds,
    async start(hooks) {
      record();
      const { resumeWorkflow } = await import('../workflow/engine/run-workflow.ts');
      return resumeWorkflow(id, { ...options, ...hooks });
    },
  };
}

export async function prepareWorkflowResume(input: WorkflowResumeInput, deps: AppDeps): Promise<PreparedWorkflow> {
  return resumePrepared(await resolveId(input.id, deps, true), input, deps, 'resume');
}

export async function prepareWorkflowRetry(input: WorkflowRetryInput, deps: AppDeps): Promise<PreparedWorkflow> {
  const id = await resolveId(input.id, deps, false);
  const { options, taskIds, record } = await prepareContinue(id, input, deps, 'retry', await retryable(id));
  return {
    workflowId: id,
    taskIds,
    async start(hooks): Promise<WorkflowResult> {
      record();
      const { retryWorkflow } = await import('../workflow/engine/retry-workflow.ts');
      return retryWorkflow(id, input.tasks, { ...options, ...hooks, fresh: input.fresh === true });
    },
  };
}

export interface Decided {
  workflow_id: string;
  decision: 'approved' | 'rejected';
  by: string;
  tasks: string[];
  issues: string[];
  /** The continuation (resume: true), checked; null when only the decision was recorded. */
  next: PreparedWorkflow | null;
}

/**
 * Approve or reject: with resume, every refusal of resume comes first, so a refused command
 * records no decision; then the decision (under the workflow's lock), then the continuation.
 */
export async function workflowDecide(input: WorkflowDecideInput, deps: AppDeps): Promise<Decided> {
  const id = await resolveId(input.id, deps, false);
  const next = input.resume === false ? null : await resumePrepared(id, input, deps, input.decision === 'approved' ? 'approve' : 'reject');
  if (!next) await refuseBusy(id, deps);
  const { decideTasks } = await import('../workflow/engine/approval.ts');
  decideTasks(deps.repoRoot, id, input.tasks, { decision: input.decision, by: input.by, issues: input.issues });
  return { workflow_id: id, decision: input.decision, by: input.by, tasks: input.tasks, issues: input.issues, next };
}
