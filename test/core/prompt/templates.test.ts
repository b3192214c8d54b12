/** The allowlist: built-ins through the assets, project templates from .supervisor/prompts/. */
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSupervisorError } from '../../../core/errors.ts';
import { createRenderer } from '../../../core/prompt/render.ts';
import { getTemplate, loadTemplateSet, normaliseTemplateName } from '../../../core/prompt/templates.ts';
import { tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { asRecord, fakeData } from './fixtures.ts';

describe('template set', () => {
  it('holds the built-ins, read through the assets', async () => {
    const set = await loadTemplateSet(undefined);
    assert.deepEqual([...set.keys()].sort(), ['_base', '_context', '_output_schema', 'implement', 'planning', 'review_strict']);
    for (const source of set.values()) assert.equal(source.origin, 'builtin');
  });

  it("a project's .supervisor/prompts/<name>.eta wins over the built-in and can add new names", async () => {
    const repo = await tempDir();
    await writeFiles(repo, {
      '.supervisor/prompts/planning.eta': "<% layout('_base') %>\n<% block('content', () => { %>\nPROJECT PLANNING for <%= it.task %>\n<% }) %>\n",
      '.supervisor/prompts/security.eta': 'SECURITY <%= it.role.name %>',
      '.supervisor/prompts/notes.txt': 'not a template',
      '.supervisor/prompts/bad name.eta': 'skipped: not a plain name',
    });
    const set = await loadTemplateSet(repo, { trusted: true });
    assert.equal(set.get('planning')!.origin, 'project');
    assert.equal(set.get('planning')!.file, join(repo, '.supervisor/prompts/planning.eta'));
    assert.ok(set.has('security'));
    assert.ok(!set.has('notes') && !set.has('bad name'));
    const out = createRenderer(set).render('planning', asRecord(fakeData()));
    assert.match(out, /^PROJECT PLANNING for TASK-MARKER/);
    // The project template still extends the built-in _base: output requirements follow.
    assert.match(out, /## Output Requirements[\s\S]*### Output schema: `verdict`/);
    assert.equal(createRenderer(set).render('security', asRecord(fakeData())), 'SECURITY reviewer');
  });

  it('follows a symlinked project template (trusted like plugins)', async () => {
    const repo = await tempDir();
    await writeFiles(repo, { 'shared/t.eta': 'LINKED', '.supervisor/prompts/.keep': '' });
    await symlink(join(repo, 'shared/t.eta'), join(repo, '.supervisor/prompts/linked.eta'));
    assert.equal(createRenderer(await loadTemplateSet(repo, { trusted: true })).render('linked', {}), 'LINKED');
  });

  it('reads the built-ins once per process, the project templates on every load', async () => {
    const repo = await tempDir();
    await writeFiles(repo, { '.supervisor/prompts/mine.eta': 'ONE' });
    const first = await loadTemplateSet(repo, { trusted: true });
    await writeFiles(repo, { '.supervisor/prompts/mine.eta': 'TWO' });
    const second = await loadTemplateSet(repo, { trusted: true });
    assert.equal(second.get('_base'), first.get('_base'), 'the same built-in source, not a re-read');
    assert.equal(second.get('mine')!.content, 'TWO');
  });

  it('a repository without .supervisor/prompts has just the built-ins', async () => {
    assert.equal((await loadTemplateSet(await tempDir(), { trusted: true })).size, 6);
  });
});

describe('template names', () => {
  it('strips .eta and refuses anything path-like', () => {
    assert.equal(normaliseTemplateName('planning.eta', []), 'planning');
    for (const bad of ['a/b', 'a\\b', '..', '../x', 'x..', 'nul\0']) {
      assert.throws(() => normaliseTemplateName(bad, []), (e) => isSupervisorError(e) && e.code === 'TEMPLATE_NOT_ALLOWED' && e.details.reason === 'path');
    }
  });

  it('getTemplate refuses a name outside the set', async () => {
    const set = await loadTemplateSet(undefined);
    assert.throws(() => getTemplate(set, 'secrets'), (e) => isSupervisorError(e) && e.code === 'TEMPLATE_NOT_ALLOWED');
    assert.equal(getTemplate(set, 'review_strict').name, 'review_strict');
  });
});
