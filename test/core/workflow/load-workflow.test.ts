import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SupervisorError } from '../../../core/errors.ts';
import { loadPlanFrom as load } from '../../helpers/load-workflow.ts';

interface Expected {
  code: string;
  task?: string;
  pointer: string;
  line?: number;
  message?: RegExp;
}

/** The load fails with `code`, naming the file, the task, the field (pointer) and the line. */
async function refused(yaml: string, expected: Expected, file = 'plan.yaml'): Promise<SupervisorError> {
  let caught: SupervisorError | undefined;
  await assert.rejects(load({ [file]: yaml }, file), (error: SupervisorError) => ((caught = error), true));
  const e = caught!;
  assert.equal(e.code, expected.code, e.message);
  assert.equal(e.exitCode, 2);
  assert.match(String(e.details.file), new RegExp(`${file.replace('.', '\\.')}$`));
  assert.equal(e.details.task, expected.task, e.message);
  assert.equal(e.details.pointer, expected.pointer, e.message);
  assert.equal(e.details.line, expected.line, e.message);
  assert.match(e.message, new RegExp(file.replace('.', '\\.')));
  if (expected.task) assert.match(e.message, new RegExp(`task "${expected.task}"`));
  assert.ok(e.message.includes(expected.pointer), e.message);
  if (expected.message) assert.match(e.message, expected.message);
  return e;
}

const task = (id: string, extra = '') => `  - id: ${id}\n    title: Task ${id}\n    task: Do ${id}\n${extra}`;

describe('loadWorkflow: workflow YAML', () => {
  it('reads set-up: top-level setup and copy for every task, a task its own, setup_once and setup_timeout; a plan without set-up keeps its id', async () => {
    const yaml = `name: Setup\nsetup: [npm ci --offline]\ncopy: [.env]\nsetup_once: false\nsetup_timeout: 120\ntasks:\n${task('a')}${task('b', '    setup: [make deps]\n    copy: []\n')}`;
    const workflow = await load({ 'plan.yaml': yaml }, 'plan.yaml');
    assert.deepEqual(workflow.defaults.setup, ['npm ci --offline']);
    assert.deepEqual([workflow.tasks[0]!.setup, workflow.tasks[0]!.copy], [['npm ci --offline'], ['.env']]);
    assert.deepEqual([workflow.tasks[1]!.setup, workflow.tasks[1]!.copy], [['make deps'], undefined]);
    assert.equal(workflow.setup_once, false);
    assert.equal(workflow.setup_timeout, 120);
    const plain = await load({ 'plan.yaml': `name: Setup\ntasks:\n${task('a')}` }, 'plan.yaml');
    assert.equal(plain.id, 'setup-59bb754f'); // set-up fields absent leave the id as the plan's other fields make it
    assert.ok(!('setup' in plain.tasks[0]!) && !('setup_once' in plain));
    await refused(`name: x\nsetup: npm ci\ntasks:\n${task('a')}`, { code: 'WORKFLOW_INVALID', pointer: '/setup', line: 2 });
  });

  it('fills defaults, maps review levels and models, and makes a stable id from the name and the plan', async () => {
    const yaml = `name: Add input validation\ndefaults:\n  max_rounds: 2\nmodels:\n  "llama-*": cline\ntasks:\n${task('a', '    files: [src/a.ts]\n')}${task('b', '    depends_on: [a]\n    review: spec-only\n    model: gpt-5\n')}${task('c', '    review: none\n    model: llama-3\n    cli: null\n')}`;
    const workflow = await load({ 'plan.yaml': yaml }, 'plan.yaml');
    assert.match(workflow.id, /^add-input-validation-[0-9a-f]{8}$/);
    assert.equal(workflow.source.reader, 'workflow-yaml');
    assert.deepEqual(workflow.defaults, { worker: 'worker', reviewers: ['spec-reviewer', 'code-quality-reviewer'], cli: null, model: null, max_rounds: 2, approve: false });
    const [a, b, c] = workflow.tasks;
    assert.deepEqual(a, { id: 'a', title: 'Task a', task: 'Do a', files: ['src/a.ts'], depends_on: [], worker: 'worker', reviewers: ['spec-reviewer', 'code-quality-reviewer'], cli: null, model: null, gates: [], max_rounds: 2, approve: false });
    assert.deepEqual([b!.reviewers, b!.cli, b!.model, b!.depends_on], [['spec-reviewer'], 'codex', 'gpt-5', ['a']]);
    assert.deepEqual([c!.reviewers, c!.cli], [[], 'cline']);
    const again = await load({ 'other-name.yaml': yaml }, 'other-name.yaml');
    assert.equal(again.id, workflow.id, 'the same plan has the same id wherever it lies');
    const changed = await load({ 'plan.yaml': yaml.replace('Do c', 'Do c now') }, 'plan.yaml');
    assert.notEqual(changed.id, workflow.id);
  });

  it('keeps an id the plan names', async () => {
    const workflow = await load({ 'plan.yaml': `name: X\nid: my-flow\ntasks:\n${task('a')}` }, 'plan.yaml');
    assert.equal(workflow.id, 'my-flow');
  });

  it('reads numeric ids and dependencies as text', async () => {
    const workflow = await load({ 'plan.yaml': 'name: N\ntasks:\n  - {id: 1, title: A, task: x}\n  - {id: 2, title: B, task: y, depends_on: [1]}\n' }, 'plan.yaml');
    assert.deepEqual(workflow.tasks.map((t) => [t.id, t.depends_on]), [['1', []], ['2', ['1']]]);
  });

  it('refuses a role that exists but does not load', async () => {
    let caught: SupervisorError | undefined;
    await assert.rejects(load({ 'plan.yaml': `name: R\ntasks:\n${task('a', '    worker: broken\n')}`, '.supervisor/roles/broken.yaml': 'extends: worker\ntimeout: 5\n' }, 'plan.yaml'), (e: SupervisorError) => ((caught = e), true));
    assert.deepEqual([caught!.code, caught!.details.task, caught!.details.pointer, caught!.details.line], ['WORKFLOW_ROLE_INVALID', 'a', '/tasks/0/worker', 6]);
    assert.match(caught!.message, /the role "broken" does not load \[ROLE_INVALID\]: [^]*timeout/);
  });

  it('refuses an unknown CLI as a default and in the model table', async () => {
    await refused(`name: R\ndefaults:\n  cli: nope\ntasks:\n${task('a')}`, { code: 'WORKFLOW_UNKNOWN_CLI', pointer: '/defaults/cli', line: 3 });
    await refused(`name: R\nmodels:\n  "my-*": nope\ntasks:\n${task('a', '    model: my-model\n')}`, { code: 'WORKFLOW_UNKNOWN_CLI', pointer: '/models/my-*', line: 3 });
  });

  it('refuses a cycle, naming it', async () => {
    await refused(`name: C\ntasks:\n${task('a', '    depends_on: [c]\n')}${task('b', '    depends_on: [a]\n')}${task('c', '    depends_on: [b]\n')}`, {
      code: 'WORKFLOW_CYCLE', task: 'a', pointer: '/tasks/0/depends_on/0', line: 6, message: /a → c → b → a/,
    });
  });

  it('refuses a task that depends on itself as a cycle', async () => {
    await refused(`name: C\ntasks:\n${task('a', '    depends_on: [a]\n')}`, { code: 'WORKFLOW_CYCLE', task: 'a', pointer: '/tasks/0/depends_on/0', line: 6, message: /a → a/ });
  });

  it('refuses an unknown dependency, with a suggestion', async () => {
    await refused(`name: D\ntasks:\n${task('build')}${task('test', '    depends_on:\n      - biuld\n')}`, {
      code: 'WORKFLOW_UNKNOWN_DEPENDENCY', task: 'test', pointer: '/tasks/1/depends_on/0', line: 10, message: /"biuld".*did you mean "build"/,
    });
  });

  it('refuses a duplicate id', async () => {
    await refused(`name: D\ntasks:\n${task('a')}${task('a')}`, { code: 'WORKFLOW_DUPLICATE_TASK', task: 'a', pointer: '/tasks/1/id', line: 6, message: /already the id of \/tasks\/0/ });
  });

  it('refuses an id that cannot name a branch', async () => {
    await refused(`name: D\ntasks:\n${task('"a b"')}`, { code: 'WORKFLOW_BAD_ID', task: 'a b', pointer: '/tasks/0/id', line: 3 });
  });

  it('refuses "--" in a task id and in the workflow id: it joins the two in task branch names, so branches of two workflows could be one', async () => {
    await refused(`name: D\ntasks:\n${task('x--y')}`, { code: 'WORKFLOW_BAD_ID', task: 'x--y', pointer: '/tasks/0/id', line: 3, message: /"--" joins the workflow id and a task id/ });
    await refused(`name: D\nid: x--y\ntasks:\n${task('a')}`, { code: 'WORKFLOW_BAD_ID', pointer: '/id', line: 2, message: /"x--y" is not a valid workflow id: "--" joins/ });
  });

  it('refuses an unknown worker role and an unknown reviewer role', async () => {
    await refused(`name: R\ntasks:\n${task('a', '    worker: nobody\n')}`, { code: 'WORKFLOW_UNKNOWN_ROLE', task: 'a', pointer: '/tasks/0/worker', line: 6, message: /no role named "nobody"/ });
    await refused(`name: R\ntasks:\n${task('a')}${task('b', '    reviewers: [spec-reviewer, nobody]\n')}`, { code: 'WORKFLOW_UNKNOWN_ROLE', task: 'b', pointer: '/tasks/1/reviewers/1', line: 9 });
  });

  it('refuses an unknown role given as a default at the default', async () => {
    await refused(`name: R\ndefaults:\n  worker: nobody\ntasks:\n${task('a')}`, { code: 'WORKFLOW_UNKNOWN_ROLE', task: 'a', pointer: '/defaults/worker', line: 3 });
  });

  it('refuses an unknown CLI, with a suggestion', async () => {
    await refused(`name: R\ntasks:\n${task('a', '    cli: cladue\n')}`, { code: 'WORKFLOW_UNKNOWN_CLI', task: 'a', pointer: '/tasks/0/cli', line: 6, message: /"cladue" is not a registered adapter.*did you mean "claude"/ });
  });

  it('refuses a model no CLI is known for', async () => {
    await refused(`name: R\ntasks:\n${task('a', '    model: llama-3\n')}`, { code: 'WORKFLOW_UNKNOWN_MODEL', task: 'a', pointer: '/tasks/0/model', line: 6, message: /llama-3/ });
  });

  it('refuses bad YAML, naming the line', async () => {
    await refused('name: Y\ntasks:\n  - id: a\n   title: b\n', { code: 'WORKFLOW_YAML', pointer: '', line: 4 });
  });

  it('refuses duplicate keys in the YAML', async () => {
    await refused(`name: Y\nname: Z\ntasks:\n${task('a')}`, { code: 'WORKFLOW_YAML', pointer: '', line: 2 });
  });

  it('refuses a plan with no tasks', async () => {
    await refused('name: Empty\ntasks: []\n', { code: 'WORKFLOW_NO_TASKS', pointer: '/tasks', line: 2 });
    await refused('name: Empty\n', { code: 'WORKFLOW_NO_TASKS', pointer: '/tasks' });
  });

  it('refuses a task with no text', async () => {
    await refused(`name: T\ntasks:\n  - id: a\n    title: A\n    task: "  "\n`, { code: 'WORKFLOW_EMPTY_TASK', task: 'a', pointer: '/tasks/0/task', line: 5 });
  });

  it('refuses an unknown field, with a suggestion', async () => {
    await refused(`name: U\ntasks:\n${task('a', '    depends-on: [b]\n')}`, { code: 'WORKFLOW_INVALID', task: 'a', pointer: '/tasks/0/depends-on', line: 6, message: /unknown field.*did you mean "depends_on"/ });
    await refused(`name: U\ndefualts:\n  worker: worker\ntasks:\n${task('a')}`, { code: 'WORKFLOW_INVALID', pointer: '/defualts', line: 2, message: /did you mean "defaults"/ });
  });

  it('refuses a field of the wrong type and a bad review level', async () => {
    await refused(`name: U\ntasks:\n${task('a', '    max_rounds: 0\n')}`, { code: 'WORKFLOW_INVALID', task: 'a', pointer: '/tasks/0/max_rounds', line: 6 });
    await refused(`name: U\ntasks:\n${task('a', '    review: thorough\n')}`, { code: 'WORKFLOW_INVALID', task: 'a', pointer: '/tasks/0/review', line: 6 });
  });

  it('refuses review and reviewers together', async () => {
    await refused(`name: U\ntasks:\n${task('a', '    review: full\n    reviewers: []\n')}`, { code: 'WORKFLOW_INVALID', task: 'a', pointer: '/tasks/0/review', line: 6 });
  });

  it('refuses a file outside the repository', async () => {
    await refused(`name: U\ntasks:\n${task('a', '    files: [../secret.txt]\n')}`, { code: 'WORKFLOW_BAD_PATH', task: 'a', pointer: '/tasks/0/files/0', line: 6 });
  });

  it('reports every problem at once, the first one in the details', async () => {
    const e = await refused(`name: M\ntasks:\n${task('a', '    depends_on: [zz]\n    cli: nope\n')}`, { code: 'WORKFLOW_UNKNOWN_DEPENDENCY', task: 'a', pointer: '/tasks/0/depends_on/0', line: 6 });
    assert.deepEqual((e.details.problems as { code: string }[]).map((p) => p.code), ['WORKFLOW_UNKNOWN_DEPENDENCY', 'WORKFLOW_UNKNOWN_CLI']);
  });
});

describe('loadWorkflow: choosing the plan reader', () => {
  it('refuses a file no reader claims, listing the readers', async () => {
    await assert.rejects(load({ 'plan.txt': 'hello' }, 'plan.txt'), (e: SupervisorError) => {
      assert.equal(e.code, 'WORKFLOW_NO_READER');
      assert.match(e.hint ?? '', /workflow-yaml \(\.yaml, \.yml\)/);
      return true;
    });
  });

  it('reads any file with the reader named', async () => {
    const workflow = await load({ 'plan.txt': `name: T\ntasks:\n${task('a')}` }, 'plan.txt', 'workflow-yaml');
    assert.equal(workflow.source.reader, 'workflow-yaml');
    await assert.rejects(load({ 'plan.txt': 'x' }, 'plan.txt', 'nope'), { code: 'PLUGIN_NOT_FOUND' });
  });

  it('uses a plan reader dropped into <repo>/.supervisor/plugins, and checks what it returns', async () => {
    const reader = (body: string) => `import { definePlugin } from 'supervisor/plugin';\nexport default definePlugin({ kind: 'plan-reader', name: 'lines', extensions: ['.lines'], read(text, ctx) { ${body} } });\n`;
    const good = reader("const tasks = text.trim().split('\\n').map((line, i) => { ctx.locate('/tasks/' + i, i + 1); const [id, ...rest] = line.split(' '); return { id, title: id, task: rest.join(' '), ...(i ? { depends_on: ['t' + i] } : {}) }; }); return { name: 'Lines', tasks };");
    const workflow = await load({ '.supervisor/plugins/lines.mjs': good, 'todo.lines': 't1 write it\nt2 test it\n' }, 'todo.lines');
    assert.equal(workflow.source.reader, 'lines');
    assert.deepEqual(workflow.tasks.map((t) => [t.id, t.task, t.depends_on]), [['t1', 'write it', []], ['t2', 'test it', ['t1']]]);
    // The core's checks use the lines the reader recorded.
    await assert.rejects(load({ '.supervisor/plugins/lines.mjs': good, 'todo.lines': 't1 a\nt1 b\n' }, 'todo.lines'), (e: SupervisorError) => {
      assert.deepEqual([e.code, e.details.task, e.details.pointer, e.details.line], ['WORKFLOW_DUPLICATE_TASK', 't1', '/tasks/1/id', 2]);
      return true;
    });
    // A reader is untrusted: what it returns is checked.
    const bad = reader("return { tasks: [{ id: 'a', title: 'A', task: 'x', dependsOn: ['b'] }] };");
    await assert.rejects(load({ '.supervisor/plugins/lines.mjs': bad, 'todo.lines': 'x' }, 'todo.lines'), (e: SupervisorError) => {
      assert.deepEqual([e.code, e.details.task, e.details.pointer, e.details.reader], ['WORKFLOW_INVALID', 'a', '/tasks/0/dependsOn', 'lines']);
      assert.match(e.message, /did you mean "depends_on"/);
      return true;
    });
  });

  it('attributes a reader that throws to the reader and the file', async () => {
    const reader = `import { definePlugin } from 'supervisor/plugin';\nexport default definePlugin({ kind: 'plan-reader', name: 'boom', extensions: ['.boom'], read() { throw new TypeError('kaput'); } });\n`;
    await assert.rejects(load({ '.supervisor/plugins/boom.mjs': reader, 'p.boom': 'x' }, 'p.boom'), (e: SupervisorError) => {
      assert.equal(e.code, 'PLUGIN_HOOK');
      assert.match(e.message, /"boom".*read.*p\.boom.*kaput/);
      return true;
    });
  });

  it('a reader that never answers is PLUGIN_TIMEOUT naming it, not a hang', async () => {
    const reader = `import { definePlugin } from 'supervisor/plugin';\nexport default definePlugin({ kind: 'plan-reader', name: 'stuck', extensions: ['.stuck'], read() { return new Promise(() => {}); } });\n`;
    const saved = process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS;
    process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS = '1500'; // the import of the plugin file too: roomy for a loaded machine
    try {
      await assert.rejects(load({ '.supervisor/plugins/stuck.mjs': reader, 'p.stuck': 'x' }, 'p.stuck'), (e: SupervisorError) => {
        assert.equal(e.code, 'PLUGIN_TIMEOUT');
        assert.match(e.message, /stuck/);
        return true;
      });
    } finally {
      if (saved === undefined) delete process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS;
      else process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS = saved;
    }
  });
});
