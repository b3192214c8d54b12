import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { SupervisorError } from '../../../core/errors.ts';
import { loadPlanFrom } from '../../helpers/load-workflow.ts';

const seed003 = await readFile(new URL('../../fixtures/plans/seed-003.md', import.meta.url), 'utf8');
const load = (text: string) => loadPlanFrom({ 'plan.md': text }, 'plan.md');

/** The load fails with `code`, naming the task, the field and the line. */
async function refused(text: string, code: string, task: string | undefined, pointer: string, line: number, message?: RegExp): Promise<void> {
  await assert.rejects(load(text), (e: SupervisorError) => {
    assert.deepEqual([e.code, e.details.task, e.details.pointer, e.details.line], [code, task, pointer, line], e.message);
    assert.match(e.message, new RegExp(`plan\\.md:${line}: `));
    if (message) assert.match(e.message, message);
    return true;
  });
}

const plan = (tasks: string) => `# Small plan\n\n**Goal:** Make it small.\n\n## Tasks\n\n${tasks}`;

describe('plan-markdown: seed 003 as is', () => {
  it('reads its four tasks: 1–3 depend on none, 4 on 3; models, review levels, files and the baseline', async () => {
    const workflow = await load(seed003);
    assert.equal(workflow.source.reader, 'plan-markdown');
    assert.equal(workflow.name, 'Codex Worker/Reviewer Functional Parity Phase 1 Plan');
    assert.equal(workflow.base, '33de47adcc661a1fdedcc2fc3c55956e45b38129');
    assert.deepEqual(workflow.tasks.map((t) => [t.id, t.depends_on]), [['task-1', []], ['task-2', []], ['task-3', []], ['task-4', ['task-3']]]);
    assert.deepEqual(workflow.tasks.map((t) => t.title), [
      'Update agent definitions with v2 output contract',
      'Update codex-cli skill to emit v2 headers deterministically',
      'Update team-lead-init skill with dual-grammar recognition and acceptance matrix',
      'Update executing-plans skill with dual-grammar recognition',
    ]);
    for (const t of workflow.tasks) assert.deepEqual([t.model, t.cli, t.worker], ['opus', 'claude', 'worker']);
    assert.deepEqual(workflow.tasks.map((t) => t.reviewers), [
      ['spec-reviewer', 'code-quality-reviewer'], ['spec-reviewer', 'code-quality-reviewer'], ['spec-reviewer', 'code-quality-reviewer'], ['spec-reviewer'],
    ]);
    assert.deepEqual(workflow.tasks[0]!.files, ['agents/implementer.md', 'agents/spec-reviewer.md', 'agents/code-quality-reviewer.md']);
    assert.deepEqual(workflow.tasks[3]!.files, ['skills/executing-plans/SKILL.md']);
  });

  it('gives each task its whole section, with the plan header as context, and nothing of the next section', async () => {
    const [t1, t2, t3, t4] = (await load(seed003)).tasks;
    assert.match(t2!.task, /### Task 2: Update codex-cli skill/);
    assert.match(t2!.task, /## STEP 5: Report result with v2 headers/, 'headings inside fences stay in the task');
    assert.match(t1!.task, /"Review passed"|Spec review passed/, 'nested ```json inside ```markdown stays in task 1');
    assert.doesNotMatch(t1!.task, /### Task 2/);
    assert.match(t3!.task, /### v2 Result Contract/);
    assert.doesNotMatch(t4!.task, /## Phase Estimates|Lint Report/);
    for (const t of [t1, t2, t3, t4]) {
      assert.match(t!.task, /\*\*Anti-patterns:\*\*/, 'the header reaches every task');
      assert.match(t!.task, /## Your task\n\n### Task \d:/);
    }
  });
});

describe('plan-markdown: sections, fences and fields', () => {
  it('keeps fenced headings and the task\'s own headings in the task; a higher-rank heading ends it', async () => {
    const text = plan([
      '### Task 1: First',
      '',
      '**Files:**',
      '- Modify: `src/a.ts:10-20`',
      '- Create: `src/b.ts`',
      '- Test: `test/b.test.ts`',
      '',
      'Do the first thing.',
      '',
      '```markdown',
      '### Task 9: not a task (inside a fence)',
      '```json',
      '{"a": 1}',
      '```',
      '### Task 8: still inside the outer fence',
      '```',
      '',
      '~~~',
      '### Task 7: inside a tilde fence',
      '~~~',
      '',
      '### Notes',
      '',
      'Notes of task 1.',
      '',
      '### Task 2: Second',
      '',
      '**Files:** `src/c.ts`, `src/d.ts`',
      '**Depends on:** Task 1',
      '**review:** none',
      '',
      'Do the second thing.',
      '',
      '---',
      '',
      '## Appendix',
      '',
      'Not part of task 2.',
      '',
    ].join('\n'));
    const workflow = await load(text);
    assert.deepEqual(workflow.tasks.map((t) => t.id), ['task-1', 'task-2']);
    const [t1, t2] = workflow.tasks;
    assert.deepEqual(t1!.files, ['src/a.ts', 'src/b.ts', 'test/b.test.ts']);
    assert.match(t1!.task, /Task 9: not a task[\s\S]*Task 8: still inside[\s\S]*Task 7: inside a tilde fence[\s\S]*Notes of task 1\./);
    assert.deepEqual([t2!.files, t2!.depends_on, t2!.reviewers], [['src/c.ts', 'src/d.ts'], ['task-1'], []]);
    assert.doesNotMatch(t2!.task, /Appendix|Not part/);
    assert.match(t2!.task, /Do the second thing\.$/, 'trailing rules and blank lines are trimmed');
  });

  it('reads plain Files items, Depends on ranges and a heading without a title', async () => {
    const text = plan('### Task 1: A\n\nDo a.\n\n### Task 2: B\n\nDo b.\n\n### Task 3\n\n**Files:**\n- Create: src/new.ts (the new module)\n- src/other.ts\n\n**Depends on:** Tasks 1-2\n\nDo c.\n');
    const [, , t3] = (await load(text)).tasks;
    assert.deepEqual([t3!.title, t3!.files, t3!.depends_on], ['task-3', ['src/new.ts', 'src/other.ts'], ['task-1', 'task-2']]);
  });

  it('claims a plan file by its task headings whatever its name (seed 003 is a .txt), but never a YAML file', async () => {
    const workflow = await loadPlanFrom({ 'seed-003.txt': seed003 }, 'seed-003.txt');
    assert.equal(workflow.source.reader, 'plan-markdown');
    assert.equal(workflow.tasks.length, 4);
    const yaml = await loadPlanFrom({ 'plan.yaml': '### Task 1: a comment\nname: Y\ntasks:\n  - {id: a, title: A, task: x}\n' }, 'plan.yaml');
    assert.equal(yaml.source.reader, 'workflow-yaml');
  });

  it('reads tasks after an interlude, and keeps the header to what precedes the first task', async () => {
    const workflow = await load(plan('### Task 1: A\n\nDo a.\n\n## Interlude\n\nNot a task.\n\n### Task 2: B\n\nDo b.\n'));
    const [t1, t2] = workflow.tasks;
    assert.doesNotMatch(t1!.task, /Interlude/);
    assert.match(t2!.task, /\*\*Goal:\*\* Make it small\.\n\n## Your task\n\n### Task 2: B\n\nDo b\.$/);
    assert.doesNotMatch(t2!.task, /Do a\.|Interlude/);
  });

  it('refuses a dependency on a task that does not exist, at the Depends on line', async () => {
    await refused(plan('### Task 1: A\n\nDo a.\n\n### Task 2: B\n\n**Depends on:** 1, 7\n\nDo b.\n'), 'WORKFLOW_UNKNOWN_DEPENDENCY', 'task-2', '/tasks/1/depends_on/1', 13, /"task-7"/);
  });

  it('names a cycle', async () => {
    await refused(plan('### Task 1: A\n\n**Depends on:** 2\n\nDo a.\n\n### Task 2: B\n\n**Depends on:** 1\n\nDo b.\n'), 'WORKFLOW_CYCLE', 'task-1', '/tasks/0/depends_on/0', 9, /task-1 → task-2 → task-1/);
  });

  it('refuses a duplicate task number at its heading', async () => {
    await refused(plan('### Task 1: A\n\nDo a.\n\n### Task 1: B\n\nDo b.\n'), 'WORKFLOW_DUPLICATE_TASK', 'task-1', '/tasks/1/id', 11);
  });

  it('refuses a Depends on without task numbers and an unknown review level, naming the heading', async () => {
    await refused(plan('### Task 1: A\n\n**Depends on:** later\n\nDo a.\n'), 'WORKFLOW_INVALID', 'task-1', '/tasks/0/depends_on', 9, /in "### Task 1: A"/);
    await refused(plan('### Task 1: A\n\n**review:** thorough\n\nDo a.\n'), 'WORKFLOW_INVALID', 'task-1', '/tasks/0/reviewers', 9, /full, spec-only or none/);
  });

  it('refuses a model no CLI is known for, at the Model line', async () => {
    await refused(plan('### Task 1: A\n\n**Model:** llama-3\n\nDo a.\n'), 'WORKFLOW_UNKNOWN_MODEL', 'task-1', '/tasks/0/model', 9);
  });

  it('refuses a task with nothing but its heading and fields', async () => {
    await refused(plan('### Task 1: A\n\nDo a.\n\n### Task 2: B\n\n**Model:** opus\n\n---\n'), 'WORKFLOW_EMPTY_TASK', 'task-2', '/tasks/1/task', 11);
  });

  it('refuses a plan with no task sections', async () => {
    await assert.rejects(load('# Plan\n\nJust prose.\n\n```\n### Task 1: in a fence\n```\n'), (e: SupervisorError) => {
      assert.deepEqual([e.code, e.details.pointer, e.details.reader], ['WORKFLOW_NO_TASKS', '/tasks', 'plan-markdown']);
      return true;
    });
  });
});
