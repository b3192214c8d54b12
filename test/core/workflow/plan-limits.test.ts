/**
 * Plans at the edges: an 8,000-task dependency cycle is found without overflowing the stack,
 * huge numbers are refused with a message naming the field (never "Invalid array length" or a
 * crash), and a "did you mean" among 1,500 task ids names a few and counts the rest.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SupervisorError } from '../../../core/errors.ts';
import { suggest } from '../../../core/text/suggest.ts';
import { findCycle } from '../../../core/workflow/check-workflow.ts';
import { loadPlanFrom } from '../../helpers/load-workflow.ts';

async function refusal(files: Record<string, string>, file: string): Promise<SupervisorError> {
  let caught: SupervisorError | undefined;
  await assert.rejects(loadPlanFrom(files, file), (error: SupervisorError) => ((caught = error), true));
  return caught!;
}

const yamlTask = (id: string, extra = '') => `  - id: ${id}\n    title: T ${id}\n    task: Do ${id}.\n    review: none\n${extra}`;

describe('plan limits', () => {
  it('an 8,000-task cycle is found without recursion, and named by its start and length', async () => {
    const n = 8000;
    const tasks = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, depends_on: [`t${(i + 1) % n}`] }));
    const cycle = findCycle(tasks)!;
    assert.equal(cycle.length, n + 1);
    assert.equal(cycle[0], cycle[n]);
    const chain = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, depends_on: i ? [`t${i - 1}`] : [] }));
    assert.equal(findCycle(chain), null);

    const yaml = `name: ring\ntasks:\n${Array.from({ length: n }, (_, i) => yamlTask(`t${i}`, `    depends_on: [t${(i + 1) % n}]\n`)).join('')}`;
    const error = await refusal({ 'plan.yaml': yaml }, 'plan.yaml');
    assert.equal(error.code, 'WORKFLOW_CYCLE');
    assert.match(error.message, /t0 → t1 → .* → … → t0 \(8000 tasks\)/);
    assert.ok(error.message.length < 2000, `${error.message.length} characters`);
  });

  it('**Depends on:** 99999999999999999999 is refused as no task number', async () => {
    const plan = '# Plan\n\n### Task 1: one\n\nDo one.\n\n**Depends on:** 99999999999999999999\n';
    const error = await refusal({ 'plan.md': plan }, 'plan.md');
    assert.match(error.code, /^WORKFLOW_/);
    assert.equal(error.exitCode, 2);
    assert.match(error.message, /99999999999999999999 is not a task number \(at most 100000\)/);
  });

  it('huge jobs, max_rounds and max_cost_usd in a workflow YAML are refused, naming the field', async () => {
    for (const [field, value] of [['jobs', '99999999999999999999'], ['max_cost_usd', '1e308']] as const) {
      const error = await refusal({ 'plan.yaml': `name: big\n${field}: ${value}\ntasks:\n${yamlTask('a')}` }, 'plan.yaml');
      assert.equal(error.code, 'WORKFLOW_INVALID', error.message);
      assert.ok(error.message.includes(`/${field}`), error.message);
    }
    const rounds = await refusal({ 'plan.yaml': `name: big\ntasks:\n${yamlTask('a', '    max_rounds: 1e300\n')}` }, 'plan.yaml');
    assert.equal(rounds.code, 'WORKFLOW_INVALID', rounds.message);
    assert.ok(rounds.message.includes('/tasks/0/max_rounds'), rounds.message);
  });

  it('"did you mean" names five of 1,500 close names and counts the rest', async () => {
    const names = Array.from({ length: 1500 }, (_, i) => `task-${i}`);
    const hint = suggest('task-', names);
    assert.match(hint, /^; did you mean one of "task-0", "task-1", "task-2", "task-3", "task-4", and \d+ more\?$/);
    assert.equal(suggest('revew', ['review', 'reviewers']), '; did you mean "review"?');

    const yaml = `name: many\ntasks:\n${names.map((id, i) => yamlTask(id, i === 0 ? '    depends_on: [task-]\n' : '')).join('')}`;
    const error = await refusal({ 'plan.yaml': yaml }, 'plan.yaml');
    assert.equal(error.code, 'WORKFLOW_UNKNOWN_DEPENDENCY');
    assert.match(error.message, /and \d+ more\?/);
    assert.ok(error.message.length < 1000, `${error.message.length} characters`);
  });
});
