/**
 * Shell commands a plan asks to run (the workflow's and each task's `gates`, and any other
 * command field listed in PLAN_COMMAND_FIELDS, such as `setup` and the workflow's `on_event` hooks). A plan file inside an untrusted
 * repository is that repository's code: its commands need trust, as the gates of its role files
 * do (core/trust). A plan outside the repository is the user's own.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { trustErrors } from '../trust/errors.ts';
import type { Workflow } from '../plugin-api/workflow-model.ts';

/** Plan fields, at the workflow's level and each task's, that hold commands to run. Add new ones here. */
// allowed_commands: what a CLI may run is a command the plan chooses too (SECURITY I4).
export const PLAN_COMMAND_FIELDS = ['gates', 'setup', 'on_event', 'allowed_commands'] as const;

export interface PlanCommand {
  /** JSON pointer into the plan, e.g. `/tasks/2/gates/0`. */
  pointer: string;
  /** The task it belongs to; null for the workflow's own. */
  task: string | null;
  command: string;
}

type CommandField = (typeof PLAN_COMMAND_FIELDS)[number];

/** The commands of each field of `holder`, at `prefix(field)` in the plan; `skip`: fields it only inherited. */
function commandsIn(holder: object, prefix: (field: CommandField) => string, task: string | null, skip: (field: CommandField) => boolean = () => false): PlanCommand[] {
  return PLAN_COMMAND_FIELDS.flatMap((field) => {
    if (skip(field)) return [];
    const value = (holder as Record<string, unknown>)[field];
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    return list.flatMap((command, i) => (typeof command === 'string' ? [{ pointer: typeof value === 'string' ? `${prefix(field)}/${field}` : `${prefix(field)}/${field}/${i}`, task, command }] : []));
  });
}

const sameList = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every command the plan asks to run, in plan order, each named where the plan wrote it. */
export function planCommands(workflow: Workflow): PlanCommand[] {
  // A top-level `setup` is read into `defaults.setup` (the gates' worktree runs it too), and each
  // task without its own gets a copy: named once, where the plan has it.
  const defaults = workflow.defaults as unknown as Record<string, unknown>;
  return [
    ...commandsIn(workflow, () => '', null),
    ...commandsIn(workflow.defaults, (field) => (workflow.top_level?.includes(field as 'setup') ? '' : '/defaults'), null),
    ...workflow.tasks.flatMap((task, i) => commandsIn(task, () => `/tasks/${i}`, task.id, (field) => field !== 'gates' && defaults[field] !== undefined && sameList((task as unknown as Record<string, unknown>)[field], defaults[field]))),
  ];
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether the plan file lies inside the repository (its own code, when the repository is untrusted). */
export function planFromRepository(workflow: Workflow, repoRoot: string): boolean {
  const rel = relative(real(repoRoot), real(workflow.source.file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The plan's commands that may not run: those of a plan inside an untrusted repository. */
export function untrustedPlanCommands(workflow: Workflow, repoRoot: string, trusted: boolean): PlanCommand[] {
  return trusted || !planFromRepository(workflow, repoRoot) ? [] : planCommands(workflow);
}

/** Refuses, before anything runs, a plan of an untrusted repository that asks to run commands. */
export function refuseUntrustedPlanCommands(workflow: Workflow, repoRoot: string, trusted: boolean): void {
  const commands = untrustedPlanCommands(workflow, repoRoot, trusted);
  if (commands.length) throw trustErrors.untrustedPlanCommands(workflow.source.file, commands, repoRoot);
}
