/**
 * The workflow engine as a library, offline: replay answers every run (the parser's example,
 * or canned replies per task, role and round), real temporary repositories, real git.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { builtinEntries } from '../../../../core/plugins/load.ts';
import { createRegistry } from '../../../../core/registry.ts';
import { resumeWorkflow, runWorkflow } from '../../../../core/workflow/engine/run-workflow.ts';
import { WorkflowStore } from '../../../../core/workflow/engine/store.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../../helpers/checkout.ts';
import { git, makeRepo, tempDir } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

const registry = createRegistry(builtinEntries());

async function setup(env: Record<string, string> = {}) {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const before = snapshotCheckout(repo);
  const options = { repoRoot: repo, homeDir: await tempDir(), env: { ...process.env, ...env }, registry, cli: { byRole: {}, all: 'replay' }, runDefaults: { graceMs: 200, backoffMs: 10 } };
  return { repo, before, options };
}

/** Replay changes no file: a worker gate that commits one per round gives each round a change of its own. */
const CHANGE = 'echo "$SUPERVISOR_TASK_ID $SUPERVISOR_ROUND" > "work-$SUPERVISOR_TASK_ID.txt" && git add -A && git -c user.name=t -c user.email=t@t commit -qm "$SUPERVISOR_TASK_ID $SUPERVISOR_ROUND"';
const changing = (id: string, fields: Parameters<typeof task>[1] = {}) => task(id, { gates: [CHANGE], ...fields });

const GAPS = (role: string, issue: string) => `role: ${role}\ntask_id: none\nstatus: gaps\nconfidence: high\nissues: ${issue}\n\nIssues found.\n`;

describe('workflow engine (offline, replay)', () => {
  it('runs a chain offline: every task integrated, pass, one worktree per task, events in order', async () => {
    const { repo, before, options } = await setup();
    const wf = workflow([changing('a'), changing('b', { depends_on: ['a'] }), changing('c')]);
    const result = await runWorkflow({ ...options, workflow: wf });
    assert.equal(result.status, 'pass', JSON.stringify(result, null, 2));
    assert.equal(result.exit_code, 0);
    assert.equal(result.branch, 'supervisor/wf/wf-test');
    assert.deepEqual(result.tasks.map((t) => [t.id, t.status, t.rounds]), [['a', 'integrated', 1], ['b', 'integrated', 1], ['c', 'integrated', 1]]);
    assert.deepEqual(result.tasks[0]!.runs.map((r) => r.role), ['worker', 'spec-reviewer', 'code-quality-reviewer']);
    const events = new WorkflowStore(repo, 'wf-test').events();
    const integratedA = events.findIndex((e) => e.kind === 'task_state' && e.task === 'a' && e.state === 'integrated');
    const startedB = events.findIndex((e) => e.kind === 'run_started' && e.task === 'b');
    assert.ok(integratedA >= 0 && startedB > integratedA, 'b starts only after a is integrated');
    assert.equal(events.filter((e) => e.kind === 'worktree_ready').length, 3, 'one worktree per task');
    assert.ok(events.filter((e) => e.kind === 'worktree_ready' && e.created).length <= 2, 'at most --jobs checkouts are made');
    assert.ok(git(repo, 'branch', '--list', 'supervisor/wf/wf-test--a').trim());
    assertCheckoutUnchanged(repo, before);
  });

  it('outside a repository says NOT_A_REPOSITORY (not the base it could not read); in one, a base it cannot read is named', async () => {
    const { options } = await setup();
    const elsewhere = await tempDir('sv-wf-norepo-');
    const outside = await runWorkflow({ ...options, repoRoot: elsewhere, base: 'no-such-base', workflow: workflow([task('a')]) }).then(() => null, (e: unknown) => e);
    assert.equal((outside as { code?: string } | null)?.code, 'NOT_A_REPOSITORY');
    const badBase = await runWorkflow({ ...options, base: 'no-such-base', workflow: workflow([task('a')]) }).then(() => null, (e: unknown) => e);
    assert.match((badBase as Error | null)?.message ?? '', /--base no-such-base: no such commit or branch/);
  });

  it('a review loop: gaps in round 1, the issues in the round-2 prompt, pass in round 2; a task that stays gaps skips only its dependents', async () => {
    const replies = await tempDir('sv-wf-replies-');
    await mkdir(join(replies, 'loop'));
    await writeFile(join(replies, 'loop', 'spec-reviewer-1.md'), GAPS('spec-reviewer', 'missing the --force flag (requirement 2)'));
    await mkdir(join(replies, 'bad'));
    await writeFile(join(replies, 'bad', 'spec-reviewer.md'), GAPS('spec-reviewer', 'never right'));
    const { repo, before, options } = await setup({ SUPERVISOR_REPLAY: replies });
    const wf = workflow([changing('loop'), changing('bad', { max_rounds: 2 }), changing('after-bad', { depends_on: ['bad'] }), changing('free')]);
    const result = await runWorkflow({ ...options, workflow: wf, jobs: 4 });
    const byId = Object.fromEntries(result.tasks.map((t) => [t.id, t]));
    assert.equal(byId.loop!.status, 'integrated');
    assert.equal(byId.loop!.rounds, 2);
    const round2 = byId.loop!.runs.find((r) => r.role === 'worker' && r.round === 2)!;
    const { readFileSync } = await import('node:fs');
    assert.match(readFileSync(join(repo, '.supervisor', 'runs', round2.run_id, 'prompt.md'), 'utf8'), /\[spec-reviewer\] missing the --force flag \(requirement 2\)/);
    assert.equal(byId.bad!.status, 'gaps');
    assert.deepEqual(byId.bad!.issues, ['[spec-reviewer] never right']);
    assert.equal(byId['after-bad']!.status, 'skipped');
    assert.match(byId['after-bad']!.issues[0]!, /depends on bad/);
    assert.equal(byId.free!.status, 'integrated');
    assert.equal(result.status, 'gaps');
    assert.equal(result.exit_code, 1);
    assertCheckoutUnchanged(repo, before);
  });

  it('refuses to start again while a run of the same plan is unfinished, and resumes it', async () => {
    const { repo, options } = await setup();
    const wf = workflow([changing('a'), changing('b', { depends_on: ['a'] })]);
    const controller = new AbortController();
    // Interrupt right after the first run starts.
    const first = await runWorkflow({ ...options, workflow: wf, signal: controller.signal, onProgress: (e) => e.state === 'running' && controller.abort() });
    assert.equal(first.status, 'interrupted');
    assert.equal(first.exit_code, 130);
    await assert.rejects(runWorkflow({ ...options, workflow: wf }), { code: 'WORKFLOW_UNFINISHED' });
    // The same file edited meanwhile (another id) is refused too.
    await assert.rejects(runWorkflow({ ...options, workflow: { ...wf, id: 'wf-test-edited' } }), { code: 'WORKFLOW_UNFINISHED' });
    const resumed = await resumeWorkflow('wf-test', options);
    assert.equal(resumed.status, 'pass', JSON.stringify(resumed.tasks));
    // A finished plan runs again under a new id.
    const again = await runWorkflow({ ...options, workflow: wf });
    assert.equal(again.workflow_id, 'wf-test-2');
    assert.ok(repo);
  });

  it("resume after a worker round that said gaps: the next round starts with the worker's own issues, and the round is not run again", async () => {
    const replies = await tempDir('sv-wf-replies-');
    await mkdir(join(replies, 'a'));
    await writeFile(join(replies, 'a', 'worker-1.md'), 'role: worker\ntask_id: a\nstatus: gaps\nissues: the parser half is not done yet\n\nPartly done.\n');
    const { options } = await setup({ SUPERVISOR_REPLAY: replies });
    const wf = workflow([changing('a', { reviewers: [] })]);
    const controller = new AbortController();
    // Stopped as round 2's worker starts: round 1 (gaps) finished, round 2 is caught mid-way.
    const first = await runWorkflow({ ...options, workflow: wf, signal: controller.signal, onProgress: (e) => e.state === 'running' && e.round === 2 && controller.abort() });
    assert.equal(first.status, 'interrupted');
    const resumed = await resumeWorkflow('wf-test', options);
    assert.equal(resumed.status, 'pass', JSON.stringify(resumed.tasks));
    const a = resumed.tasks[0]!;
    const workerRounds = a.runs.filter((r) => r.role === 'worker' && r.exit_code !== 130).map((r) => r.round);
    assert.deepEqual(workerRounds, [1, 2], 'round 1 ran once; round 2 ran again after the stop');
    const round2 = a.runs.filter((r) => r.role === 'worker' && r.round === 2).at(-1)!;
    const { readFileSync } = await import('node:fs');
    assert.match(readFileSync(join(options.repoRoot, '.supervisor', 'runs', round2.run_id, 'prompt.md'), 'utf8'), /the parser half is not done yet/);
  });

  it('resume after the last round was judged (killed before its end was written): the task ends gaps, no round beyond max_rounds runs', async () => {
    const replies = await tempDir('sv-wf-replies-');
    await mkdir(join(replies, 'a'));
    await writeFile(join(replies, 'a', 'worker.md'), 'role: worker\ntask_id: a\nstatus: gaps\nissues: cannot finish\n\nNo.\n');
    const { options } = await setup({ SUPERVISOR_REPLAY: replies });
    const first = await runWorkflow({ ...options, workflow: workflow([changing('a', { reviewers: [], max_rounds: 1 })]) });
    assert.equal(first.status, 'gaps');
    // What a kill -9 right after the run's end leaves: no end state for the task, no result.
    const store = new WorkflowStore(options.repoRoot, 'wf-test');
    const kept = store.events().filter((e) => !(e.kind === 'task_state' && e.state === 'gaps') && e.kind !== 'workflow_finished');
    const { writeFileSync, rmSync } = await import('node:fs');
    writeFileSync(store.eventsFile, kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
    rmSync(join(store.dir, 'result.json'));
    const resumed = await resumeWorkflow('wf-test', options);
    assert.equal(resumed.status, 'gaps');
    const a = resumed.tasks[0]!;
    assert.equal(a.status, 'gaps');
    assert.deepEqual(a.issues, ['[worker] cannot finish']);
    assert.deepEqual(a.runs.map((r) => r.round), [1], 'no second round');
  });

  it("gates_on: end runs the workflow's gates on the integration branch after each integrated task, never in the checkout; a failing gate makes the workflow gaps", async () => {
    const { repo, before, options } = await setup();
    const onTip = 'test "$(git rev-parse HEAD)" = "$(git rev-parse supervisor/wf/wf-test)" && test "$(pwd)" != "' + repo + '"';
    // The worker's own gate sees the workflow's ids; the workflow's gate runs on the integration tip.
    const ids = 'test "$SUPERVISOR_WORKFLOW_ID" = wf-test && test "$SUPERVISOR_TASK_ID" = a && test "$SUPERVISOR_ROUND" = 1 && test "$SUPERVISOR_ROLE" = worker';
    const ok = await runWorkflow({ ...options, workflow: workflow([task('a', { reviewers: [], gates: [ids, CHANGE] })], { gates: [onTip], gates_on: 'end' }) });
    assert.equal(ok.status, 'pass', JSON.stringify(ok, null, 2));
    assert.equal(ok.tasks[0]!.runs.length, 1, 'the worker passed its gate at once');
    assert.deepEqual(ok.gates, { passed: true, failed: null });
    const bad = await runWorkflow({ ...options, workflow: workflow([changing('a', { reviewers: [] })], { id: 'wf-gates', gates: ['exit 3'], gates_on: 'end' }) });
    assert.equal(bad.status, 'gaps');
    assert.equal(bad.exit_code, 1);
    assert.deepEqual(bad.gates, { passed: false, failed: 'exit 3' });
    assert.ok(bad.tasks.every((t) => t.status === 'integrated'));
    assertCheckoutUnchanged(repo, before);
  });

  it('a branch moved while a candidate\'s gates ran (what another task\'s CLI can do) does not end the workflow: the record guards the merge, the move is reported', async () => {
    const { repo, options } = await setup();
    const marker = join(await tempDir('sv-moved-'), 'moved');
    // The first candidate's gate points the integration branch at a commit of its own, once.
    const gate = `if [ ! -e ${marker} ]; then touch ${marker}; git update-ref refs/heads/supervisor/wf/wf-test $(git -c user.name=x -c user.email=x@x commit-tree 'HEAD^{tree}' -m elsewhere); fi`;
    const result = await runWorkflow({ ...options, workflow: workflow([changing('a', { reviewers: [] }), changing('b', { reviewers: [] })], { gates: [gate], gates_on: 'merge' }) });
    assert.equal(result.status, 'pass', JSON.stringify(result.tasks));
    assert.ok(result.notices.some((n) => /integration branch .* was moved/.test(n)), result.notices.join('\n'));
    assert.equal(git(repo, 'rev-parse', 'supervisor/wf/wf-test').trim(), git(repo, 'rev-parse', 'refs/supervisor/integration/wf-test').trim());
    assert.ok(git(repo, 'show', 'supervisor/wf/wf-test:work-a.txt') && git(repo, 'show', 'supervisor/wf/wf-test:work-b.txt'));
  });

  it("a v2 worker's git_range named from its worktree (HEAD~1..HEAD) is its run's commits: no notice", async () => {
    const replies = await tempDir('sv-wf-replies-');
    await writeFile(join(replies, 'worker.md'), 'role: worker\ntask_id: a\nstatus: pass\ngit_range: HEAD~1..HEAD\nfiles_changed: x.txt\n\nDone.\n');
    const { options } = await setup({ SUPERVISOR_REPLAY: replies });
    const commit = 'echo x > x.txt && git add x.txt && git -c user.name=t -c user.email=t@t commit -qm x';
    const result = await runWorkflow({ ...options, workflow: workflow([task('a', { reviewers: [], gates: [commit] })]) });
    assert.equal(result.status, 'pass', JSON.stringify(result, null, 2));
    assert.ok(!result.notices.some((n) => /reported git_range/.test(n)), result.notices.join('\n'));
  });

  it("a v2 worker's git_range that is not the run's commits gives a notice (the engine's range counts)", async () => {
    const replies = await tempDir('sv-wf-replies-');
    await writeFile(join(replies, 'worker.md'), 'role: worker\ntask_id: a\nstatus: pass\ngit_range: 1234567..89abcde\nfiles_changed: x\n\nDone.\n');
    const { options } = await setup({ SUPERVISOR_REPLAY: replies });
    // Replay changes no file: give the worker a gate that commits, so the run has a range.
    const commit = 'echo x > x.txt && git add x.txt && git -c user.name=t -c user.email=t@t commit -qm x';
    const result = await runWorkflow({ ...options, workflow: workflow([task('a', { reviewers: [], gates: [commit] })]) });
    assert.equal(result.status, 'pass', JSON.stringify(result, null, 2));
    assert.ok(result.notices.some((n) => /reported git_range 1234567\.\.89abcde, but its run's commits are/.test(n)), result.notices.join('\n'));
  });

  it('exit 3 when every failed task failed for want of a valid answer (as run); the dependents are skipped', async () => {
    const replies = await tempDir('sv-wf-replies-');
    await writeFile(join(replies, 'worker.md'), 'I did it, trust me.');
    const { options } = await setup({ SUPERVISOR_REPLAY: replies });
    const result = await runWorkflow({ ...options, workflow: workflow([task('a'), task('b', { depends_on: ['a'] })]), runDefaults: { ...options.runDefaults, retries: 0 } });
    assert.equal(result.status, 'gaps');
    assert.deepEqual(result.tasks.map((t) => t.status), ['error', 'skipped']);
    assert.equal(result.exit_code, 3);
  });

  it('a CLI that reports tokens but no cost (codex) is priced from the price table; one whose model has no price is counted as unknown, not $0, and the ceiling says it cannot be enforced', async () => {
    const fakeBin = fileURLToPath(new URL('../../../fixtures/bin/', import.meta.url));
    const script = await tempDir('sv-script-');
    const { options } = await setup({ PATH: `${fakeBin}:${process.env.PATH ?? ''}`, FAKE_CLI_SCRIPT: script });
    const priced = await runWorkflow({ ...options, cli: { byRole: {}, all: 'codex' }, maxCostUsd: 1, workflow: workflow([task('a', { reviewers: [] })]) });
    assert.equal(priced.status, 'pass', JSON.stringify(priced, null, 2));
    assert.deepEqual([priced.budget.unknown_cost_runs, priced.budget.enforced, priced.metrics.cost_known, priced.metrics.cost_source], [0, true, true, 'price-table']);
    assert.ok(priced.metrics.cost_usd > 0);

    const unknown = await runWorkflow({ ...options, cli: { byRole: {}, all: 'codex' }, maxCostUsd: 1, workflow: workflow([task('b', { reviewers: [], model: 'house-llm-7' })]) });
    assert.equal(unknown.status, 'pass', JSON.stringify(unknown, null, 2));
    assert.equal(unknown.budget.unknown_cost_runs, 1);
    assert.equal(unknown.budget.enforced, false);
    assert.equal(unknown.metrics.cost_known, false);
    assert.equal(unknown.metrics.cost_source, null);
    assert.ok(unknown.notices.some((n) => /cost ceiling cannot be enforced: codex reported no cost/.test(n)), unknown.notices.join('\n'));
  });

  it('exit 4 when every failed task failed because its CLI could not run (as run)', async () => {
    // A PATH with git and nothing else: no claude to run.
    const bin = await tempDir('sv-git-only-');
    await symlink(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
    const { repo, before, options } = await setup({ PATH: bin });
    const result = await runWorkflow({ ...options, cli: { byRole: {}, all: 'claude' }, workflow: workflow([task('a'), task('b')]), runDefaults: { ...options.runDefaults, retries: 0 } });
    assert.deepEqual(result.tasks.map((t) => t.status), ['error', 'error']);
    assert.match(result.tasks[0]!.issues.join('\n'), /claude/);
    assert.equal(result.exit_code, 4);
    assertCheckoutUnchanged(repo, before);
  });
});
