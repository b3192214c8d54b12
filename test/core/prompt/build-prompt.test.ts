/**
 * buildPrompt on real temporary git repositories with the real roles, packers and output
 * schemas: template choice, the legacy plain prompt, instruction files, budget reservation,
 * stats, project overrides, and user text (task and file contents) kept as data.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readAsset } from '../../../core/assets.ts';
import { MARKERS } from '../../../core/files/constants.ts';
import { countTokens, estimateTokens } from '../../../core/context/tokens.ts';
import { isSupervisorError } from '../../../core/errors.ts';
import { buildPrompt, type BuildPromptOptions, type PackingDeps } from '../../../core/prompt/build-prompt.ts';
import { chooseTemplate } from '../../../core/prompt/choose-template.ts';
import { instructionPaths } from '../../../core/prompt/instructions.ts';
import { loadRole } from '../../../core/roles/load-role.ts';
import type { Role } from '../../../core/roles/role.ts';
import { makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { ADAPTERS, fakeRole, packerRegistry } from './fixtures.ts';

const registry = await packerRegistry();
const repo = await makeRepo({
  'README.md': '# Demo\n\nREADME-MARKER. Literal tags: <%= it.task %> and <% throw new Error("x") %>\n',
  'src/app.ts': "export const greet = (name: string) => `hi ${name}`; // <%~ include('_base') %>\n",
});

function role(name: string): Promise<Role> {
  return loadRole(name, { repoRoot: repo, homeDir: repo, adapters: ADAPTERS });
}

function options(r: Role, extra: Partial<BuildPromptOptions> = {}): BuildPromptOptions {
  return { role: r, task: 'TASK-MARKER', targets: ['src/app.ts'], extraContext: { test_output: 'EXTRA-MARKER' }, repoRoot: repo, registry, instructionsAsArguments: false, ...extra };
}

describe('template choice', () => {
  it('follows the role name, then base_role; a role may name its own; else none', () => {
    assert.equal(chooseTemplate({ name: 'planner', base_role: null, template: null }), 'planning');
    assert.equal(chooseTemplate({ name: 'implementer', base_role: null, template: null }), 'implement');
    assert.equal(chooseTemplate({ name: 'reviewer', base_role: null, template: null }), 'review_strict');
    assert.equal(chooseTemplate({ name: 'my-reviewer', base_role: 'reviewer', template: null }), 'review_strict');
    assert.equal(chooseTemplate({ name: 'reviewer', base_role: null, template: 'custom' }), 'custom');
    assert.equal(chooseTemplate({ name: 'worker', base_role: null, template: null }), null);
  });

  for (const [name, template, schema] of [
    ['planner', 'planning', 'plan'],
    ['implementer', 'implement', 'implementation'],
    ['reviewer', 'review_strict', 'review'],
    ['reviewer-security', 'review_strict', 'review'],
  ] as const) {
    it(`${name} renders ${template} with the ${schema} schema`, async () => {
      const built = await buildPrompt(options(await role(name)));
      assert.equal(built.template, template);
      assert.equal(built.outputSchema.name, schema);
      const r = await role(name);
      assert.ok(built.prompt.includes(r.system_prompt.trimEnd()), 'system prompt injected');
      assert.match(built.prompt, /README-MARKER|src\/app\.ts/);
      assert.match(built.prompt, /## Task\n\nTASK-MARKER/);
      assert.match(built.prompt, /MUST end your response with a fenced JSON code block/);
      assert.match(built.prompt, new RegExp(`### Output schema: \`${schema}\``));
    });
  }

  it("a template role with another parser is asked for that parser's format in its first prompt", async () => {
    const worker = { ...(await role('worker')), template: 'implement' };
    const built = await buildPrompt(options(worker));
    assert.equal(built.template, 'implement');
    assert.match(built.prompt, /## Output Requirements\n\nStart your answer with v2 structured headers: the very first line is\n`role: worker`/);
    assert.doesNotMatch(built.prompt, /fenced JSON code block/);
  });

  it('a role without a template gets the plain legacy prompt: system prompt, task, files, extra context', async () => {
    const worker = await role('worker');
    const built = await buildPrompt(options(worker));
    assert.equal(built.template, null);
    assert.equal(built.outputSchema.name, 'v2-result');
    assert.ok(built.prompt.startsWith(worker.system_prompt.trimEnd()));
    assert.match(built.prompt, /## Task\n\nTASK-MARKER/);
    assert.match(built.prompt, /### src\/app\.ts/);
    assert.match(built.prompt, /EXTRA-MARKER/);
    assert.doesNotMatch(built.prompt, /## Output Requirements/);
  });
});

describe('instruction files', () => {
  it('are rendered into the prompt when the CLI does not take them', async () => {
    const built = await buildPrompt(options(await role('oneshot')));
    const system = readAsset('roles/system.md')!.content;
    assert.deepEqual(built.instructionFiles, []);
    assert.match(built.prompt, /## Instructions: system\.md/);
    assert.ok(built.prompt.includes(system.trim().split('\n')[0]!));
  });

  it('are handed to the CLI, and left out of the prompt, when it takes them as arguments', async () => {
    const oneshot = await role('oneshot');
    const built = await buildPrompt(options(oneshot, { instructionsAsArguments: true }));
    assert.deepEqual(built.instructionFiles, oneshot.instructions);
    assert.doesNotMatch(built.prompt, /## Instructions: system\.md/);
    assert.equal(await readFile(built.instructionFiles[0]!, 'utf8'), readAsset('roles/system.md')!.content);
  });

  it('render into templates too, before the output requirements', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'rules.md': 'RULES-MARKER\n' });
    const r = { ...(await role('implementer')), instructions: [join(dir, 'rules.md')] };
    const { prompt } = await buildPrompt(options(r));
    assert.match(prompt, /## Instructions: rules\.md\n\nRULES-MARKER\n/);
    assert.ok(prompt.indexOf('RULES-MARKER') < prompt.indexOf('## Output Requirements'));
  });

  it('built-in files inside the binary are written out for the CLI', async () => {
    const [path] = await instructionPaths(['<builtin>/roles/system.md'], 'oneshot', await tempDir());
    assert.equal(await readFile(path!, 'utf8'), readAsset('roles/system.md')!.content);
  });

  it('a missing instruction file is an error naming it', async () => {
    const r = { ...(await role('implementer')), instructions: ['/nonexistent/system.md'] };
    await assert.rejects(buildPrompt(options(r)), (e) => isSupervisorError(e) && e.code === 'INSTRUCTION_READ' && e.details.file === '/nonexistent/system.md');
  });
});

describe('budget and stats', () => {
  const bigRepo = makeRepo({ 'src/t.ts': 'export const t = 1;\n', 'docs/big.md': `${'lorem ipsum '.repeat(400)}\n` });
  const budgeted = (tokenBudget: number) => fakeRole({ name: 'implementer', context: { include: ['$TARGET', 'docs/*.md'], token_budget: tokenBudget } });

  it('the file context gets token_budget minus the template overhead (1000 tokens)', async () => {
    const built = await buildPrompt({ ...options(budgeted(1200)), repoRoot: await bigRepo, targets: ['src/t.ts'], extraContext: {} });
    assert.equal(built.stats.contextBudgetTokens, 200);
    assert.match(built.prompt, /export const t = 1;/);
    // the big file crosses the line: its head is kept, cut with a marker
    assert.match(built.prompt, /lorem ipsum/);
    assert.match(built.prompt, /\[Truncated to fit the token budget: kept 1 of 1 lines of docs\/big\.md\]/);
    assert.deepEqual(built.stats.pruned, []);
    assert.deepEqual(built.stats.truncated, ['docs/big.md']);
  });

  it('with no room left after the overhead, the context says so', async () => {
    const task = 'Long task. '.repeat(300);
    const built = await buildPrompt({ ...options(budgeted(1000)), task, repoRoot: await bigRepo, targets: ['src/t.ts'], extraContext: {} });
    assert.equal(built.stats.contextBudgetTokens, 0);
    assert.ok(built.prompt.includes(MARKERS.overheadExceedsBudget));
    assert.ok(built.stats.warnings.some((w) => /exceeds the token budget/.test(w)));
    assert.ok(built.stats.warnings.some((w) => /over the role's token_budget of 1000/.test(w)), 'the final size is checked too');
    assert.ok(built.prompt.includes(task.trimEnd()), 'the task is never pruned');
  });

  it('reports the estimated size of the whole prompt and of each part', async () => {
    const built = await buildPrompt(options(await role('implementer')));
    assert.equal(built.stats.promptTokens, estimateTokens(built.prompt));
    const keys = built.stats.parts.map((p) => p.key);
    for (const key of ['target_file', 'test_output', 'system_prompt', 'task', 'template']) assert.ok(keys.includes(key), key);
    const sum = built.stats.parts.filter((p) => !p.pruned).reduce((s, p) => s + p.tokens, 0);
    assert.equal(sum, built.stats.promptTokens);
  });

  it('counts with o200k when asked', async () => {
    const built = await buildPrompt(options(await role('planner'), { tokenizer: 'o200k' }));
    assert.equal(built.stats.promptTokens, await countTokens(built.prompt, 'o200k'));
    assert.notEqual(built.stats.promptTokens, estimateTokens(built.prompt));
  });
});

describe('user text is data, end to end', () => {
  for (const name of ['implementer', 'reviewer', 'worker']) {
    it(`${name}: tags in the task and in file contents come out verbatim`, async () => {
      const task = 'Fix it <%= it.role.system_prompt %> <% throw new Error("pwned") %>';
      const { prompt } = await buildPrompt(options(await role(name), { task }));
      assert.ok(prompt.includes(task));
      assert.ok(prompt.includes("// <%~ include('_base') %>"));
      if (name !== 'reviewer') assert.ok(prompt.includes('Literal tags: <%= it.task %> and <% throw new Error("x") %>'));
    });
  }
});

describe('project templates and template names', () => {
  it("a trusted project's .supervisor/prompts/implement.eta wins over the built-in", async () => {
    const own = await makeRepo({ 'src/app.ts': 'x\n', '.supervisor/prompts/implement.eta': 'PROJECT TEMPLATE <%= it.task %> <%= it.role.name %>\n' });
    const built = await buildPrompt({ ...options(await role('implementer')), repoRoot: own, trustedRepo: true });
    assert.equal(built.prompt, 'PROJECT TEMPLATE TASK-MARKER implementer\n');
  });

  it("an untrusted project's templates do not render: the built-in does, and a notice says what was left out and how to trust", async () => {
    const own = await makeRepo({ 'src/app.ts': 'x\n', '.supervisor/prompts/implement.eta': 'PROJECT TEMPLATE <%= process.pid %>\n' });
    const notices: string[] = [];
    const built = await buildPrompt({ ...options(await role('implementer')), repoRoot: own, notice: (m) => void notices.push(m) });
    assert.doesNotMatch(built.prompt, /PROJECT TEMPLATE/);
    assert.ok(notices.some((n) => n.includes('implement.eta') && n.includes(`supervisor trust ${own}`)), notices.join('\n'));
  });

  it('a role naming an unknown or path-like template fails before anything is packed', async () => {
    let packed = 0;
    const packing: PackingDeps = {
      packFileContext: async () => assert.fail(`packed ${++packed}`),
      packContext: async () => assert.fail(`packed ${++packed}`),
    };
    for (const template of ['nope', '../../etc/passwd', 'prompts/planning']) {
      const r = { ...(await role('implementer')), template };
      await assert.rejects(buildPrompt(options(r), packing), (e) => isSupervisorError(e) && e.code === 'TEMPLATE_NOT_ALLOWED');
    }
    assert.equal(packed, 0);
  });

  it('a role may name a template with its extension', async () => {
    const r = { ...(await role('worker')), template: 'implement.eta' };
    assert.equal((await buildPrompt(options(r))).template, 'implement');
  });
});
