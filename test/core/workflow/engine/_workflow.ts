/** Workflow objects for engine tests, built directly (the plan readers are tested on their own). */
import type { Workflow, WorkflowTask } from '../../../../core/plugin-api/workflow-model.ts';

/**
 * A worker gate that commits one file per round: replay changes no file, and a worker round
 * with no change of its own is never integrated. Every task has it unless a test gives gates.
 */
export const CHANGE = 'echo "$SUPERVISOR_TASK_ID $SUPERVISOR_ROUND" > "work-$SUPERVISOR_TASK_ID.txt" && git add -A && git -c user.name=t -c user.email=t@t commit -qm "$SUPERVISOR_TASK_ID $SUPERVISOR_ROUND"';

export function task(id: string, fields: Partial<WorkflowTask> = {}): WorkflowTask {
  return {
    id,
    title: `task ${id}`,
    task: `Do task ${id}.`,
    files: [],
    depends_on: [],
    worker: 'worker',
    reviewers: ['spec-reviewer', 'code-quality-reviewer'],
    cli: null,
    model: null,
    gates: [CHANGE],
    max_rounds: 3,
    approve: false,
    ...fields,
  };
}

export function workflow(tasks: WorkflowTask[], fields: Partial<Workflow> = {}): Workflow {
  return {
    id: 'wf-test',
    name: 'test workflow',
    source: { file: '/tmp/plan.yaml', reader: 'test' },
    base: null,
    jobs: null,
    gates: [],
    gates_on: 'merge',
    max_cost_usd: null,
    defaults: { worker: 'worker', reviewers: ['spec-reviewer', 'code-quality-reviewer'], cli: null, model: null, max_rounds: 3, approve: false },
    merge: 'merge',
    on_event: [],
    models: {},
    tasks,
    ...fields,
  };
}
