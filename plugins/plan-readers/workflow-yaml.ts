/**
 * workflow-yaml: reads workflow YAML files (schemas/workflow.schema.json). Strict YAML, every
 * field checked against the schema (unknown fields refused with a "did you mean"), and errors
 * that carry the JSON pointer and the line. `review: full | spec-only | none` is shorthand for
 * the reviewers of that level; everything else maps one to one onto the workflow model.
 */
import { definePlugin, isReviewLevel, reviewersForLevel, type PlanReadContext, type WorkflowInput } from '../../core/plugin-api/index.ts';
import schema from '../../schemas/workflow.schema.json' with { type: 'json' };

type Mapping = Record<string, unknown>;

/** `review` → `reviewers`; naming both is ambiguous and refused. */
function withReviewers(value: Mapping, pointer: string, ctx: PlanReadContext, task?: string): Mapping {
  const { review, ...rest } = value;
  if (review === undefined) return rest;
  if (rest.reviewers !== undefined) throw ctx.error({ pointer: `${pointer}/review`, task, message: 'give either review or reviewers, not both' });
  if (typeof review !== 'string' || !isReviewLevel(review)) return rest; // the schema has refused it already
  return { ...rest, reviewers: reviewersForLevel(review) };
}

/** `id: 1` and `depends_on: [1]` name task "1": ids are text in the model. */
function withStringIds(task: Mapping): Mapping {
  const ids = { id: typeof task.id === 'number' ? String(task.id) : task.id };
  return Array.isArray(task.depends_on) ? { ...task, ...ids, depends_on: task.depends_on.map(String) } : { ...task, ...ids };
}

export default definePlugin({
  kind: 'plan-reader',
  name: 'workflow-yaml',
  description: 'Workflow YAML files (name, defaults, tasks with depends_on; schemas/workflow.schema.json)',
  extensions: ['.yaml', '.yml'],
  read(text, ctx) {
    const { value, lines } = ctx.parseYaml(text);
    if (typeof value.id === 'number') value.id = String(value.id);
    for (const [pointer, line] of lines) ctx.locate(pointer, line);
    ctx.validate(schema, value);
    const tasks = ((value.tasks ?? []) as Mapping[]).map((task, i) => withReviewers(withStringIds(task), `/tasks/${i}`, ctx, String(task.id)));
    const defaults = value.defaults === undefined ? undefined : withReviewers(value.defaults as Mapping, '/defaults', ctx);
    return { ...value, ...(defaults ? { defaults } : {}), tasks } as WorkflowInput;
  },
});
