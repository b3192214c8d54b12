/**
 * A workflow ledger you can trust, end to end through the built binary with the fake claude
 * really editing and committing: no empty change integrated, claims checked against git, the
 * cost ceiling held with parallel jobs, quota pauses, resume at the step (never paying twice),
 * gates that a kill cannot turn into a false pass, retry in place, and the gated merge queue.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCheckoutUnchanged } from '../helpers/checkout.ts';
import { git } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { byId, calls, events, kill9, plan, prompt, spawnRun, step, waitFor, wf, workflowIds, world, yamlPlan } from './_workflow-world.ts';

const CLAUDE_RUN = 0.008295;

describe('workflow ledger, from the binary', binarySuite(), () => {
  it('a worker that passes with no change is never integrated (gaps, "your change is empty", no reviewer runs); a claimed file git does not show is named', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'noop', rounds: 2 }, { id: 'claims' }]));
    await step(w, 'noop/worker', { edits: {} });
    await step(w, 'claims/worker', { reply: 'role: worker\ntask_id: claims\nstatus: pass\ngit_range: {{GIT_RANGE}}\nfiles_changed: work/claims.txt, src/ghost.js\n\nDone.\n' });
    const { code, result, stderr } = await wf(w, ['run', file, '--jobs', '2']);
    assert.equal(code, 1, stderr);
    assert.equal(result.status, 'gaps');
    const tasks = byId(result);
    assert.equal(tasks.noop!.status, 'gaps');
    assert.equal(tasks.noop!.rounds, 2);
    assert.match(tasks.noop!.issues.join('\n'), /your change is empty/);
    assert.match(tasks.noop!.why!, /round 2 of 2/);
    assert.deepEqual(calls(w).filter((c) => c.task === 'noop').map((c) => c.role), ['worker', 'worker'], 'no reviewer saw the empty range');
    const round2 = tasks.noop!.runs.find((r) => r.round === 2)!;
    assert.match(prompt(w, round2.run_id), /your change is empty/);
    assert.throws(() => git(w.repo, 'show', `${result.branch}:work/noop.txt`));
    // The claim git does not show: a notice, and the reviewers are told.
    assert.equal(tasks.claims!.status, 'integrated');
    assert.ok(result.notices.some((n) => /claims: round 1: .*src\/ghost\.js.*git shows no change/.test(n)), result.notices.join('\n'));
    const reviewer = tasks.claims!.runs.find((r) => r.role === 'spec-reviewer')!;
    assert.match(prompt(w, reviewer.run_id), /## What the worker claimed[\s\S]*src\/ghost\.js/);
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('the cost ceiling with --jobs 2 ends stopped (no task error, spend within the ceiling plus one run per job); resume with a higher ceiling passes without re-running an integrated task', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan(['a', 'b', 'c', 'd'].map((id) => ({ id, review: 'none' }))));
    const ceiling = 0.02;
    const first = await wf(w, ['run', file, '--jobs', '2', '--max-cost-usd', String(ceiling), '--min-run-usd', '0.001']);
    assert.equal(first.code, 1, first.stderr);
    assert.equal(first.result.status, 'stopped');
    assert.ok(first.result.tasks.every((t) => t.status !== 'error'), JSON.stringify(first.result.tasks.map((t) => [t.id, t.status, t.why])));
    assert.ok(first.result.metrics.cost_usd <= ceiling + 2 * CLAUDE_RUN + 1e-9, `spent ${first.result.metrics.cost_usd}`);
    assert.equal(first.result.budget.spent_usd, first.result.metrics.cost_usd);
    assert.ok(first.result.budget.reserved_usd > 0);
    assert.match(first.result.stop_reason ?? '', /budget|ceiling/);
    const waiting = first.result.tasks.filter((t) => t.status === 'pending');
    assert.ok(waiting.length > 0);
    for (const t of waiting) assert.match(t.why ?? '', /budget|ceiling/, `${t.id}: ${t.why}`);
    // The small share left made claude stop at its budget (max_budget): the task waits, it did not fail.
    assert.ok(waiting.some((t) => /stopped at its budget/.test(t.why ?? '')), JSON.stringify(waiting.map((t) => t.why)));
    const integratedFirst = first.result.tasks.filter((t) => t.status === 'integrated').map((t) => t.id);
    const resumed = await wf(w, ['resume', first.result.workflow_id, '--max-cost-usd', '1']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.result.status, 'pass');
    for (const id of integratedFirst) assert.equal(calls(w).filter((c) => c.task === id).length, 1, `${id} ran once`);
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('a 429 storm pauses the workflow and then it goes on; past --quota-wait it ends stopped, the task pending (not error)', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'a', review: 'none' }]));
    // run's own retries (3 attempts) all meet the 429, then one more after the pause.
    await step(w, 'a/worker', { fail_case: 'json-http429-retries0', fail_times: 4 });
    const { code, result, stderr } = await wf(w, ['run', file, '--quota-wait', '60s']);
    assert.equal(code, 0, stderr);
    assert.equal(result.status, 'pass');
    assert.ok(result.notices.some((n) => /quota or rate limit/.test(n)), result.notices.join('\n'));
    assert.ok(result.notices.some((n) => /the quota pause is over/.test(n)), result.notices.join('\n'));
    const list = events(w, result.workflow_id);
    assert.ok(list.some((e) => e.kind === 'quota_pause') && list.some((e) => e.kind === 'quota_resumed'));

    const w2 = await world();
    const file2 = await plan(w2, yamlPlan([{ id: 'a', review: 'none' }]));
    await step(w2, 'a/worker', { fail_case: 'json-http429-retries0', fail_times: 1000 });
    const stopped = await wf(w2, ['run', file2, '--quota-wait', '2s']);
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.equal(stopped.result.status, 'stopped');
    assert.equal(byId(stopped.result).a!.status, 'pending');
    assert.match(stopped.result.stop_reason ?? '', /quota/);
  });

  it('kill -9 during a reviewer, then resume: the worker does not run again, the reviewer does', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'a', review: 'spec-only' }]));
    await step(w, 'a/spec-reviewer', { hang: true });
    const child = spawnRun(w, file);
    await waitFor(() => calls(w).some((c) => c.task === 'a' && c.role === 'spec-reviewer'));
    await kill9(child);
    await step(w, 'a/spec-reviewer', null);
    const id = workflowIds(w)[0]!;
    const { code, result, stderr } = await wf(w, ['resume', id]);
    assert.equal(code, 0, stderr);
    assert.equal(result.status, 'pass');
    assert.equal(calls(w).filter((c) => c.role === 'worker').length, 1, 'the worker ran once');
    assert.equal(calls(w).filter((c) => c.role === 'spec-reviewer').length, 2, 'the reviewer caught mid-run ran again');
    assert.equal(git(w.repo, 'log', '--format=%s', result.branch).split('\n').filter((s) => /fake worker/.test(s)).length, 1, 'one worker commit');
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('kill -9 during the final gates, then resume: the gates run again, and only their pass makes the workflow pass', async () => {
    const w = await world();
    const count = join(w.script, 'gate-count');
    // First call hangs (the kill comes then); later calls pass.
    const gate = `echo x >> "${count}"; if [ "$(wc -l < "${count}")" -eq 1 ]; then sleep 600; fi`;
    const file = await plan(w, yamlPlan([{ id: 'a', review: 'none' }], `gates_on: end\ngates:\n  - '${gate}'\n`));
    const child = spawnRun(w, file);
    await waitFor(() => existsSync(count));
    await kill9(child);
    const id = workflowIds(w)[0]!;
    const { code, result, stderr } = await wf(w, ['resume', id]);
    assert.equal(code, 0, stderr);
    assert.equal(result.status, 'pass');
    assert.deepEqual(result.gates, { passed: true, failed: null });
    assert.equal(readFileSync(count, 'utf8').trim().split('\n').length, 2, 'the gates ran again');
    assert.equal(calls(w).filter((c) => c.role === 'worker').length, 1);
  });

  it('workflow retry re-runs only the failed task and the tasks skipped because of it, on the same integration branch', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'bad', review: 'none' }, { id: 'after', deps: ['bad'], review: 'none' }, { id: 'free', review: 'none' }]));
    await step(w, 'bad/worker', { edits: {}, reply: 'role: worker\ntask_id: bad\nstatus: error\nissues: the dependency is not installed\n\nCould not do it.\n' });
    const first = await wf(w, ['run', file]);
    assert.equal(first.code, 1, first.stderr);
    assert.deepEqual(first.result.tasks.map((t) => [t.id, t.status]), [['bad', 'error'], ['after', 'skipped'], ['free', 'integrated']]);
    const tipBefore = git(w.repo, 'rev-parse', first.result.branch).trim();
    await step(w, 'bad/worker', null);
    const retried = await wf(w, ['retry', first.result.workflow_id, 'bad']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.equal(retried.result.status, 'pass');
    assert.equal(retried.result.branch, first.result.branch);
    assert.equal(retried.result.retries.length, 1);
    assert.deepEqual(retried.result.retries[0]!.tasks, ['bad']);
    assert.equal(calls(w).filter((c) => c.task === 'free').length, 1, 'the integrated task never ran again');
    assert.equal(calls(w).filter((c) => c.task === 'bad').length, 2);
    assert.equal(calls(w).filter((c) => c.task === 'after').length, 1);
    assert.equal(git(w.repo, 'merge-base', '--is-ancestor', tipBefore, retried.result.branch), '', 'the same integration branch, moved on');
    const again = await w.box.run(['workflow', 'retry', first.result.workflow_id, 'free'], { cwd: w.repo, env: w.env });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /integrated/);
    // Any id argument takes `last` (or a unique part) as every workflow command does.
    const nothing = await w.box.run(['workflow', 'retry', 'last'], { cwd: w.repo, env: w.env });
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /no task that ended error, gaps, blocked or skipped/);
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('workflow retry --fresh starts a task over from the integration tip (its old work is not on the new branch)', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'x', review: 'spec-only', rounds: 1 }]));
    await step(w, 'x/spec-reviewer', { reply: 'role: spec-reviewer\ntask_id: x\nstatus: gaps\nconfidence: high\nissues: wrong approach\n\nIssues found.\n' });
    const first = await wf(w, ['run', file]);
    assert.equal(byId(first.result).x!.status, 'gaps');
    const oldHead = git(w.repo, 'rev-parse', byId(first.result).x!.branch).trim();
    await step(w, 'x/spec-reviewer', null);
    // Other content this time: the same edit on the same tip within the same second would be the
    // very same commit (git's ids are its content), and the old attempt would look merged.
    await step(w, 'x/worker', { edits: { 'work/x.txt': 'a fresh attempt\n' } });
    const retried = await wf(w, ['retry', first.result.workflow_id, '--fresh']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.equal(byId(retried.result).x!.status, 'integrated');
    assert.equal(byId(retried.result).x!.rounds, 1, 'rounds counted anew');
    assert.throws(() => git(w.repo, 'merge-base', '--is-ancestor', oldHead, retried.result.branch), 'the old attempt is not on the integration branch');
    assert.deepEqual(retried.result.retries.map((r) => r.fresh), [true]);
  });

  it('a task whose merge breaks the gates is never on the integration branch, and its next round gets the gate output', async () => {
    const w = await world();
    const gate = 'if grep -rq broken work 2>/dev/null; then echo "gate says: broken found"; exit 1; fi';
    const file = await plan(w, yamlPlan([{ id: 'a', review: 'none' }, { id: 'b', deps: ['a'], review: 'none', rounds: 1 }, { id: 'c', deps: ['b'], review: 'none' }], `gates:\n  - '${gate}'\n`));
    await step(w, 'a/worker-1', { edits: { 'work/a.txt': 'broken\n' } });
    await step(w, 'b/worker', { edits: { 'work/b.txt': 'broken too\n' } });
    const { code, result, stderr } = await wf(w, ['run', file]);
    assert.equal(code, 1, stderr);
    const tasks = byId(result);
    assert.equal(tasks.a!.status, 'integrated');
    assert.equal(tasks.a!.rounds, 2);
    const round2 = tasks.a!.runs.find((r) => r.round === 2)!;
    assert.match(prompt(w, round2.run_id), /gate says: broken found/);
    assert.equal(tasks.b!.status, 'gaps');
    assert.match(tasks.b!.why ?? '', /gate .* failed on candidate/);
    assert.equal(tasks.c!.status, 'skipped');
    // Every commit the integration branch ever pointed at (its reflog) passed the gates; b's work was never there.
    const held = git(w.repo, 'reflog', 'show', '--format=%H', `refs/heads/${result.branch}`).trim().split('\n');
    assert.ok(held.length >= 2, held.join(' '));
    for (const commit of held) {
      const files = git(w.repo, 'ls-tree', '-r', '--name-only', commit).split('\n').filter((f) => f.startsWith('work/'));
      assert.equal(files.includes('work/b.txt'), false, `b is not in ${commit}`);
      for (const f of files) assert.doesNotMatch(git(w.repo, 'show', `${commit}:${f}`), /broken/, `${f} in ${commit}`);
    }
    assert.equal(result.merge_queue.candidates, 3);
    assert.deepEqual(result.gates, { passed: true, failed: null });
    assertCheckoutUnchanged(w.repo, w.before);
  });
});
