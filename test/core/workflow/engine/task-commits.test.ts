/**
 * An integration branch a reviewer can audit: one commit per integrated task on its
 * first-parent line (a --no-ff merge commit, or with merge: squash one squashed commit), each
 * naming the task and carrying the Supervisor-* trailers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runRole as realRunRole, type RunDeps, type RunHooks, type RunRequest } from '../../../../core/run/run-role.ts';
import { builtinEntries } from '../../../../core/plugins/load.ts';
import { createRegistry } from '../../../../core/registry.ts';
import { runWorkflow } from '../../../../core/workflow/engine/run-workflow.ts';
import { git, makeRepo, tempDir } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

const registry = createRegistry(builtinEntries());

async function run(merge: 'merge' | 'squash') {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const options = { repoRoot: repo, homeDir: await tempDir(), env: { ...process.env }, registry, cli: { byRole: {}, all: 'replay' }, runDefaults: { graceMs: 200, backoffMs: 10 } };
  const wf = workflow([task('a', { reviewers: ['spec-reviewer'] }), task('b', { depends_on: ['a'], approve: true })], { merge });
  // The replay worker changes nothing: each worker run finds the task's file written, as a CLI would have.
  const runRole = async (o: RunRequest, deps: RunDeps, hooks?: RunHooks) => {
    if (o.role === 'worker' && o.workspace) await writeFile(join(o.workspace.path, `${o.workflow?.task}.txt`), `done by ${o.workflow?.task}\n`);
    return realRunRole(o, deps, hooks);
  };
  const result = await runWorkflow({ ...options, workflow: wf, approveAll: true, runRole });
  assert.equal(result.status, 'pass');
  const [base, tip] = result.git_range.split('..');
  const commits = git(repo, 'rev-list', '--first-parent', '--reverse', `${base}..${tip}`).trim().split('\n');
  const trailers = (sha: string) => Object.fromEntries(git(repo, 'log', '-1', '--format=%(trailers:only,unfold)', sha).trim().split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
  return { repo, result, commits, trailers };
}

describe('the integration branch, one commit per task', () => {
  it('merge: a --no-ff merge commit per task (even when a fast-forward was possible), with its trailers', async () => {
    const { repo, result, commits, trailers } = await run('merge');
    assert.equal(commits.length, 2, 'one first-parent commit per task');
    const [a, b] = commits as [string, string];
    assert.equal(git(repo, 'rev-list', '--parents', '-n1', a).trim().split(' ').length, 3, 'a merge commit, though a fast-forward was possible');
    assert.match(git(repo, 'log', '-1', '--format=%s', a).trim(), /^Merge task a: task a$/);
    const ta = trailers(a);
    assert.equal(ta['Supervisor-Workflow'], result.workflow_id);
    assert.equal(ta['Supervisor-Task'], 'a');
    assert.deepEqual(ta['Supervisor-Runs']!.split(', '), result.tasks[0]!.runs.map((r) => r.run_id));
    assert.equal(ta['Supervisor-Reviewed-By'], 'spec-reviewer');
    assert.equal(ta['Supervisor-Approved-By'], undefined);
    const tb = trailers(b);
    assert.equal(tb['Supervisor-Task'], 'b');
    assert.equal(tb['Supervisor-Reviewed-By'], 'spec-reviewer, code-quality-reviewer');
    assert.match(tb['Supervisor-Approved-By']!, /--approve-all/);
  });

  it('squash: one commit per task on the line, no second parent', async () => {
    const { repo, commits, trailers } = await run('squash');
    assert.equal(commits.length, 2);
    for (const sha of commits) assert.equal(git(repo, 'rev-list', '--parents', '-n1', sha).trim().split(' ').length, 2);
    assert.match(git(repo, 'log', '-1', '--format=%s', commits[1]!).trim(), /^Task b: task b$/);
    assert.equal(trailers(commits[1]!)['Supervisor-Task'], 'b');
  });
});
