import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planToWorkflow } from '../../../core/workflow/plan-to-workflow.ts';

const deps = (output: Record<string, unknown>, notices: string[] = []) =>
  planToWorkflow(output, 'Ship the feature', (m) => notices.push(m)).tasks.map((t) => [t.id, t.depends_on]);

describe('planToWorkflow', () => {
  it('turns phases into tasks; phase order is a dependency when nothing says otherwise', () => {
    const planned = planToWorkflow({ phases: [{ name: 'Parse', description: 'Parse the input.', files: ['src/parse.ts'], tests: ['test/parse.test.ts'], acceptance_criteria: ['errors name the line'], owner: 'team a' }, { name: 'Render' }] }, 'Ship the feature\nwith details', () => {});
    assert.equal(planned.name, 'Ship the feature');
    assert.deepEqual(planned.tasks.map((t) => [t.id, t.title, t.depends_on, t.files]), [['phase-1', 'Parse', [], ['src/parse.ts']], ['phase-2', 'Render', ['phase-1'], undefined]]);
    const text = planned.tasks[0]!.task;
    assert.match(text, /^Part of the plan for: Ship the feature/);
    assert.match(text, /## Parse\n\nParse the input\.\n\nFiles:\n- src\/parse\.ts\n\nTests:\n- test\/parse\.test\.ts\n\nAcceptance criteria:\n- errors name the line\n\nowner: team a\n$/);
  });

  it("keeps a phase's own depends_on, by id, name or number, and [] as independent", () => {
    assert.deepEqual(deps({ phases: [{ id: 'a' }, { id: 'b', depends_on: [] }, { id: 'c', depends_on: ['a', 2] }, { name: 'Docs', depends_on: ['phase 3', 'Docs'] }] }), [['a', []], ['b', []], ['c', ['a', 'b']], ['phase-4', ['c']]]);
  });

  it("uses the plan's dependencies ({from, to}) when they link phases", () => {
    assert.deepEqual(deps({ phases: [{ name: 'one' }, { name: 'two' }, { name: 'three' }], dependencies: [{ from: 'phase 3', to: 'phase 1' }, { from: 'three', to: 'x-lib' }] }), [['phase-1', []], ['phase-2', []], ['phase-3', ['phase-1']]]);
  });

  it('leaves out references to no phase and files outside the repository, with notices', () => {
    const notices: string[] = [];
    const planned = planToWorkflow({ phases: [{ id: 'a', files: ['/etc/passwd', '../x', 'ok.ts'] }, { id: 'b', depends_on: ['zz'] }] }, 'g', (m) => notices.push(m));
    assert.deepEqual(planned.tasks.map((t) => [t.depends_on, t.files]), [[[], ['ok.ts']], [[], undefined]]);
    assert.equal(notices.length, 3, notices.join('\n'));
  });

  it('makes ids valid and unique', () => {
    assert.deepEqual(deps({ phases: [{ id: 'Set up DB!' }, { id: 'x' }, { id: 'x' }] }).map(([id]) => id), ['set-up-db', 'x', 'x-2']);
  });
});
