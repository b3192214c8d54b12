/** `workflow finish` hands on only the commit the workflow passed, whatever a CLI did to the branch or to result.json. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtinEntries } from '../../../../core/plugins/load.ts';
import { createRegistry } from '../../../../core/registry.ts';
import { finishWorkflow } from '../../../../core/workflow/engine/finish.ts';
import { runWorkflow } from '../../../../core/workflow/engine/run-workflow.ts';
import { WorkflowStore } from '../../../../core/workflow/engine/store.ts';
import { git, makeRepo, tempDir } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

const registry = createRegistry(builtinEntries());

async function passed() {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const options = { repoRoot: repo, homeDir: await tempDir(), env: { ...process.env }, registry, cli: { byRole: {}, all: 'replay' }, runDefaults: { graceMs: 200, backoffMs: 10 } };
  const result = await runWorkflow({ ...options, workflow: workflow([task('a', { reviewers: [] })]) });
  assert.equal(result.status, 'pass', JSON.stringify(result.tasks));
  return { repo, result, ops: { repoRoot: repo, env: options.env } };
}

describe('workflow finish', () => {
  it('hands on the tip the engine recorded, not a commit a CLI moved the branch to', async () => {
    const { repo, result, ops } = await passed();
    const passedTip = result.git_range.split('..')[1]!;
    const elsewhere = git(repo, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit-tree', 'HEAD^{tree}', '-m', 'elsewhere').trim();
    git(repo, 'update-ref', `refs/heads/${result.branch}`, elsewhere);
    const outcome = await finishWorkflow(ops, result.workflow_id, { into: 'release' });
    assert.equal(outcome.tip, passedTip);
    assert.equal(git(repo, 'rev-parse', 'release').trim(), passedTip);
    assert.equal(git(repo, 'rev-parse', result.branch).trim(), passedTip, 'the branch is put back');
  });

  it('refuses when result.json names another commit than the branch the engine recorded', async () => {
    const { result, ops, repo } = await passed();
    const file = join(new WorkflowStore(repo, result.workflow_id).dir, 'result.json');
    const written = JSON.parse(readFileSync(file, 'utf8')) as { git_range: string };
    writeFileSync(file, JSON.stringify({ ...written, git_range: `${written.git_range.split('..')[0]}..${'0'.repeat(39)}1` }));
    await assert.rejects(finishWorkflow(ops, result.workflow_id, { into: 'release' }), { code: 'WORKFLOW_NOT_PASSED' });
  });
});
