/**
 * Per task, what a run of the plan would do besides its roles (28 item 5): whether it waits
 * for approval, its set-up, its gates, the commands its CLIs may run, the sandbox. Shown by
 * `workflow check` and `workflow run --dry-run`.
 */
import type { Workflow } from '../plugin-api/workflow-model.ts';
import type { WorkflowSettings } from './settings.ts';

export interface TaskRunView {
  id: string;
  approve: boolean;
  setup: string[];
  gates: string[];
  /** Besides each role's own allowed_commands. */
  allowed_commands: string[];
  /** The sandbox every run uses; null: each role's own (none unless a role sets one). */
  sandbox: string | null;
}

export function taskRunViews(workflow: Workflow, settings: Pick<WorkflowSettings, 'allow_commands' | 'sandbox'>): TaskRunView[] {
  return workflow.tasks.map((t) => ({
    id: t.id,
    approve: t.approve,
    setup: t.setup ?? workflow.defaults.setup ?? [],
    gates: t.gates,
    allowed_commands: settings.allow_commands,
    sandbox: settings.sandbox,
  }));
}

const list = (items: string[]) => (items.length ? items.join('; ') : '-');

export function renderTaskRunViews(views: TaskRunView[]): string {
  const lines = ['per task:'];
  for (const v of views) {
    lines.push(`  ${v.id}: approve ${v.approve ? 'yes' : 'no'}; sandbox ${v.sandbox ?? "the roles' own"}`, `      set-up: ${list(v.setup)}`, `      gates: ${list(v.gates)}`, `      allowed commands: ${v.allowed_commands.length ? v.allowed_commands.join(', ') : "the roles' own"}`);
  }
  return `${lines.join('\n')}\n`;
}
