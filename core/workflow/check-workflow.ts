/**
 * The checks a plan passes before anything runs: tasks exist and have text, ids are unique and
 * name branches, dependencies name tasks and hold no cycle, files stay inside the repository,
 * and every CLI, model and role is known. Every problem is collected, each with its pointer.
 */
import { isAbsolute, normalize } from 'node:path';
import { suggest } from '../text/suggest.ts';
import type { WorkflowProblem } from './errors.ts';
import type { Workflow, WorkflowInput } from '../plugin-api/workflow-model.ts';

/**
 * Ids name git branches (`supervisor/wf/<id>`, `supervisor/wf/<id>--<task>`): a safe subset of
 * what git allows, without `--`, which joins the workflow's id and a task's in a task branch's
 * name; so no task branch of one workflow can be another workflow's integration or task branch.
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id) && !id.includes('..') && !id.includes('--') && !id.endsWith('.') && !id.endsWith('.lock') && id.length <= 100;
}

/** Why an id is refused, after "is not a valid task id". */
function idReason(id: string): string {
  return id.includes('--') && isValidId(id.replaceAll(/-{2,}/g, '-')) ? ': "--" joins the workflow id and a task id in branch names (supervisor/wf/<workflow>--<task>), so no id may contain it' : '';
}

type Problem = Omit<WorkflowProblem, 'line'>;

function idProblems(workflow: Workflow, input: WorkflowInput): Problem[] {
  const problems: Problem[] = [];
  if (input.id !== undefined && !isValidId(workflow.id)) {
    problems.push({ code: 'WORKFLOW_BAD_ID', pointer: '/id', message: `${JSON.stringify(workflow.id)} is not a valid workflow id${idReason(workflow.id)}` });
  }
  const seen = new Map<string, number>();
  workflow.tasks.forEach((task, i) => {
    if (!isValidId(task.id)) problems.push({ code: 'WORKFLOW_BAD_ID', pointer: `/tasks/${i}/id`, task: task.id, message: `${JSON.stringify(task.id)} is not a valid task id${idReason(task.id)}` });
    const first = seen.get(task.id);
    if (first !== undefined) problems.push({ code: 'WORKFLOW_DUPLICATE_TASK', pointer: `/tasks/${i}/id`, task: task.id, message: `the id "${task.id}" is already the id of /tasks/${first}` });
    else seen.set(task.id, i);
  });
  return problems;
}

function textProblems(workflow: Workflow): Problem[] {
  if (workflow.tasks.length === 0) return [{ code: 'WORKFLOW_NO_TASKS', pointer: '/tasks', message: 'the plan has no tasks' }];
  return workflow.tasks.flatMap((task, i) =>
    task.task.trim() ? [] : [{ code: 'WORKFLOW_EMPTY_TASK', pointer: `/tasks/${i}/task`, task: task.id, message: 'the task has no text' }],
  );
}

function pathProblems(workflow: Workflow): Problem[] {
  return workflow.tasks.flatMap((task, i) =>
    task.files.flatMap((file, j) =>
      isAbsolute(file) || normalize(file).split(/[\\/]/)[0] === '..'
        ? [{ code: 'WORKFLOW_BAD_PATH', pointer: `/tasks/${i}/files/${j}`, task: task.id, message: `"${file}" is outside the repository` }]
        : [],
    ),
  );
}

function dependencyProblems(workflow: Workflow): Problem[] {
  const ids = workflow.tasks.map((t) => t.id);
  const known = new Set(ids);
  return workflow.tasks.flatMap((task, i) =>
    task.depends_on.flatMap((dep, j) =>
      known.has(dep) ? [] : [{ code: 'WORKFLOW_UNKNOWN_DEPENDENCY', pointer: `/tasks/${i}/depends_on/${j}`, task: task.id, message: `depends on "${dep}", which is not a task of this plan${suggest(dep, ids)}` }],
    ),
  );
}

/**
 * The first cycle of the dependency graph as ids, first id repeated at the end (a → b → a), or
 * null. Depth-first with a stack of its own, not recursion: a plan of thousands of chained
 * tasks must not overflow the call stack.
 */
export function findCycle(tasks: readonly { id: string; depends_on: readonly string[] }[]): string[] | null {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<string, 'open' | 'done'>();
  for (const root of tasks) {
    if (state.has(root.id)) continue;
    // The open path, each entry with the next dependency to look at.
    const path: { id: string; next: number }[] = [{ id: root.id, next: 0 }];
    const onPath = new Map<string, number>([[root.id, 0]]);
    state.set(root.id, 'open');
    while (path.length) {
      const top = path[path.length - 1]!;
      const deps = byId.get(top.id)?.depends_on ?? [];
      if (top.next >= deps.length) {
        path.pop();
        onPath.delete(top.id);
        state.set(top.id, 'done');
        continue;
      }
      const dep = deps[top.next++]!;
      if (!byId.has(dep) || state.get(dep) === 'done') continue;
      const at = onPath.get(dep);
      if (at !== undefined) return [...path.slice(at).map((p) => p.id), dep];
      state.set(dep, 'open');
      onPath.set(dep, path.length);
      path.push({ id: dep, next: 0 });
    }
  }
  return null;
}

/** A long cycle is named by its start and its length, not by thousands of ids. */
const CYCLE_SHOWN = 8;

function cycleProblems(workflow: Workflow): Problem[] {
  const cycle = findCycle(workflow.tasks);
  if (!cycle) return [];
  const index = workflow.tasks.findIndex((t) => t.id === cycle[0]);
  const dep = workflow.tasks[index]!.depends_on.indexOf(cycle[1]!);
  const shown = cycle.length <= CYCLE_SHOWN + 1 ? cycle.join(' → ') : `${cycle.slice(0, CYCLE_SHOWN).join(' → ')} → … → ${cycle[0]} (${cycle.length - 1} tasks)`;
  return [{ code: 'WORKFLOW_CYCLE', pointer: `/tasks/${index}/depends_on/${dep}`, task: cycle[0], message: `dependency cycle: ${shown}` }];
}

function cliProblems(workflow: Workflow, input: WorkflowInput, adapters: string[]): Problem[] {
  const problems: Problem[] = [];
  const unknown = (cli: string) => `"${cli}" is not a registered adapter; registered: ${adapters.join(', ') || 'none'}${suggest(cli, adapters)}`;
  if (workflow.defaults.cli && !adapters.includes(workflow.defaults.cli)) problems.push({ code: 'WORKFLOW_UNKNOWN_CLI', pointer: '/defaults/cli', message: unknown(workflow.defaults.cli) });
  for (const [pattern, cli] of Object.entries(workflow.models)) {
    if (!adapters.includes(cli)) problems.push({ code: 'WORKFLOW_UNKNOWN_CLI', pointer: `/models/${pattern.replaceAll('~', '~0').replaceAll('/', '~1')}`, message: unknown(cli) });
  }
  workflow.tasks.forEach((task, i) => {
    const own = input.tasks[i]!;
    if (own.cli) {
      if (!adapters.includes(own.cli)) problems.push({ code: 'WORKFLOW_UNKNOWN_CLI', pointer: `/tasks/${i}/cli`, task: task.id, message: unknown(own.cli) });
      return;
    }
    // A CLI the plan's models or defaults gave is reported there; the built-in table names built-in adapters.
    if (task.cli === null && task.model !== null) {
      const pointer = own.model ? `/tasks/${i}/model` : '/defaults/model';
      problems.push({ code: 'WORKFLOW_UNKNOWN_MODEL', pointer, task: task.id, message: `no CLI is known for the model "${task.model}" (the model table and the plan's models: map none to it)` });
    }
  });
  return problems;
}

/** Every problem the plan shows without loading roles, in the order a person fixes them. */
export function structureProblems(workflow: Workflow, input: WorkflowInput, adapters: string[]): Problem[] {
  const structural = [...textProblems(workflow), ...idProblems(workflow, input), ...pathProblems(workflow), ...dependencyProblems(workflow)];
  // A cycle through a broken id or dependency would only repeat those problems.
  if (!structural.some((p) => p.code === 'WORKFLOW_DUPLICATE_TASK')) structural.push(...cycleProblems(workflow));
  return [...structural, ...cliProblems(workflow, input, adapters)];
}

/** Where each role is used: role name → the pointers that name it (first one is reported). */
export function roleUses(workflow: Workflow, input: WorkflowInput): Map<string, { pointer: string; task?: string }[]> {
  const uses = new Map<string, { pointer: string; task?: string }[]>();
  const add = (role: string, pointer: string, task?: string) => uses.set(role, [...(uses.get(role) ?? []), { pointer, task }]);
  workflow.tasks.forEach((task, i) => {
    const own = input.tasks[i]!;
    add(task.worker, own.worker !== undefined ? `/tasks/${i}/worker` : '/defaults/worker', task.id);
    task.reviewers.forEach((role, j) => add(role, own.reviewers !== undefined ? `/tasks/${i}/reviewers/${j}` : `/defaults/reviewers/${j}`, task.id));
  });
  return uses;
}
