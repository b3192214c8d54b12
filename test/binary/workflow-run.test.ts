/**
 * `supervisor workflow run` end to end, through the built binary, on real temporary
 * repositories, with the fake claude in script mode (it really edits and commits files; what
 * it does depends on the task, role and round supervisor tells it). After every workflow the
 * user's checkout is byte-for-byte unchanged.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assertCheckoutUnchanged } from '../helpers/checkout.ts';
import { git } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { alive } from '../helpers/processes.ts';
import { byId, calls, events, kill9, plan, prompt, spawnRun, step, waitFor, wf, workflowIds, world, yamlPlan, type WfEvent, type WfResult, type World } from './_workflow-world.ts';

const seed003 = fileURLToPath(new URL('../fixtures/plans/seed-003.md', import.meta.url));

const at = (list: WfEvent[], pred: (e: WfEvent) => boolean) => list.findIndex(pred);
const firstRunning = (list: WfEvent[], task: string) => at(list, (e) => e.kind === 'task_state' && e.task === task && e.state === 'running');
const integrated = (list: WfEvent[], task: string) => at(list, (e) => e.kind === 'task_state' && e.task === task && e.state === 'integrated');
/** `workflow run … --json`, its result parsed. */
const runWf = (w: World, args: string[]) => wf(w, ['run', ...args]);

describe('supervisor workflow run, from the binary', binarySuite(), () => {
  it("runs seed 003's plan as is: tasks 1–3 at once, task 4 only after task 3 is integrated", async () => {
    const w = await world();
    const file = join(w.repo, '..', 'seed-003-plan.md');
    await copyFile(seed003, file);
    await step(w, 'worker', { delay_ms: 300 });
    const { code, result, stderr } = await runWf(w, [file, '--base', 'HEAD', '--jobs', '4']);
    assert.equal(code, 0, stderr);
    assert.equal(result.status, 'pass');
    assert.deepEqual(result.tasks.map((t) => [t.id, t.status]), [['task-1', 'integrated'], ['task-2', 'integrated'], ['task-3', 'integrated'], ['task-4', 'integrated']]);
    const list = events(w, result.workflow_id);
    const firstIntegrated = Math.min(...['task-1', 'task-2', 'task-3'].map((t) => integrated(list, t)));
    for (const t of ['task-1', 'task-2', 'task-3']) assert.ok(firstRunning(list, t) < firstIntegrated, `${t} started before any of tasks 1–3 was integrated`);
    assert.ok(firstRunning(list, 'task-4') > integrated(list, 'task-3'), 'task 4 starts after task 3 is integrated');
    // Model "opus" chose claude; task 4 (review: spec-only) had one reviewer.
    assert.deepEqual(byId(result)['task-4']!.runs.map((r) => r.role), ['worker', 'spec-reviewer']);
    for (const t of ['task-1', 'task-2', 'task-3', 'task-4']) assert.match(git(w.repo, 'show', `${result.branch}:work/${t}.txt`), new RegExp(`done by ${t}`));
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('a diamond (a → b, c → d) integrates in dependency order; a task of three rounds makes one worktree', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'a' }, { id: 'b', deps: ['a'] }, { id: 'c', deps: ['a'] }, { id: 'd', deps: ['b', 'c'] }]));
    await step(w, 'b/spec-reviewer-1', { reply: 'role: spec-reviewer\ntask_id: b\nstatus: gaps\nconfidence: high\nissues: not yet\n\nIssues found.\n' });
    await step(w, 'b/spec-reviewer-2', { reply: 'role: spec-reviewer\ntask_id: b\nstatus: gaps\nconfidence: high\nissues: still not\n\nIssues found.\n' });
    const { code, result, stderr } = await runWf(w, [file, '--jobs', '3']);
    assert.equal(code, 0, stderr);
    const list = events(w, result.workflow_id);
    assert.ok(firstRunning(list, 'b') > integrated(list, 'a') && firstRunning(list, 'c') > integrated(list, 'a'));
    assert.ok(firstRunning(list, 'd') > Math.max(integrated(list, 'b'), integrated(list, 'c')));
    assert.equal(byId(result).b!.rounds, 3);
    assert.equal(list.filter((e) => e.kind === 'worktree_ready' && e.task === 'b').length, 1, 'one worktree for three rounds');
    assert.ok(list.filter((e) => e.kind === 'worktree_ready' && (e as { created?: boolean }).created).length <= 3, 'at most --jobs checkouts for four tasks');
    assert.deepEqual(new Set(calls(w).filter((c) => c.task === 'b').map((c) => c.cwd)).size, 1, 'every run of b in the same folder');
    for (const t of ['a', 'b', 'c', 'd']) assert.ok(git(w.repo, 'show', `${result.branch}:work/${t}.txt`));
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it("a review loop passes in round 2 with the reviewer's issues in the worker's round-2 prompt; a failing task blocks only its dependents", async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'loop' }, { id: 'bad' }, { id: 'after-bad', deps: ['bad'] }, { id: 'free' }]));
    await step(w, 'loop/spec-reviewer-1', { reply: 'role: spec-reviewer\ntask_id: loop\nstatus: gaps\nconfidence: high\nissues: missing the --force flag (requirement 2)\n\nIssues found.\n' });
    await step(w, 'bad/worker', { edits: {}, reply: 'role: worker\ntask_id: bad\nstatus: error\nissues: the dependency is not installed\n\nCould not do it.\n' });
    const { code, result, stderr } = await runWf(w, [file, '--jobs', '4']);
    assert.equal(code, 1, stderr);
    assert.equal(result.status, 'gaps');
    const tasks = byId(result);
    assert.equal(tasks.loop!.status, 'integrated');
    assert.equal(tasks.loop!.rounds, 2);
    const round2 = tasks.loop!.runs.find((r) => r.role === 'worker' && r.round === 2)!;
    assert.match(prompt(w, round2.run_id), /\[spec-reviewer\] missing the --force flag \(requirement 2\)/);
    assert.equal(tasks.bad!.status, 'error');
    assert.match(tasks.bad!.issues.join('\n'), /dependency is not installed/);
    assert.equal(tasks['after-bad']!.status, 'skipped');
    assert.match(tasks['after-bad']!.issues[0]!, /depends on bad, which ended error/);
    assert.equal(tasks['after-bad']!.runs.length, 0);
    assert.equal(tasks.free!.status, 'integrated');
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('two tasks edit the same lines: the second gets one more round on the new tip and resolves the conflict', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'x', review: 'none' }, { id: 'y', review: 'none' }]));
    await step(w, 'x/worker-1', { edits: { 'shared.txt': 'from x\n' } });
    await step(w, 'y/worker-1', { edits: { 'shared.txt': 'from y\n' } });
    for (const t of ['x', 'y']) await step(w, `${t}/worker-2`, { edits: { 'shared.txt': 'from x\nfrom y\n' } });
    const { code, result, stderr } = await runWf(w, [file, '--jobs', '2']);
    assert.equal(code, 0, stderr);
    assert.equal(git(w.repo, 'show', `${result.branch}:shared.txt`), 'from x\nfrom y\n');
    const second = result.tasks.find((t) => t.rounds === 2)!;
    assert.match(prompt(w, second.runs.at(-1)!.run_id), /## Merge conflict[\s\S]*- shared\.txt/);
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('a conflict the extra round does not resolve blocks the task; its work stays on its branch', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'x', review: 'none' }, { id: 'y', review: 'none' }]));
    await step(w, 'x/worker-1', { edits: { 'shared.txt': 'from x\n' } });
    await step(w, 'y/worker-1', { edits: { 'shared.txt': 'from y\n' } });
    for (const t of ['x', 'y']) await step(w, `${t}/worker-2`, { edits: {} });
    const { code, result, stderr } = await runWf(w, [file, '--jobs', '2']);
    assert.equal(code, 1, stderr);
    const blocked = result.tasks.find((t) => t.status === 'blocked')!;
    const other = result.tasks.find((t) => t.status === 'integrated')!;
    assert.ok(blocked && other, JSON.stringify(result.tasks));
    assert.match(blocked.issues.join('\n'), /conflict/);
    assert.equal(git(w.repo, 'show', `${result.branch}:shared.txt`), `from ${other.id}\n`);
    assert.match(git(w.repo, 'log', '--format=%s', blocked.branch), new RegExp(`fake worker: ${blocked.id} round 1`), 'nothing lost');
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('stops at the cost ceiling (stopped, resumable) and a higher ceiling finishes it', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'a' }, { id: 'b' }, { id: 'c' }]));
    // The fake claude reports $0.008295 per call: three runs per task.
    const first = await runWf(w, [file, '--jobs', '1', '--max-cost-usd', '0.02']);
    assert.equal(first.code, 1, first.stderr);
    assert.equal(first.result.status, 'stopped');
    assert.ok(first.result.metrics.cost_usd < 0.02 + 3 * 0.0083);
    assert.ok(first.result.tasks.some((t) => t.status === 'pending'));
    const again = await w.box.run(['workflow', 'run', file], { cwd: w.repo, env: w.env });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /workflow resume/);
    const resumed = await w.box.run(['workflow', 'resume', first.result.workflow_id, '--max-cost-usd', '1', '--json'], { cwd: w.repo, env: w.env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal((JSON.parse(resumed.stdout) as WfResult).status, 'pass');
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('kill -9 in the middle, then resume: no integrated task runs again, and another repository\'s workflow of the same id keeps running', async () => {
    const w = await world();
    const other = await world();
    const tasks = yamlPlan([{ id: 'a', review: 'none' }, { id: 'b', deps: ['a'], review: 'none' }]);
    const file = await plan(w, tasks);
    await step(w, 'b/worker-1', { hang: true });
    await step(other, 'b/worker-1', { hang: true });
    const child = spawnRun(w, file);
    const neighbour = spawnRun(other, await plan(other, tasks));
    await waitFor(() => calls(w).some((c) => c.task === 'b') && calls(other).some((c) => c.task === 'b'));
    await kill9(child);
    // The orphaned fake CLI is still running: resume must end it before it picks the task up.
    const orphans = calls(w).filter((c) => c.task === 'b').map((c) => c.pid);
    assert.ok(orphans.every((pid) => alive(pid)), 'the kill left the CLI running');
    await step(w, 'b/worker-1', {});
    const id = workflowIds(w)[0]!;
    const status = await w.box.run(['workflow', 'status', id, '--json'], { cwd: w.repo, env: w.env });
    assert.equal((JSON.parse(status.stdout) as { status: string }).status, 'killed');
    const resumed = await w.box.run(['workflow', 'resume', id, '--json'], { cwd: w.repo, env: w.env });
    assert.equal(resumed.code, 0, resumed.stderr);
    const result = JSON.parse(resumed.stdout) as WfResult;
    assert.equal(result.status, 'pass');
    assert.equal(calls(w).filter((c) => c.task === 'a').length, 1, 'a ran once');
    // Ended: gone, or a zombie waiting for an init that does not reap (as in some containers).
    for (const pid of orphans) assert.ok(!alive(pid), `the orphaned CLI ${pid} was ended by resume`);
    assert.ok(result.notices.some((n) => /ended 1 process left running by the interrupted workflow/.test(n)), result.notices.join('\n'));
    // Orphans are found by the workflow's state folder, not its id: the other repository's CLI lives.
    assert.equal(workflowIds(other)[0], id, 'the same plan gives the same workflow id');
    const theirs = calls(other).filter((c) => c.task === 'b').map((c) => c.pid);
    assert.ok(theirs.length > 0 && theirs.every((pid) => alive(pid)), 'the resume ended another repository\'s CLI');
    await kill9(neighbour);
    for (const pid of theirs) if (alive(pid)) process.kill(pid, 'SIGKILL');
    assertCheckoutUnchanged(w.repo, w.before);
  });

  it('Ctrl-C ends every run (no process left), records interrupted and exits 130', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'a', review: 'none' }, { id: 'b', review: 'none' }]));
    await step(w, 'worker', { hang: true });
    const child = spawn(w.box.binary, ['workflow', 'run', file, '--json'], { cwd: w.repo, env: w.box.env(w.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise((r) => child.once('exit', (c) => r(c)));
    try {
      await waitFor(() => calls(w).length === 2);
    } catch (error) {
      child.kill('SIGKILL'); // its CLIs hang: left running, the file would time out
      throw error;
    }
    child.kill('SIGINT');
    const code = await exited;
    assert.equal(code, 130);
    const result = JSON.parse(stdout) as WfResult;
    assert.equal(result.status, 'interrupted');
    for (const c of calls(w)) assert.equal(alive(c.pid), false, `fake CLI ${c.pid} was ended`);
    assertCheckoutUnchanged(w.repo, w.before);
  });
});
