/** Issue 14 item 7: `supervisor gc` removes what is of no use and keeps every piece of unmerged or live work. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';
import { fenced, replies, runJson } from './_run.ts';
import { writeRun } from './_runs-fixture.ts';
import { WorkflowStore } from '../../core/workflow/engine/store.ts';

interface Report {
  dry_run: boolean;
  removed: { kind: string; name: string; reason: string }[];
  kept: { kind: string; name: string; reason: string }[];
}

async function gc(repo: string, ...argv: string[]): Promise<Report> {
  const out = await runCli(['gc', '--json', ...argv], { cwd: repo });
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout) as Report;
}

const branches = (repo: string) => git(repo, 'branch', '--list', 'supervisor/*', '--format=%(refname:short)').split('\n').filter(Boolean).sort();

describe('supervisor gc', () => {
  it('removes old run folders, worktrees of finished runs and merged branches; keeps unmerged, live and workflow work', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const reply = await replies(fenced({ status: 'SUCCESS', action_taken: 'changed a' }));
    const kept = await runJson(repo, ['implementer', '--task', 'change a', '--keep-worktree'], {
      FAKE_CLI_REPLY_FILE: reply,
      FAKE_CLI_EDITS: JSON.stringify({ 'src/a.ts': 'export const a = 2;\n' }),
    });
    assert.equal(kept.code, 0, kept.stderr);
    const unmerged = kept.result.branch!;
    const worktree = kept.result.worktree.path;
    git(repo, 'branch', 'supervisor/20200101-000000-reviewer-aaaaaa', 'HEAD'); // merged: nothing of its own
    git(repo, 'branch', 'supervisor/wf/w1--task-1', 'HEAD');
    writeRun(repo, '20200101-000000-reviewer-aaaaaa', { started: '2020-01-01T00:00:00.000Z', status: 'pass' });
    writeRun(repo, '20200102-000000-reviewer-bbbbbb', { started: '2020-01-02T00:00:00.000Z', pid: process.pid }); // live

    // A worktree the run kept on purpose (--keep-worktree) stays unless asked (--include-kept).
    const polite = await gc(repo, '--older-than', '7d', '--dry-run');
    assert.match(polite.kept.find((i) => i.name === worktree)!.reason, /--keep-worktree/);
    const dry = await gc(repo, '--older-than', '7d', '--dry-run', '--include-kept');
    assert.equal(dry.dry_run, true);
    assert.deepEqual(dry.removed.map((i) => `${i.kind} ${i.name}`).sort(), [
      'branch supervisor/20200101-000000-reviewer-aaaaaa',
      `run 20200101-000000-reviewer-aaaaaa`,
      `worktree ${worktree}`,
    ]);
    assert.ok(existsSync(worktree));
    assert.equal(branches(repo).length, 3);

    const done = await gc(repo, '--older-than', '7d', '--include-kept');
    assert.equal(existsSync(worktree), false);
    assert.equal(existsSync(join(repo, '.supervisor/runs/20200101-000000-reviewer-aaaaaa')), false);
    assert.ok(existsSync(join(repo, '.supervisor/runs/20200102-000000-reviewer-bbbbbb')), 'a live run stays');
    assert.ok(existsSync(kept.result.run_dir), 'a recent run stays');
    assert.deepEqual(branches(repo), [unmerged, 'supervisor/wf/w1--task-1'].sort());
    assert.match(done.kept.find((i) => i.name === 'supervisor/wf/w1--task-1')!.reason, /workflow/);
    assert.match(done.kept.find((i) => i.name === unmerged)!.reason, /unmerged work/);

    // Old unmerged work goes only when asked; a task branch only once its workflow finished and its integration branch was merged or handed on.
    const wfDir = join(repo, '.supervisor/workflows/w1');
    mkdirSync(wfDir, { recursive: true });
    writeFileSync(join(wfDir, 'plan.json'), JSON.stringify({ id: 'w1', name: 'w1', source: { file: '/p.yaml', reader: 'test' }, base: null, jobs: null, gates: [], max_cost_usd: null, defaults: { worker: 'worker', reviewers: [], cli: null, model: null, max_rounds: 3 }, models: {}, tasks: [{ id: 'task-1', title: 'T', task: 'T', files: [], depends_on: [], worker: 'worker', reviewers: [], cli: null, model: null, gates: [], max_rounds: 3 }] }));
    writeFileSync(join(wfDir, 'events.jsonl'), `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', kind: 'workflow_started', base: 'a'.repeat(40) })}\n`);
    const asked = await gc(repo, '--older-than', '0s', '--include-unmerged', '--include-workflows');
    assert.deepEqual(branches(repo), ['supervisor/wf/w1--task-1']);
    assert.match(asked.kept.find((i) => i.name === 'supervisor/wf/w1--task-1')!.reason, /not finished/);
    writeFileSync(join(wfDir, 'result.json'), JSON.stringify({ workflow_id: 'w1', name: 'w1', status: 'gaps', exit_code: 1, branch: 'supervisor/wf/w1', git_range: 'a..b', tasks: [], notices: [], started_at: '', finished_at: '' }));
    const unmergedFlow = await gc(repo, '--include-workflows');
    assert.match(unmergedFlow.kept.find((i) => i.name === 'supervisor/wf/w1--task-1')!.reason, /neither merged into HEAD nor handed on/);
    git(repo, 'branch', 'supervisor/wf/w1', 'HEAD');
    await gc(repo, '--include-workflows');
    assert.deepEqual(branches(repo), []);
  });

  it("keeps a finished workflow's branches while something holds its lock (a retry), then deletes the integration branch and its record together", async () => {
    const repo = await makeRepo();
    const wfDir = join(repo, '.supervisor/workflows/w2');
    mkdirSync(wfDir, { recursive: true });
    writeFileSync(join(wfDir, 'plan.json'), JSON.stringify({ id: 'w2', name: 'w2', source: { file: '/p.yaml', reader: 'test' }, base: null, jobs: null, gates: [], max_cost_usd: null, defaults: { worker: 'worker', reviewers: [], cli: null, model: null, max_rounds: 3 }, models: {}, tasks: [] }));
    writeFileSync(join(wfDir, 'events.jsonl'), `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', kind: 'workflow_started', base: 'a'.repeat(40) })}\n`);
    writeFileSync(join(wfDir, 'result.json'), JSON.stringify({ workflow_id: 'w2', name: 'w2', status: 'gaps', exit_code: 1, branch: 'supervisor/wf/w2', git_range: 'a..b', tasks: [], notices: [], started_at: '', finished_at: '' }));
    git(repo, 'branch', 'supervisor/wf/w2', 'HEAD'); // merged into HEAD
    git(repo, 'update-ref', 'refs/supervisor/integration/w2', 'HEAD');
    const lock = new WorkflowStore(repo, 'w2').lock(); // this test process: a live owner, as a `workflow retry` would be
    try {
      const held = await gc(repo, '--include-workflows');
      assert.match(held.kept.find((i) => i.name === 'supervisor/wf/w2')!.reason, /its workflow is running/);
      assert.deepEqual(branches(repo), ['supervisor/wf/w2']);
      assert.match(git(repo, 'for-each-ref', 'refs/supervisor/'), /refs\/supervisor\/integration\/w2/);
    } finally {
      lock.release();
    }
    const freed = await gc(repo, '--include-workflows');
    assert.ok(freed.removed.some((i) => i.name === 'supervisor/wf/w2'), JSON.stringify(freed));
    assert.deepEqual(branches(repo), []);
    assert.equal(git(repo, 'for-each-ref', 'refs/supervisor/').trim(), '', 'the record went with it');
  });

  it('a branch that moves between being judged and being deleted is kept (compare-and-swap), and so is its record', async () => {
    const repo = await makeRepo();
    git(repo, 'branch', 'supervisor/20200101-000000-reviewer-cccccc', 'HEAD'); // merged into HEAD: judged removable
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'elsewhere');
    const elsewhere = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'reset', '-q', '--hard', 'HEAD~1');
    // A git on PATH that moves the branch just before gc's delete reaches git: what a concurrent writer does.
    const bin = await tempDir('sv-gitwrap-');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase "$*" in *"supervisor gc"*) "${real}" -C "${repo}" update-ref refs/heads/supervisor/20200101-000000-reviewer-cccccc ${elsewhere};; esac\nexec "${real}" "$@"\n`, { mode: 0o755 });
    const out = await runCli(['gc', '--json'], { cwd: repo, env: { PATH: `${bin}:${process.env.PATH}` } });
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout) as Report;
    assert.match(report.kept.find((i) => i.name === 'supervisor/20200101-000000-reviewer-cccccc')!.reason, /moved since it was judged/);
    assert.equal(git(repo, 'rev-parse', 'supervisor/20200101-000000-reviewer-cccccc').trim(), elsewhere, 'the moved branch is kept where it moved');
  });

  it('keeps a worktree with uncommitted changes unless asked', async () => {
    const repo = await makeRepo();
    const reply = await replies(fenced({ status: 'APPROVED', review_status: 'APPROVED', issues: [] }));
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--keep-worktree'], { FAKE_CLI_REPLY_FILE: reply });
    const worktree = run.result.worktree.path;
    writeFileSync(join(worktree, 'notes.txt'), 'mine\n');
    const first = await gc(repo, '--include-kept');
    assert.ok(existsSync(join(worktree, 'notes.txt')));
    assert.match(first.kept.find((i) => i.name === worktree)!.reason, /uncommitted changes/);
    await gc(repo, '--include-kept', '--include-unmerged');
    assert.equal(existsSync(worktree), false);
  });

  it("a kept worktree whose .git a CLI pointed at a git dir of its own is kept, and no git runs there (no filter of that dir's config)", async () => {
    const repo = await makeRepo();
    const reply = await replies(fenced({ status: 'APPROVED', review_status: 'APPROVED', issues: [] }));
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--keep-worktree'], { FAKE_CLI_REPLY_FILE: reply });
    const worktree = run.result.worktree.path;
    // What a hostile CLI leaves: its own git dir whose config runs a command on `git status`.
    const fake = join(worktree, 'fake-git');
    git(worktree, 'init', '-q', '--bare', fake);
    const marker = join(repo, '..', `${repo.split('/').pop()}-ran`);
    git(fake, 'config', 'core.fsmonitor', `touch ${marker}; true`);
    git(fake, 'config', 'status.showUntrackedFiles', 'all');
    writeFileSync(join(worktree, '.git'), `gitdir: ${fake}\n`);
    const report = await gc(repo, '--include-kept');
    assert.match(report.kept.find((i) => i.name === worktree)!.reason, /uncommitted changes/);
    assert.equal(existsSync(marker), false);
  });

  it('refuses an age it cannot read', async () => {
    const repo = await makeRepo();
    const out = await runCli(['gc', '--older-than', 'soon'], { cwd: repo });
    assert.equal(out.code, 2);
    assert.match(out.stderr, /--older-than expects an age/);
  });
});
