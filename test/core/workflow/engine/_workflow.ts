/** Workflow objects for engine tests, built directly (the plan readers are tested on their own). */
import type { Workflow, WorkflowTask } from '../../../../core/workflow/model.ts';

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
    gates: [],
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
