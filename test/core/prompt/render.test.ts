/**
 * Seed 000 Task 2's acceptance criteria for the render layer: templates render, the system
 * prompt is injected, context is included, output requirements are present, only allowlisted
 * names render, undefined variables are errors (template, variable, line), user text is data.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSupervisorError, type SupervisorError } from '../../../core/errors.ts';
import { createRenderer } from '../../../core/prompt/render.ts';
import { loadTemplateSet, type TemplateSet, type TemplateSource } from '../../../core/prompt/templates.ts';
import { answerFormat } from '../../../core/output/answer-format.ts';
import { definePlugin } from '../../../core/plugin-api/index.ts';
import { createRegistry } from '../../../core/registry.ts';
import { asRecord, fakeData, fakeRole, verdictSchema } from './fixtures.ts';

const builtins = await loadTemplateSet(undefined);

/** The built-ins plus hand-written templates, as a project's .supervisor/prompts/ would add. */
function withTemplates(extra: Record<string, string>): TemplateSet {
  const set = new Map<string, TemplateSource>(builtins);
  for (const [name, content] of Object.entries(extra)) set.set(name, { name, content, file: `/project/.supervisor/prompts/${name}.eta`, origin: 'project' });
  return set;
}

function thrown(fn: () => unknown): SupervisorError {
  try {
    fn();
  } catch (error) {
    assert.ok(isSupervisorError(error), `expected a SupervisorError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an error');
}

describe('built-in templates', () => {
  const renderer = createRenderer(builtins);

  it('ships the five templates of the seed plus the context partial', () => {
    for (const name of ['_base', '_output_schema', '_context', 'planning', 'implement', 'review_strict']) assert.ok(renderer.names.includes(name), name);
  });

  for (const name of ['planning', 'implement', 'review_strict']) {
    it(`${name} renders with the system prompt, context, task and output requirements`, () => {
      const out = renderer.render(name, asRecord(fakeData()));
      assert.match(out, /SYSTEM-PROMPT-MARKER/);
      assert.match(out, /## Repository Context[\s\S]*CONTEXT-MARKER/);
      assert.match(out, /## Task\n\nTASK-MARKER/);
      assert.match(out, /## Output Requirements/);
      assert.match(out, /MUST end your response with a fenced JSON code block/);
      assert.match(out, /Bare JSON without fences will NOT be accepted/);
      assert.match(out, /### Output schema: `verdict`/);
      assert.match(out, /- `status` \(string, required\): The verdict\. Allowed values: "OK", "NOT_OK"\./);
      assert.match(out, /- `findings` \(array of objects, required\)/);
      assert.match(out, / {2}- `findings\[\]\.where` \(string, required\)/);
      assert.doesNotMatch(out, /undefined|\[object Object\]/);
      // The content comes before the output requirements, which end the prompt.
      assert.ok(out.indexOf('TASK-MARKER') < out.indexOf('## Output Requirements'));
    });
  }

  it('renders the instruction files into the prompt when there are any', () => {
    const out = renderer.render('implement', asRecord(fakeData({ instructions: [{ name: 'system.md', content: 'INSTRUCTION-MARKER\n' }] })));
    assert.match(out, /## Instructions: system\.md\n\nINSTRUCTION-MARKER\n/);
    assert.ok(out.indexOf('INSTRUCTION-MARKER') < out.indexOf('## Output Requirements'));
  });

  it("asks for another parser's own format instead of fenced JSON", () => {
    const out = renderer.render('implement', asRecord(fakeData({ role: fakeRole({ name: 'spec-reviewer', parser: 'v2-headers' }) })));
    assert.doesNotMatch(out, /MUST end your response with a fenced JSON/);
    assert.match(out, /## Output Requirements\n\nStart your answer with v2 structured headers: the very first line is\n`role: spec-reviewer`/);
  });

  it('a parser without format instructions: the report format the instructions define, read by that parser', () => {
    const plain = definePlugin({ kind: 'parser', name: 'plain', parse: (_text, ctx) => ctx.validate({}) });
    const registry = createRegistry([{ plugin: plain, source: '/p/plain.ts', layer: 'cli' }]);
    const role = fakeRole({ parser: 'plain' });
    const outputFormat = answerFormat({ registry, parser: 'plain', schema: verdictSchema, schemaInPrompt: true });
    const out = renderer.render('implement', asRecord(fakeData({ role, outputFormat })));
    assert.doesNotMatch(out, /MUST end your response with a fenced JSON/);
    assert.match(out, /read by the `plain` parser/);
  });

  it('follows the role: gates listed, test-first when tdd is on', () => {
    const out = renderer.render('implement', asRecord(fakeData({ role: fakeRole({ gates: ['npm test'], config: { tdd: true, coverage_target: 85 } }) })));
    assert.match(out, /- `npm test`/);
    assert.match(out, /Work test-first/);
    assert.match(out, /at or above 85%/);
  });

  it('leaves no blank lines where control tags stood', () => {
    const out = renderer.render('review_strict', asRecord(fakeData()));
    assert.doesNotMatch(out, /\n\n\n/);
    assert.doesNotMatch(out, /<%|%>/);
  });
});

describe('allowlist', () => {
  const renderer = createRenderer(builtins);

  for (const name of ['../planning', 'prompts/planning', '..', 'a\\b', '/etc/passwd', 'planning/../_base', '..planning']) {
    it(`refuses the path-like name ${JSON.stringify(name)}`, () => {
      const error = thrown(() => renderer.render(name, asRecord(fakeData())));
      assert.equal(error.code, 'TEMPLATE_NOT_ALLOWED');
      assert.equal(error.details.reason, 'path');
    });
  }

  it('refuses a name that is not a built-in or a project template, listing the allowed ones', () => {
    const error = thrown(() => renderer.render('nope', asRecord(fakeData())));
    assert.equal(error.code, 'TEMPLATE_NOT_ALLOWED');
    assert.equal(error.details.reason, 'unknown');
    assert.ok((error.details.known as string[]).includes('planning'));
  });

  it('accepts the name with its .eta extension', () => {
    assert.match(createRenderer(builtins).render('planning.eta', asRecord(fakeData())), /TASK-MARKER/);
  });

  it('applies to layouts and includes inside templates too', () => {
    const set = withTemplates({ evil: `<% layout('../secret') %>x`, sneaky: `<%~ include('other') %>` });
    assert.equal(thrown(() => createRenderer(set).render('evil', {})).code, 'TEMPLATE_NOT_ALLOWED');
    assert.equal(thrown(() => createRenderer(set).render('sneaky', {})).code, 'TEMPLATE_NOT_ALLOWED');
  });
});

describe('data that leads nowhere but data', () => {
  it('gives no way from `it` to the Function constructor (it.constructor.constructor reached process before)', () => {
    const set = withTemplates({
      escape: `<%= it.constructor.constructor('return process')().pid %>`,
      nested: `<%= it.role.constructor.constructor('return process')().pid %>`,
      viaProto: `<%= it.__proto__.constructor.constructor('return process')().pid %>`,
      viaArray: `<%= it.targets.constructor.constructor('return process')().pid %>`,
    });
    for (const name of ['escape', 'nested', 'viaProto']) {
      const error = thrown(() => createRenderer(set).render(name, asRecord(fakeData())));
      assert.equal(error.code, 'TEMPLATE_UNDEFINED_VARIABLE', name);
    }
    assert.equal(thrown(() => createRenderer(set).render('viaArray', asRecord(fakeData()))).code, 'TEMPLATE_RENDER');
  });

  it('still lets templates use array methods and iterate objects', () => {
    const set = withTemplates({ arrays: `<%= it.targets.map((t) => t.path).filter(Boolean).join(',') %>|<%= Object.keys(it.role).length > 0 %>` });
    assert.match(createRenderer(set).render('arrays', asRecord(fakeData())), /\|true$/);
  });
});

describe('undefined variables (StrictUndefined)', () => {
  it('names the template, the variable and the line', () => {
    const set = withTemplates({ typo: 'line one\nline two\nTask: <%= it.taks %>\n' });
    const error = thrown(() => createRenderer(set).render('typo', asRecord(fakeData())));
    assert.equal(error.code, 'TEMPLATE_UNDEFINED_VARIABLE');
    assert.deepEqual(error.details, { template: 'typo', variable: 'it.taks', line: 3 });
    assert.match(error.message, /typo.*line 3.*it\.taks/);
  });

  it('catches nested keys, array items and bare identifiers', () => {
    const set = withTemplates({
      nested: '\n<%= it.role.system_promt %>',
      item: '<%= it.targets[5].length %>',
      bare: 'a\nb\n<% if (x) { %>y<% } %>',
      deep: '<%= it.role.context.token_budget %>',
    });
    const renderer = createRenderer(set);
    assert.deepEqual(thrown(() => renderer.render('nested', asRecord(fakeData()))).details, { template: 'nested', variable: 'it.role.system_promt', line: 2 });
    assert.equal(thrown(() => renderer.render('item', asRecord(fakeData()))).details.variable, 'it.targets[5]');
    assert.deepEqual(thrown(() => renderer.render('bare', asRecord(fakeData()))).details, { template: 'bare', variable: 'x', line: 3 });
    assert.equal(thrown(() => renderer.render('deep', asRecord(fakeData()))).details.variable, 'it.role.context.token_budget');
  });

  it('names the included template, not the one that included it', () => {
    const set = withTemplates({ outer: 'one\n<%~ include("inner") %>', inner: 'a\nb\n<%= it.missing %>' });
    assert.deepEqual(thrown(() => createRenderer(set).render('outer', asRecord(fakeData()))).details, { template: 'inner', variable: 'it.missing', line: 3 });
  });

  it('reports a bad key in a child block with the child name and line', () => {
    const set = withTemplates({ child: `<% layout('_base') %>\n<% block('content', () => { %>\nok\n<%= it.nope %>\n<% }) %>` });
    assert.deepEqual(thrown(() => createRenderer(set).render('child', asRecord(fakeData()))).details, { template: 'child', variable: 'it.nope', line: 4 });
  });

  it('lets templates test for optional keys with `in`, and read null values', () => {
    const set = withTemplates({ probe: `<%= 'token_budget' in it.role.context ? 'yes' : 'no' %> <%= it.role.base_role %>` });
    assert.equal(createRenderer(set).render('probe', asRecord(fakeData())), 'no null');
  });

  it('works on frozen data', () => {
    const data = Object.freeze({ ...fakeData(), role: Object.freeze(fakeRole()) });
    assert.match(createRenderer(builtins).render('planning', asRecord(data)), /SYSTEM-PROMPT-MARKER/);
  });
});

describe('user text is data', () => {
  const attacks = [
    '<%= it.role.name %>',
    '<% throw new Error("pwned") %>',
    '<%~ include("_base") %>',
    "<% process.exit(1) %> and <%= require('fs') %>",
    '<%# comment %> <%- x -%> ${"template literal"} \\n \' " `',
  ];

  for (const attack of attacks) {
    it(`a task containing ${attack} comes out verbatim`, () => {
      const out = createRenderer(builtins).render('implement', asRecord(fakeData({ task: `before ${attack} after` })));
      assert.ok(out.includes(`before ${attack} after`));
    });

    it(`file contents containing ${attack} come out verbatim`, () => {
      const context = `## Target Files\n\n\`\`\`ts\nconst s = '${attack}';\n\`\`\`\n`;
      const out = createRenderer(builtins).render('review_strict', asRecord(fakeData({ context, extraContext: { notes: attack } })));
      assert.ok(out.includes(`const s = '${attack}';`));
    });
  }

  it('instruction files and the system prompt are data as well', () => {
    const role = fakeRole({ system_prompt: 'SP <%= it.task %>' });
    const out = createRenderer(builtins).render('planning', asRecord(fakeData({ role, instructions: [{ name: 'system.md', content: '<% throw 1 %>' }] })));
    assert.ok(out.includes('SP <%= it.task %>'));
    assert.ok(out.includes('<% throw 1 %>'));
  });
});

describe('template errors', () => {
  it('a syntax error names the template and its file', () => {
    const error = thrown(() => createRenderer(withTemplates({ broken: 'a\n<%= it.task ' })).render('broken', {}));
    assert.equal(error.code, 'TEMPLATE_SYNTAX');
    assert.equal(error.details.template, 'broken');
    assert.equal(error.details.file, '/project/.supervisor/prompts/broken.eta');
  });

  it('an exception in a tag names the template and line', () => {
    const error = thrown(() => createRenderer(withTemplates({ boom: 'a\n<%= truncateLines(42, 1) %>' })).render('boom', asRecord(fakeData())));
    assert.equal(error.code, 'TEMPLATE_RENDER');
    assert.deepEqual(error.details, { template: 'boom', line: 2 });
  });
});

describe('helpers in templates', () => {
  it('truncateLines and formatDiff are callable by name', () => {
    const set = withTemplates({ helpers: '<%= truncateLines(it.task, 2) %>|<%= formatDiff(it.context) %>' });
    const out = createRenderer(set).render('helpers', asRecord(fakeData({ task: 'a\nb\nc\nd', context: '+x\n-y\n' })));
    assert.equal(out, 'a\nb\n\n[Truncated 2 lines]|```diff\n+x\n-y\n```');
  });
});
