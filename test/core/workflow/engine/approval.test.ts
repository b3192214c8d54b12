/**
 * A person in the loop, through the engine as a library (offline, replay): a task with
 * `approve` waits after its reviewers pass, independent tasks go on, the workflow ends
 * `awaiting_approval` (exit 5); an approval merges it on resume, a rejection sends the
 * person's issues to the worker's next round.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtinEntries } from '../../../../core/plugins/load.ts';
import { createRegistry } from '../../../../core/registry.ts';
import { decideTasks } from '../../../../core/workflow/engine/approval.ts';
import { resumeWorkflow, runWorkflow } from '../../../../core/workflow/engine/run-workflow.ts';
import type { ProgressEvent } from '../../../../core/workflow/engine/context.ts';
import { WorkflowStore } from '../../../../core/workflow/engine/store.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../../helpers/checkout.ts';
import { git, makeRepo, tempDir } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

const registry = createRegistry(builtinEntries());

async function setup() {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const options = { repoRoot: repo, homeDir: await tempDir(), env: { ...process.env }, registry, cli: { byRole: {}, all: 'replay' }, runDefaults: { graceMs: 200, backoffMs: 10 } };
  return { repo, before: snapshotCheckout(repo), options };
}

describe('approval before merge', () => {
  it('holds the task (exit 5) while independent tasks integrate; approve merges it and its dependent runs; reject puts the issues in the next round', async () => {
    const { repo, before, options } = await setup();
    const wf = workflow([task('held', { approve: true, reviewers: [] }), task('after', { depends_on: ['held'], reviewers: [] }), task('free', { reviewers: [] }), task('sent-back', { approve: true, reviewers: [] })]);
    const first = await runWorkflow({ ...options, workflow: wf, jobs: 2 });
    assert.equal(first.status, 'awaiting_approval');
    assert.equal(first.exit_code, 5);
    const byId = (r: typeof first) => Object.fromEntries(r.tasks.map((t) => [t.id, t]));
    assert.equal(byId(first).held!.status, 'awaiting_approval');
    assert.equal(byId(first).after!.status, 'pending');
    assert.equal(byId(first).free!.status, 'integrated');
    assert.throws(() => decideTasks(repo, 'wf-test', ['free'], { decision: 'approved', by: 'me', issues: [] }), { code: 'WORKFLOW_TASK_NOT_AWAITING' });
    assert.throws(() => decideTasks(repo, 'wf-test', ['nope'], { decision: 'approved', by: 'me', issues: [] }), { code: 'WORKFLOW_TASK_NOT_FOUND' });

    decideTasks(repo, 'wf-test', ['held'], { decision: 'approved', by: 'alice', issues: [] });
    decideTasks(repo, 'wf-test', ['sent-back'], { decision: 'rejected', by: 'alice', issues: ['name the flag --force'] });
    const progress: ProgressEvent[] = [];
    const second = await resumeWorkflow('wf-test', { ...options, onProgress: (e) => progress.push(e) });
    // The live table starts from the record: free (integrated earlier) is shown integrated, not pending.
    assert.deepEqual(progress.find((e) => e.task === 'free'), { task: 'free', state: 'integrated', round: 1, cost_usd: 0, restored: true });
    // Set-up and the runs of the rejected task are shown at the round they prepare (2), never round 0 or 1.
    assert.deepEqual([...new Set(progress.filter((e) => e.task === 'sent-back' && e.state === 'running').map((e) => e.round))], [2]);
    // sent-back ran again with the person's issue and waits again.
    assert.equal(second.status, 'awaiting_approval', JSON.stringify(second.tasks, null, 2));
    assert.equal(byId(second).held!.status, 'integrated');
    assert.equal(byId(second).after!.status, 'integrated');
    const redo = byId(second)['sent-back']!;
    assert.equal(redo.status, 'awaiting_approval');
    assert.equal(redo.rounds, 2);
    const round2 = redo.runs.find((r) => r.role === 'worker' && r.round === 2)!;
    assert.match(readFileSync(join(repo, '.supervisor', 'runs', round2.run_id, 'prompt.md'), 'utf8'), /\[person: alice\] name the flag --force/);
    assert.equal(byId(second).held!.runs.length, 1, 'an approved task is merged without another run');
    const approvals = new WorkflowStore(repo, 'wf-test').events().filter((e) => e.kind === 'approval');
    assert.deepEqual(approvals.map((e) => [e.task, e.decision, e.by]), [['held', 'approved', 'alice'], ['sent-back', 'rejected', 'alice']]);

    decideTasks(repo, 'wf-test', ['sent-back'], { decision: 'approved', by: 'bob', issues: [] });
    const third = await resumeWorkflow('wf-test', options);
    assert.equal(third.status, 'pass');
    assert.equal(third.exit_code, 0);
    assert.ok(git(repo, 'log', '--format=%H', third.branch).trim());
    assertCheckoutUnchanged(repo, before);
  });

  it("an approved task whose merge conflicts gets its conflict round, then waits for a person again: the approval was of the work before it", async () => {
    const { repo, options } = await setup();
    // Both tasks rewrite one file: the second to merge conflicts with the first.
    const same = 'echo "$SUPERVISOR_TASK_ID $SUPERVISOR_ROUND" > shared.txt && git add -A && git -c user.name=t -c user.email=t@t commit -qm "$SUPERVISOR_TASK_ID $SUPERVISOR_ROUND"';
    const wf = workflow([task('other', { reviewers: [], gates: [same] }), task('held', { approve: true, reviewers: [], gates: [same] })]);
    const first = await runWorkflow({ ...options, workflow: wf, jobs: 2 });
    assert.equal(first.status, 'awaiting_approval');
    decideTasks(repo, 'wf-test', ['held'], { decision: 'approved', by: 'alice', issues: [] });
    const second = await resumeWorkflow('wf-test', options);
    const held = second.tasks.find((t) => t.id === 'held')!;
    assert.equal(held.status, 'awaiting_approval', JSON.stringify(held));
    assert.equal(held.rounds, 2, 'the conflict round ran');
    assert.match(held.why ?? '', /waiting for a person again \(alice approved round 1's work; round 2 changed it\)/);
    decideTasks(repo, 'wf-test', ['held'], { decision: 'approved', by: 'bob', issues: [] });
    const third = await resumeWorkflow('wf-test', options);
    assert.equal(third.status, 'pass', JSON.stringify(third.tasks));
    assert.match(git(repo, 'log', '-1', '--format=%B', third.branch), /Supervisor-Approved-By: bob/);
  });

  it('--approve-all approves as tasks arrive, recorded as a decision', async () => {
    const { repo, options } = await setup();
    const result = await runWorkflow({ ...options, workflow: workflow([task('a', { approve: true, reviewers: [] })]), approveAll: true });
    assert.equal(result.status, 'pass');
    const approvals = new WorkflowStore(repo, 'wf-test').events().filter((e) => e.kind === 'approval');
    assert.equal(approvals.length, 1);
    assert.match(String(approvals[0]!.by), /--approve-all/);
  });
});
