/**
 * Whether a plan's commands (setup, gates, on_event) may run, decided at each command from the
 * trust store and where the plan really is (SECURITY.md I4), never from stored state:
 * - a trusted repository (trust list or --trust): yes;
 * - a plan file inside the repository: the repository's code, no; unless supervisor wrote it
 *   for this user (`workflow plan`, recorded under ~/.supervisor/written);
 * - a plan file outside it: the user's own on the command line; from an MCP client only with
 *   `supervisor mcp --trust`;
 * - a workflow's stored plan (resume, approve, reject, retry): only when its exact bytes were
 *   recorded when the user started it from a plan of their own. A plan.json a repository
 *   carries, whatever its `source.file` says, is untrusted.
 */
import { isAbsolute, join, relative } from 'node:path';
import { realPathOrSelf } from '../fs/real-path.ts';
import { planCommands, type PlanCommand } from '../workflow/plan-commands.ts';
import type { Workflow } from '../plugin-api/workflow-model.ts';
import { workflowPaths } from '../workflow/engine/names.ts';
import { trustErrors } from '../trust/errors.ts';
import type { AppDeps } from './deps.ts';
import { appErrors } from './errors.ts';
import { readBytes, recordWritten, wasWritten } from './written-record.ts';

export interface PlanTrust {
  trusted: boolean;
  /** repository: the repository is trusted; own: the plan is the user's; none: untrusted. */
  via: 'repository' | 'own' | 'none';
}

export function insideRepository(file: string, repoRoot: string): boolean {
  const rel = relative(realPathOrSelf(repoRoot), realPathOrSelf(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** A plan read from `file` now (run, check, dry run). */
export async function filePlanTrust(file: string, deps: AppDeps): Promise<PlanTrust> {
  if ((await deps.trust()).trusted) return { trusted: true, via: 'repository' };
  const bytes = readBytes(file);
  if (bytes && wasWritten(deps.homeDir, bytes)) return { trusted: true, via: 'own' };
  if (!insideRepository(file, deps.repoRoot) && deps.outsideFilesAreUsers) return { trusted: true, via: 'own' };
  return { trusted: false, via: 'none' };
}

function storedPlanFile(repoRoot: string, id: string): string {
  return join(workflowPaths(repoRoot, id).dir, 'plan.json');
}

/** A workflow's stored plan (resume, approve, reject, retry). */
export async function storedPlanTrust(id: string, deps: AppDeps): Promise<PlanTrust> {
  if ((await deps.trust()).trusted) return { trusted: true, via: 'repository' };
  const bytes = readBytes(storedPlanFile(deps.repoRoot, id));
  return bytes && wasWritten(deps.homeDir, bytes) ? { trusted: true, via: 'own' } : { trusted: false, via: 'none' };
}

/** After a workflow started from a plan of the user's own: its stored plan is remembered as theirs. */
export function rememberStoredPlan(id: string, deps: AppDeps): void {
  const file = storedPlanFile(deps.repoRoot, id);
  const bytes = readBytes(file);
  if (bytes) recordWritten(deps.homeDir, bytes, 'workflow-plan', file);
}

/** The plan's commands that may not run under this decision. */
export function refusedCommands(workflow: Workflow, trust: PlanTrust): PlanCommand[] {
  return trust.trusted ? [] : planCommands(workflow);
}

/** Refuses, before anything starts, a plan file whose commands may not run. */
export function refuseFilePlan(workflow: Workflow, trust: PlanTrust, repoRoot: string): void {
  const commands = refusedCommands(workflow, trust);
  if (commands.length) throw trustErrors.untrustedPlanCommands(workflow.source.file, commands, repoRoot);
}

/** Refuses, before anything starts, a stored plan whose commands may not run. */
export function refuseStoredPlan(id: string, workflow: Workflow, trust: PlanTrust, repoRoot: string): void {
  const commands = refusedCommands(workflow, trust);
  if (commands.length) throw appErrors.untrustedStoredPlan(id, workflow.source.file, commands, repoRoot);
}
