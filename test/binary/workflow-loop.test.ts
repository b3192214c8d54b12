/**
 * A person in the loop, end to end through the built binary with the fake claude in script
 * mode: approval (exit 5, independent tasks integrated meanwhile, approve → pass), rejection
 * (the issues in the worker's next prompt), status --json during a run (the running task's
 * role and run id, and runs show of it), runs list --workflow, workflow show --json with the
 * diff, one task shape in status and result, --on-event hooks, trailers on every integrated
 * task, workflow finish --into, and gc of a finished workflow's task branches.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCheckoutUnchanged } from '../helpers/checkout.ts';
import { git, tempDir } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { byId, calls, events, plan, prompt, spawnRun, step, waitFor, world, type World } from './_workflow-world.ts';

/** The repository these workflows start from: one file (the shared world's default adds shared.txt, for conflicts). */
const REPO_FILES = { 'README.md': '# demo\n' };

interface Task {
  id: string;
  status: string;
  rounds: number;
  branch: string;
  issues: string[];
  runs: { run_id: string; role: string; round: number; status: string }[];
  current: { role: string; run_id: string | null; round: number; cli: string | null; started_at: string } | null;
  [key: string]: unknown;
}
interface Result {
  workflow_id: string;
  status: string;
  exit_code: number;
  branch: string;
  git_range: string;
  tasks: Task[];
}

async function sv(w: World, args: string[]) {
  return w.box.run(args, { cwd: w.repo, env: w.env });
}

function json<T>(run: { code: number | null; stdout: string; stderr: string }): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

const trailers = (repo: string, sha: string) =>
  Object.fromEntries(git(repo, 'log', '-1', '--format=%(trailers:only,unfold)', sha).trim().split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));

describe('a person in the loop, from the binary', binarySuite(), () => {
  it('approval: exit 5 with independent tasks integrated meanwhile; approve continues to pass; trailers, show --diff, one task shape, hooks, runs list --workflow, finish, gc', async () => {
    const w = await world(REPO_FILES);
    const hookOut = join(await tempDir('sv-hook-'), 'events.jsonl');
    const file = await plan(
      w,
      'name: approval flow\ntasks:\n' +
        '  - { id: held, title: Held task, task: Do held., cli: claude, review: spec-only, approve: true }\n' +
        '  - { id: after, title: After held, task: Do after., cli: claude, review: none, depends_on: [held] }\n' +
        '  - { id: free, title: Free task, task: Do free., cli: claude, review: none }\n',
    );
    const first = await sv(w, ['workflow', 'run', file, '--json', '--on-event', `cat >> '${hookOut}'`]);
    assert.equal(first.code, 5, first.stderr);
    const r1 = json<Result>(first);
    assert.equal(r1.status, 'awaiting_approval');
    assert.deepEqual([byId(r1).held!.status, byId(r1).after!.status, byId(r1).free!.status], ['awaiting_approval', 'pending', 'integrated']);

    // status and the result describe a task the same way.
    const status = json<{ status: string; tasks: Task[] }>(await sv(w, ['workflow', 'status', r1.workflow_id.slice(0, 8), '--json']));
    assert.equal(status.status, 'awaiting_approval');
    assert.deepEqual(status.tasks.map((t) => Object.keys(t).sort()), r1.tasks.map((t) => Object.keys(t).sort()));
    assert.deepEqual(status.tasks, r1.tasks);

    // workflow show --json holds the task's change.
    const show = json<{ diff: { text: string; truncated: boolean }; round_details: unknown[] }>(await sv(w, ['workflow', 'show', 'last', 'held', '--json']));
    assert.match(show.diff.text, /work\/held\.txt/);
    assert.match(show.diff.text, /\+done by held in round 1/);
    assert.equal(show.diff.truncated, false);
    assert.equal(show.round_details.length, 1);

    const approved = await sv(w, ['workflow', 'approve', r1.workflow_id, 'held', '--json', '--on-event', `cat >> '${hookOut}'`]);
    assert.equal(approved.code, 0, approved.stderr);
    const r2 = json<Result>(approved);
    assert.equal(r2.status, 'pass');
    assert.deepEqual(r2.tasks.map((t) => t.status), ['integrated', 'integrated', 'integrated']);
    assert.equal(byId(r2).held!.runs.length, 2, 'the approved task merged without another run');

    // Every integrated task: one first-parent commit with its trailers; the approved one names who.
    const [base, tip] = r2.git_range.split('..');
    const line = git(w.repo, 'rev-list', '--first-parent', '--reverse', `${base}..${tip}`).trim().split('\n');
    assert.equal(line.length, 3);
    const byTask = Object.fromEntries(line.map((sha) => [trailers(w.repo, sha)['Supervisor-Task'], { sha, t: trailers(w.repo, sha) }]));
    for (const task of r2.tasks) {
      const entry = byTask[task.id]!;
      assert.ok(entry, `a commit for ${task.id}`);
      assert.equal(entry.t['Supervisor-Workflow'], r2.workflow_id);
      assert.deepEqual(entry.t['Supervisor-Runs']!.split(', '), task.runs.map((r) => r.run_id));
      assert.equal(git(w.repo, 'rev-list', '--parents', '-n1', entry.sha).trim().split(' ').length, 3, 'a merge commit');
    }
    assert.equal(byTask.held!.t['Supervisor-Reviewed-By'], 'spec-reviewer');
    assert.ok(byTask.held!.t['Supervisor-Approved-By'], 'who approved');
    assert.equal(byTask.free!.t['Supervisor-Approved-By'], undefined);

    // Every state change reached the hook, in order.
    const logged = events(w, r2.workflow_id);
    const hooked = readFileSync(hookOut, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
    const states = (list: { kind: string }[]) => list.filter((e) => e.kind === 'task_state');
    assert.deepEqual(states(hooked), states(logged));

    // runs list --workflow counts every run of the workflow; --task one task's.
    const runs = json<{ run_id: string; task_id: string }[]>(await sv(w, ['runs', 'list', '--workflow', r2.workflow_id, '--json']));
    assert.equal(runs.length, r2.tasks.reduce((n, t) => n + t.runs.length, 0));
    const heldRuns = json<unknown[]>(await sv(w, ['runs', 'list', '--workflow', 'last', '--task', 'held', '--json']));
    assert.equal(heldRuns.length, 2);

    assertCheckoutUnchanged(w.repo, w.before);

    // finish --into: a branch not checked out moves; the checked-out one is refused with the command.
    git(w.repo, 'branch', 'release', base!);
    const finished = await sv(w, ['workflow', 'finish', r2.workflow_id, '--into', 'release', '--json']);
    assert.equal(finished.code, 0, finished.stderr);
    assert.equal(json<{ action: string }>(finished).action, 'fast_forward');
    assert.equal(git(w.repo, 'rev-parse', 'release').trim(), tip);
    const current = git(w.repo, 'branch', '--show-current').trim();
    const refused = await sv(w, ['workflow', 'finish', r2.workflow_id, '--into', current]);
    assert.equal(refused.code, 2);
    assert.ok(refused.stderr.includes(`git -C ${w.repo} merge --ff-only ${r2.branch}`), refused.stderr);
    assert.equal(git(w.repo, 'rev-parse', current).trim(), base, 'the checked-out branch did not move');

    // gc removes the task branches of the finished (and handed on) workflow.
    const taskBranches = () => git(w.repo, 'for-each-ref', '--format=%(refname:short)', `refs/heads/supervisor/wf/${r2.workflow_id}--*`).trim();
    assert.ok(taskBranches());
    const gc = await sv(w, ['gc', '--include-workflows', '--json']);
    assert.equal(gc.code, 0, gc.stderr);
    assert.equal(taskBranches(), '');
  });

  it("reject --issues puts the text in the worker's next prompt; --no-resume records only; resume with no id continues", async () => {
    const w = await world(REPO_FILES);
    const file = await plan(w, 'name: reject flow\ntasks:\n  - { id: t, title: The task, task: Do t., cli: claude, review: none, approve: true }\n');
    const first = await sv(w, ['workflow', 'run', file, '--json']);
    assert.equal(first.code, 5, first.stderr);
    const id = json<Result>(first).workflow_id;
    const issues = join(await tempDir('sv-issues-'), 'issues.md');
    await writeFile(issues, '- call the flag --force\n- add a test\n');
    const rejected = await sv(w, ['workflow', 'reject', id, 't', '--issues', `@${issues}`, '--json']);
    assert.equal(rejected.code, 5, rejected.stderr);
    const r2 = json<Result>(rejected);
    const round2 = r2.tasks[0]!.runs.find((r) => r.role === 'worker' && r.round === 2)!;
    const round2Prompt = prompt(w, round2.run_id);
    assert.match(round2Prompt, /- \[person: [^\]]+\] call the flag --force/);
    assert.match(round2Prompt, /- \[person: [^\]]+\] add a test/);
    const recorded = await sv(w, ['workflow', 'approve', id.slice(2, 12), 't', '--no-resume']);
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(recorded.stdout, /workflow resume/);
    const resumed = await sv(w, ['workflow', 'resume', '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(json<Result>(resumed).status, 'pass');
  });

  it('status --json during a run names the running task, its role and run id; runs show of that id works', async () => {
    const w = await world(REPO_FILES);
    const file = await plan(w, 'name: live flow\ntasks:\n  - { id: slow, title: Slow, task: Do slow., cli: claude, review: none }\n');
    await step(w, 'slow/worker', { hang: true });
    const child = spawnRun(w, file);
    try {
      await waitFor(() => calls(w).some((c) => c.task === 'slow'));
      const status = json<{ status: string; tasks: Task[] }>(await sv(w, ['workflow', 'status', '--json']));
      assert.equal(status.status, 'running');
      const slow = status.tasks[0]!;
      assert.equal(slow.status, 'running');
      assert.equal(slow.current?.role, 'worker');
      assert.equal(slow.current?.cli, 'claude');
      assert.ok(slow.current?.run_id, JSON.stringify(slow));
      const shown = await sv(w, ['runs', 'show', slow.current!.run_id!, '--json']);
      assert.equal(shown.code, 0, shown.stderr);
      const run = json<{ workflow_id: string; task_id: string; state: string }>(shown);
      assert.equal(run.state, 'running');
      assert.equal(run.task_id, 'slow');
      const human = await sv(w, ['workflow', 'status']);
      assert.match(human.stdout, /running\s+slow\s+worker \(claude\) round 1, run worker-[0-9a-f]{6}/);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
