/** `workflow check` and `workflow plan` through the built binary: readers and schema inlined, plan readers found beside the repo. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { makeRepo } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const seed003 = await readFile(new URL('../fixtures/plans/seed-003.md', import.meta.url), 'utf8');
const GOOD = 'name: Two steps\ntasks:\n  - id: a\n    title: A\n    task: Do a\n  - id: b\n    title: B\n    task: Do b\n    depends_on: [a]\n';

describe('workflow check and workflow plan in the single binary', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it('accepts a good workflow YAML and seed 003 as is (exit 0)', async () => {
    const repo = await makeRepo({ 'flow.yaml': GOOD, 'plan.md': seed003 });
    const yaml = await box.run(['workflow', 'check', 'flow.yaml', '--cli', 'replay'], { cwd: repo });
    assert.equal(yaml.code, 0, yaml.stderr);
    assert.match(yaml.stdout, /^ok: flow\.yaml \(read by workflow-yaml\): 2 tasks/);
    const md = await box.run(['workflow', 'check', 'plan.md', '--json', '--cli', 'replay'], { cwd: repo });
    assert.equal(md.code, 0, md.stderr);
    const plan = JSON.parse(md.stdout) as { base: string; tasks: { id: string; depends_on: string[] }[] };
    assert.equal(plan.base, '33de47adcc661a1fdedcc2fc3c55956e45b38129');
    assert.deepEqual(plan.tasks.map((t) => [t.id, t.depends_on]), [['task-1', []], ['task-2', []], ['task-3', []], ['task-4', ['task-3']]]);
  });

  it('refuses bad workflows with exit 2, naming file, task, field and line', async () => {
    const repo = await makeRepo({
      'cycle.yaml': GOOD.replace('    task: Do a\n', '    task: Do a\n    depends_on: [b]\n'),
      'field.yaml': GOOD.replace('depends_on: [a]', 'depends-on: [a]'),
    });
    const cycle = await box.run(['workflow', 'check', 'cycle.yaml', '--json'], { cwd: repo });
    assert.equal(cycle.code, 2);
    assert.equal(cycle.stdout, '');
    const error = (JSON.parse(cycle.stderr) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
    assert.equal(error.code, 'WORKFLOW_CYCLE');
    assert.match(error.message, /a → b → a/);
    assert.deepEqual([error.details.task, error.details.pointer, error.details.line], ['a', '/tasks/0/depends_on/0', 6]);
    const field = await box.run(['workflow', 'check', 'field.yaml'], { cwd: repo });
    assert.equal(field.code, 2);
    assert.match(field.stderr, /WORKFLOW_INVALID.*field\.yaml:9: task "b": \/tasks\/1\/depends-on: unknown field.*did you mean "depends_on"/);
  });

  it('workflow plan --cli replay writes a workflow that workflow check accepts', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const plan = await box.run(['workflow', 'plan', '--task', 'Validate the arguments of add()', '--cli', 'replay', '--out', 'flow.yaml'], { cwd: repo });
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /^Wrote flow\.yaml: 2 tasks/);
    const check = await box.run(['workflow', 'check', 'flow.yaml', '--cli', 'replay'], { cwd: repo });
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /phase-2 +phase-1 +worker/);
  });
});
