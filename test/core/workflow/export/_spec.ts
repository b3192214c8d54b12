/** Pipeline specs for the generator tests: a plan's tasks and dependencies, nothing else. */
import type { WorkflowTask } from '../../../../core/plugin-api/workflow-model.ts';
import type { PipelineSpec } from '../../../../core/workflow/export/pipeline-jobs.ts';

export const SHA = 'c0ffee'.repeat(10) + 'c0ff';

export function task(id: string, depends_on: string[] = []): WorkflowTask {
  return { id, title: id, task: `Do ${id}.`, files: [], depends_on, worker: 'worker', reviewers: [], cli: null, model: null, gates: [], max_rounds: 2, approve: false };
}

/** A spec of these tasks with every other field fixed. */
export function spec(tasks: WorkflowTask[], over: Partial<PipelineSpec> = {}): PipelineSpec {
  return {
    workflow: { id: 'wf-1', name: 'demo', tasks },
    plan: { path: 'plans/demo.yaml', sha256: SHA },
    remote: null,
    flags: ['--sandbox', 'bwrap', '--allow-command', "npm test -- --grep 'x'"],
    timeouts: { tasks: Object.fromEntries(tasks.map((t) => [t.id, 42])), final: 17 },
    runner: { clis: ['claude'], secrets: ['ANTHROPIC_API_KEY', 'NPM_TOKEN'], finalSecrets: ['NPM_TOKEN'] },
    ...over,
  };
}

/** a → b, a → c, (b, c) → d, e alone: a diamond and a free task. */
export const DIAMOND = [task('a'), task('b', ['a']), task('c', ['a']), task('d', ['b', 'c']), task('e')];

/** n independent tasks t1..tn. */
export const wide = (n: number) => Array.from({ length: n }, (_, i) => task(`t${i + 1}`));
