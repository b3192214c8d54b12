/**
 * `workflow task <wf> <task> --remote` and `--final`, `workflow status --remote`, through the
 * built binary: a bare repository on this machine is the shared remote, each job runs in a clone
 * of its own (or several jobs in one), the fake claude really edits and commits. Integration is
 * by compare-and-swap: every task lands exactly once, re-runs change nothing.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, tempDir } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { kill9, plan, step, waitFor, world, yamlPlan, type World } from './_workflow-world.ts';

const WF = 'remote-flow';
const BRANCH = `refs/heads/supervisor/wf/${WF}`;

interface TaskOut {
  workflow_id: string;
  task_id: string;
  status: string;
  exit_code: number;
  integrated_commit: string | null;
  attempt: number | null;
  cas_retries: number;
  local_workflow_id: string | null;
}

/** The world's repository pushed to a bare remote; `clone()` makes a job's clone of it. */
async function remoteWorld(w: World): Promise<{ bare: string; clone: () => Promise<string> }> {
  const bare = join(await tempDir('sv-bare-'), 'remote.git');
  git(w.repo, 'clone', '-q', '--bare', w.repo, bare);
  let n = 0;
  return {
    bare,
    clone: async () => {
      const dir = join(await tempDir('sv-job-'), `job-${++n}`);
      git(w.repo, 'clone', '-q', bare, dir);
      return dir;
    },
  };
}

async function job(w: World, cwd: string, args: string[]): Promise<{ code: number | null; out: TaskOut; stderr: string }> {
  const run = await w.box.run(['workflow', ...args, '--json'], { cwd, env: w.env });
  try {
    return { code: run.code, out: JSON.parse(run.stdout) as TaskOut, stderr: run.stderr };
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

const remoteRefs = (bare: string) => git(bare, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/supervisor');
/** The task trailers on the remote branch's first-parent line, oldest first. */
const trailers = (bare: string) => git(bare, 'log', '--first-parent', '--reverse', '--format=%(trailers:key=Supervisor-Task,valueonly)', BRANCH).split('\n').filter(Boolean);

describe('workflow task --remote, from the binary', binarySuite(), () => {
  it('integrates a task by compare-and-swap; a re-run is a no-op; the final job and status --remote in a fresh clone say pass', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const file = await plan(w, yamlPlan([{ id: 'a' }, { id: 'b', deps: ['a'] }], `id: ${WF}\n`));
    const ci = await clone();
    const before = snapshotCheckout(ci);
    const branchesBefore = git(ci, 'for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/remotes');

    const early = await w.box.run(['workflow', 'task', WF, 'b', '--plan', file, '--remote', 'origin', '--json'], { cwd: ci, env: w.env });
    assert.equal(early.code, 2, 'b before a: refused');
    assert.match(early.stderr, /REMOTE_DEPENDENCIES_MISSING/);

    const a = await job(w, ci, ['task', WF, 'a', '--plan', file, '--remote', 'origin']);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.out.status, 'integrated');
    assert.deepEqual(trailers(bare), [`${WF}/a`]);
    assert.equal(git(bare, 'rev-parse', BRANCH).trim(), a.out.integrated_commit);
    assert.match(git(bare, 'show', `${BRANCH}:work/a.txt`), /a/);
    const state = JSON.parse(git(bare, 'show', `refs/supervisor/state/${WF}/a:task.json`)) as { status: string; attempt: number };
    assert.deepEqual([state.status, state.attempt], ['integrated', 1]);

    const refs = remoteRefs(bare);
    const again = await job(w, ci, ['task', WF, 'a', '--plan', file, '--remote', 'origin']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.out.status, 'already_integrated');
    assert.equal(remoteRefs(bare), refs, 'a re-run changes nothing on the remote');

    const b = await job(w, await clone(), ['task', WF, 'b', '--plan', file, '--remote', bare]);
    assert.equal(b.code, 0, b.stderr);
    const final = await job(w, ci, ['task', WF, '--final', '--plan', file, '--remote', 'origin']);
    assert.equal(final.code, 0, final.stderr);
    assert.equal((final.out as unknown as { status: string }).status, 'pass');
    const finalAgain = await job(w, ci, ['task', WF, '--final', '--plan', file, '--remote', 'origin']);
    assert.equal((finalAgain.out as unknown as { unchanged: boolean }).unchanged, true);

    const fresh = await clone();
    const status = await w.box.run(['workflow', 'status', WF, '--remote', 'origin', '--json'], { cwd: fresh, env: w.env });
    assert.equal(status.code, 0, status.stderr);
    const view = JSON.parse(status.stdout) as { status: string; tasks: { id: string; status: string; why: string | null }[] };
    assert.equal(view.status, 'pass');
    assert.match(view.tasks[0]!.why ?? '', /^merged into /, "the task's events folded by the engine's reducer");
    assert.deepEqual(view.tasks.map((t) => [t.id, t.status]), [['a', 'integrated'], ['b', 'integrated']]);
    const logs = await w.box.run(['workflow', 'logs', WF, 'a', '--remote', 'origin', '--json'], { cwd: fresh, env: w.env });
    assert.equal(logs.code, 0, logs.stderr);
    const lines = logs.stdout.trim().split('\n').map((l) => JSON.parse(l) as { task: string; kind: string; state?: string });
    assert.ok(lines.every((l) => l.task === 'a') && lines.some((l) => l.kind === 'task_state' && l.state === 'integrated'), "a's events, from its state ref");
    const show = await w.box.run(['workflow', 'show', WF, 'b', '--remote', 'origin', '--json'], { cwd: fresh, env: w.env });
    assert.equal(show.code, 0, show.stderr);
    assert.equal((JSON.parse(show.stdout) as { tasks: { id: string; state: { attempt: number } }[] }).tasks[0]!.state.attempt, 1);

    assertCheckoutUnchanged(ci, before);
    assert.equal(git(ci, 'for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/remotes').split('\n').filter((r) => !r.startsWith('refs/heads/supervisor/')).join('\n'), branchesBefore, "the user's branches and remote-tracking refs are untouched");
    assert.equal(git(ci, 'for-each-ref', 'refs/supervisor/fetched'), '', 'the fetched refs are dropped');
  });

  it('someone moves the branch between our fetch and our push: the lease fails, we rebuild on theirs and gate again; nothing of theirs is lost', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const marker = join(await tempDir('sv-marker-'), 'moved');
    // The candidate's gate (it runs after our fetch, before our push) moves the remote's branch once, as another job would.
    const intruder = `test -e ${marker} || (git clone -q ${bare} ${marker}.d && cd ${marker}.d && git checkout -q -B x origin/supervisor/wf/${WF} && git -c user.name=x -c user.email=x@x commit -q --allow-empty -m theirs && git push -q origin HEAD:${BRANCH} && echo moved > ${marker})`;
    const file = await plan(w, yamlPlan([{ id: 'a' }], `id: ${WF}\ngates:\n  - ${JSON.stringify(intruder)}\n`));
    const ci = await clone();
    const a = await job(w, ci, ['task', WF, 'a', '--plan', file, '--remote', 'origin', '--sandbox', 'none']);
    assert.equal(a.code, 0, `${a.stderr}\n${gateOutput(ci)}`);
    assert.equal(a.out.cas_retries, 1);
    const theirs = git(bare, 'log', '--format=%s', BRANCH).split('\n');
    assert.ok(theirs.includes('theirs'), 'their commit is in the history');
    assert.deepEqual(trailers(bare), [`${WF}/a`]);
    const state = JSON.parse(git(bare, 'show', `refs/supervisor/state/${WF}/a:task.json`)) as { cas_retries: number };
    assert.equal(state.cas_retries, 1);
    const events = git(bare, 'show', `refs/supervisor/state/${WF}/a:events.jsonl`).trim().split('\n').map((l) => JSON.parse(l) as { kind: string; on?: string; cas_retries?: number });
    assert.equal(events.filter((e) => e.kind === 'gates_passed' && e.on === 'candidate').length, 2, 'the gates ran again on the rebuilt candidate');
    assert.equal(events.find((e) => e.kind === 'merged')?.cas_retries, 1);
  });

  it('four jobs race the integration at once: each task lands exactly once, lost leases counted', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const ids = ['t1', 't2', 't3', 't4'];
    // Each candidate's gate waits until all four jobs built one on the same tip: three leases must then fail.
    const barrier = await tempDir('sv-barrier-');
    const gate = `echo > ${barrier}/$$; n=0; while [ "$(ls ${barrier} | wc -l)" -lt 4 ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done`;
    const file = await plan(w, yamlPlan(ids.map((id) => ({ id })), `id: ${WF}\ngates:\n  - ${JSON.stringify(gate)}\n`));
    // Two of the jobs share one clone (a runner reusing its build folder).
    const shared = await clone();
    const jobs = await Promise.all(ids.map(async (id, n) => job(w, n < 2 ? shared : await clone(), ['task', WF, id, '--plan', file, '--remote', 'origin', '--sandbox', 'none'])));
    for (const j of jobs) assert.equal(j.code, 0, j.stderr);
    assert.deepEqual([...trailers(bare)].sort(), ids.map((id) => `${WF}/${id}`));
    const retries = jobs.reduce((sum, j) => sum + j.out.cas_retries, 0);
    for (const id of ids) {
      const state = JSON.parse(git(bare, 'show', `refs/supervisor/state/${WF}/${id}:task.json`)) as { status: string; cas_retries: number };
      assert.equal(state.status, 'integrated');
      assert.equal(state.cas_retries, jobs[ids.indexOf(id)]!.out.cas_retries);
    }
    assert.ok(retries >= 3, `at least three leases lost, counted ${retries}`);
    assert.notEqual(jobs[0]!.out.local_workflow_id, jobs[1]!.out.local_workflow_id, 'two jobs in one clone have workflows of their own');
  });

  it('a job killed with SIGKILL mid-task and run again integrates exactly once', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const file = await plan(w, yamlPlan([{ id: 'a' }], `id: ${WF}\n`));
    const ci = await clone();
    await step(w, 'a/worker', { delay_ms: 60_000 });
    const child = spawn(w.box.binary, ['workflow', 'task', WF, 'a', '--plan', file, '--remote', 'origin'], { cwd: ci, env: w.box.env(w.env), stdio: 'ignore', detached: true });
    await waitFor(() => git(bare, 'for-each-ref', `refs/supervisor/state/${WF}/a`) !== '');
    await kill9(child);
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    await step(w, 'a/worker', null);
    const again = await job(w, ci, ['task', WF, 'a', '--plan', file, '--remote', 'origin']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.out.attempt, 2);
    assert.deepEqual(trailers(bare), [`${WF}/a`]);
  });

  it('the cost ceiling holds across jobs: a share reserved on the remote ledger before the run, settled after; refused when too little is left', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const file = await plan(w, yamlPlan([{ id: 'a' }, { id: 'b' }], `id: ${WF}\n`));
    const a = await job(w, await clone(), ['task', WF, 'a', '--plan', file, '--remote', 'origin', '--max-cost-usd', '1']);
    assert.equal(a.code, 0, a.stderr);
    const ledger = JSON.parse(git(bare, 'show', `refs/supervisor/ledger/${WF}:ledger.json`)) as { max_cost_usd: number; reserved: Record<string, number>; spent: Record<string, number> };
    assert.equal(ledger.max_cost_usd, 1);
    assert.deepEqual(ledger.reserved, {}, 'settled: no reservation left');
    assert.ok(ledger.spent.a! > 0, 'what task a spent is on the ledger');
    const b = await w.box.run(['workflow', 'task', WF, 'b', '--plan', file, '--remote', 'origin', '--max-cost-usd', String(ledger.spent.a! + 0.005), '--json'], { cwd: await clone(), env: w.env });
    assert.equal(b.code, 2);
    assert.match(b.stderr, /REMOTE_BUDGET_EXHAUSTED/);
    assert.deepEqual(trailers(bare), [`${WF}/a`], 'b did not run');
  });

  it('workflow resume --remote runs here only what the remote does not hold, then the final step', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    // The final step runs the plan's gates on the tip (a job's no-task workflow): they see every task's work.
    const file = await plan(w, yamlPlan([{ id: 'a' }, { id: 'b', deps: ['a'] }, { id: 'c' }], `id: ${WF}\ngates:\n  - "test -f work/a.txt || test ! -f work/b.txt"\n`));
    const a = await job(w, await clone(), ['task', WF, 'a', '--plan', file, '--remote', 'origin']);
    assert.equal(a.code, 0, a.stderr);
    const run = await w.box.run(['workflow', 'resume', WF, '--remote', 'origin', '--plan', file, '--json'], { cwd: await clone(), env: w.env });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { tasks: { task_id: string; status: string }[]; final: { status: string } };
    assert.deepEqual(out.tasks.map((t) => [t.task_id, t.status]), [['a', 'already_integrated'], ['c', 'integrated'], ['b', 'integrated']]);
    assert.equal(out.final.status, 'pass');
    assert.deepEqual(trailers(bare), [`${WF}/a`, `${WF}/c`, `${WF}/b`]);
    const result = JSON.parse(git(bare, 'show', `refs/supervisor/result/${WF}:result.json`)) as { status: string; gates_passed: boolean; integration_commit: string };
    assert.deepEqual([result.status, result.gates_passed, result.integration_commit], ['pass', true, git(bare, 'rev-parse', BRANCH).trim()]);
  });

  it('a task that needs approval ends its CI job 5 at once, nothing run, the remote saying awaiting_approval', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const file = await plan(w, `name: held\nid: ${WF}\ntasks:\n  - { id: held, title: Held, task: Do held., cli: claude, approve: true }\n`);
    const held = await job(w, await clone(), ['task', WF, 'held', '--plan', file, '--remote', 'origin']);
    assert.equal(held.code, 5, held.stderr);
    assert.equal(held.out.status, 'awaiting_approval');
    assert.equal(JSON.parse(git(bare, 'show', `refs/supervisor/state/${WF}/held:task.json`)).status, 'awaiting_approval');
    assert.deepEqual(trailers(bare), []);
  });

  it('a job killed after its push and before its state write: the re-run finds the trailer, runs nothing, sets the state right', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const file = await plan(w, yamlPlan([{ id: 'a' }], `id: ${WF}\n`));
    const other = await clone();
    // What the killed job left: its commit on the branch, its state ref still saying running.
    const landed = git(other, 'commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', `Merge task a\n\nSupervisor-Task: ${WF}/a`).trim();
    git(other, 'push', '-q', bare, `${landed}:${BRANCH}`);
    const running = spawnSyncGit(other, ['hash-object', '-w', '--stdin'], JSON.stringify({ workflow_id: WF, task_id: 'a', status: 'running', rounds: 0, cost_usd: 0, cost_known: true, integrated_commit: null, attempt: 1, updated_at: new Date().toISOString() }));
    const stateTree = spawnSyncGit(other, ['mktree'], `100644 blob ${running}\ttask.json\n`);
    git(other, 'push', '-q', bare, `${git(other, 'commit-tree', stateTree, '-m', 'running').trim()}:refs/supervisor/state/${WF}/a`);
    const again = await job(w, other, ['task', WF, 'a', '--plan', file, '--remote', 'origin']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.out.status, 'already_integrated');
    assert.equal(git(bare, 'rev-parse', BRANCH).trim(), landed, 'the branch did not move');
    const state = JSON.parse(git(bare, 'show', `refs/supervisor/state/${WF}/a:task.json`)) as { status: string; integrated_commit: string };
    assert.deepEqual([state.status, state.integrated_commit], ['integrated', landed]);
  });

  it('forged state on the remote is REMOTE_STATE_INVALID, never taken', async () => {
    const w = await world();
    const { bare, clone } = await remoteWorld(w);
    const file = await plan(w, yamlPlan([{ id: 'a' }], `id: ${WF}\n`));
    const forger = await clone();
    const forged = spawnSyncGit(forger, ['hash-object', '-w', '--stdin'], JSON.stringify({ workflow_id: WF, task_id: 'a', status: 'running', rounds: 0, cost_usd: 0, cost_known: true, integrated_commit: null, attempt: 1, updated_at: new Date().toISOString(), path: '/etc' }));
    const tree = spawnSyncGit(forger, ['mktree'], `100644 blob ${forged}\ttask.json\n`);
    const commit = git(forger, 'commit-tree', tree, '-m', 'forged').trim();
    git(forger, 'push', '-q', bare, `${commit}:refs/supervisor/state/${WF}/a`);
    const pinned = await w.box.run(['workflow', 'task', WF, 'a', '--plan', file, '--remote', 'origin', '--plan-sha256', '0'.repeat(64), '--json'], { cwd: forger, env: w.env });
    assert.equal(pinned.code, 2);
    assert.match(pinned.stderr, /PLAN_CHANGED/);
    const status = await w.box.run(['workflow', 'status', WF, '--remote', 'origin', '--json'], { cwd: forger, env: w.env });
    assert.equal(status.code, 2);
    assert.match(status.stderr, /REMOTE_STATE_INVALID/);
    const run = await w.box.run(['workflow', 'task', WF, 'a', '--plan', file, '--remote', 'origin', '--json'], { cwd: await clone(), env: w.env });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /REMOTE_STATE_INVALID/);
  });
});

function spawnSyncGit(cwd: string, args: string[], input: string): string {
  return execFileSync('git', args, { cwd, input, encoding: 'utf8' }).trim();
}

/** The last failing gate's output in a job clone's local workflows (for a failure's message). */
function gateOutput(clone: string): string {
  try {
    return execFileSync('sh', ['-c', 'cat .supervisor/workflows/*/events.jsonl | grep output_tail | head -1'], { cwd: clone, encoding: 'utf8' });
  } catch {
    return '';
  }
}
