/**
 * What a CLI can do to the workflow's git between two of the engine's commands: rewrite its
 * slot's `.git` file, point the slot's admin HEAD at the user's branch, delete its slot,
 * reset or delete the integration branch, leave work the commit cannot hold. Offline (replay),
 * real repositories; the "CLI" acts through a wrapper around the real runRole.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runRole as realRunRole, type RunDeps, type RunHooks, type RunRequest } from '../../../../core/run/run-role.ts';
import { builtinEntries } from '../../../../core/plugins/load.ts';
import { createRegistry } from '../../../../core/registry.ts';
import { runWorkflow } from '../../../../core/workflow/engine/run-workflow.ts';
import { WorkflowStore } from '../../../../core/workflow/engine/store.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../../helpers/checkout.ts';
import { git, makeRepo, tempDir, writeFiles } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

const registry = createRegistry(builtinEntries());
const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

type Act = (options: RunRequest, repo: string) => void | Promise<void>;

/** A repository with a staged file and a stash (so the index and the stash are in the comparison), and the engine's options with `act` run as each CLI's doing. */
async function setup(acts: { before?: Act; after?: Act }, repo?: string) {
  repo ??= await makeRepo({ 'README.md': '# demo\n', 'staged.txt': 'one\n' });
  const homeDir = await tempDir();
  made.push(repo, homeDir);
  writeFileSync(join(repo, 'stashed.txt'), 'x\n');
  git(repo, 'add', 'stashed.txt');
  git(repo, 'stash', '-q');
  writeFileSync(join(repo, 'staged.txt'), 'two\n');
  git(repo, 'add', 'staged.txt');
  const snapshot = () => ({ checkout: snapshotCheckout(repo!), refs: userRefs(repo!), stash: git(repo!, 'stash', 'list', '--format=%H') });
  const before = snapshot();
  const runRole = async (options: RunRequest, deps: RunDeps, hooks?: RunHooks) => {
    await acts.before?.(options, repo!);
    const result = await realRunRole(options, deps, hooks);
    await acts.after?.(options, repo!);
    return result;
  };
  const options = { repoRoot: repo, homeDir, env: { ...process.env }, registry, cli: { byRole: {}, all: 'replay' }, runDefaults: { graceMs: 200, backoffMs: 10 }, runRole };
  const unchanged = () => {
    assertCheckoutUnchanged(repo!, before.checkout);
    assert.deepEqual(snapshot(), before, "the user's refs (other than supervisor's) and stash are unchanged");
  };
  return { repo, options, unchanged };
}

/** Every ref but supervisor's own. */
function userRefs(repo: string): string {
  return git(repo, 'for-each-ref', '--format=%(objectname) %(refname)').split('\n').filter((l) => !/ refs\/(heads\/)?supervisor\//.test(l)).join('\n');
}

const isRole = (options: RunRequest, role: string, taskId: string) => options.role === role && options.workflow?.task === taskId;
const adminDir = (slot: string) => readFileSync(join(slot, '.git'), 'utf8').replace(/^gitdir: /, '').trim();
const worktreeFile = (options: RunRequest, name: string, content: string) => writeFiles(options.workspace!.path, { [name]: content });

describe('the workflow engine against a CLI that attacks its git', () => {
  it("a reviewer rewriting its slot's .git file to the user's .git: the task is workspace_broken, the slot set aside, the next task gets a fresh slot, the checkout unchanged", async () => {
    const { repo, options, unchanged } = await setup({
      before: (o) => (isRole(o, 'worker', 'a') || isRole(o, 'worker', 'b') ? worktreeFile(o, `work/${o.workflow!.task}.txt`, 'work\n') : undefined),
      after: (o, r) => {
        if (isRole(o, 'spec-reviewer', 'a')) writeFileSync(join(o.workspace!.path, '.git'), `gitdir: ${join(r, '.git')}\n`);
      },
    });
    const result = await runWorkflow({ ...options, workflow: workflow([task('a'), task('b')]), jobs: 1 });
    const byId = Object.fromEntries(result.tasks.map((t) => [t.id, t]));
    assert.equal(byId.a!.status, 'error');
    assert.match(byId.a!.issues[0]!, /^workspace_broken: .*no longer points at the worktree's git dir.*it is kept at .*kept/);
    assert.equal(byId.b!.status, 'integrated', 'the next task runs in a fresh slot');
    assert.equal(result.status, 'gaps');
    assert.ok(result.notices.some((n) => /a: workspace_broken: .*a fresh slot serves the next task/.test(n)));
    const events = new WorkflowStore(repo, 'wf-test').events();
    const aside = events.find((e) => e.kind === 'slot_set_aside');
    assert.ok(aside && existsSync(String(aside.path)), 'the broken slot is kept, where the event says');
    assert.equal(git(repo, 'show', `${result.branch}:work/b.txt`), 'work\n');
    unchanged();
  });

  it("a reviewer pointing its slot's admin HEAD at the user's branch: the user's main and index do not move", async () => {
    const { repo, options, unchanged } = await setup({
      before: (o) => (isRole(o, 'worker', 'a') ? worktreeFile(o, 'work/a.txt', 'work\n') : undefined),
      after: (o) => {
        if (isRole(o, 'spec-reviewer', 'a')) writeFileSync(join(adminDir(o.workspace!.path), 'HEAD'), 'ref: refs/heads/main\n');
      },
    });
    const main = git(repo, 'rev-parse', 'main');
    const result = await runWorkflow({ ...options, workflow: workflow([task('a')]) });
    assert.equal(result.tasks[0]!.status, 'error');
    assert.match(result.tasks[0]!.issues[0]!, /^workspace_broken: .*not on its branch supervisor\/wf\/wf-test--a any more \(HEAD: refs\/heads\/main\)/);
    assert.equal(git(repo, 'rev-parse', 'main'), main);
    unchanged();
  });

  it("a task branch made a symbolic ref to the user's branch: nothing is reset through it", async () => {
    const { options, unchanged } = await setup({
      before: (o) => (isRole(o, 'worker', 'a') ? worktreeFile(o, 'work/a.txt', 'work\n') : undefined),
      after: (o, r) => {
        if (isRole(o, 'spec-reviewer', 'a')) git(r, 'symbolic-ref', 'refs/heads/supervisor/wf/wf-test--a', 'refs/heads/main');
      },
    });
    const result = await runWorkflow({ ...options, workflow: workflow([task('a')]) });
    assert.equal(result.tasks[0]!.status, 'error');
    assert.match(result.tasks[0]!.issues[0]!, /workspace_broken: .*(was made a symbolic ref|HEAD: refs\/heads\/main)/);
    unchanged();
  });

  it('a worker deleting its slot: a clear workspace_broken error, no crash', async () => {
    const { options, unchanged } = await setup({ after: (o) => (isRole(o, 'worker', 'a') ? rmSync(o.workspace!.path, { recursive: true, force: true }) : undefined) });
    const result = await runWorkflow({ ...options, workflow: workflow([task('a'), task('b')]), jobs: 1 });
    const a = result.tasks.find((t) => t.id === 'a')!;
    assert.equal(a.status, 'error');
    assert.match(a.issues[0]!, /^workspace_broken: .*is no longer a folder/);
    assert.equal(result.tasks.find((t) => t.id === 'b')!.status, 'integrated');
    unchanged();
  });

  for (const how of ['reset', 'deleted'] as const) {
    it(`a worker that ${how === 'reset' ? 'resets' : 'deletes'} the integration branch: restored from the engine's record before the next merge, integration_moved reported, nothing lost`, async () => {
      const { repo, options, unchanged } = await setup({
        before: (o) => (o.role === 'worker' ? worktreeFile(o, `work/${o.workflow!.task}.txt`, 'work\n') : undefined),
        after: (o, r) => {
          if (!isRole(o, 'worker', 'b')) return;
          if (how === 'reset') git(r, 'update-ref', 'refs/heads/supervisor/wf/wf-test', git(r, 'rev-parse', 'main').trim());
          else git(r, 'update-ref', '-d', 'refs/heads/supervisor/wf/wf-test');
        },
      });
      const result = await runWorkflow({ ...options, workflow: workflow([task('a'), task('b', { depends_on: ['a'] })]) });
      assert.equal(result.status, 'pass', JSON.stringify(result.notices));
      for (const t of ['a', 'b']) assert.equal(git(repo, 'show', `${result.branch}:work/${t}.txt`), 'work\n', `${t}'s work is on the integration branch`);
      const moved = new WorkflowStore(repo, 'wf-test').events().filter((e) => e.kind === 'integration_moved');
      assert.equal(moved.length, 1);
      assert.equal(moved[0]!.found, how === 'reset' ? git(repo, 'rev-parse', 'main').trim() : null);
      assert.equal(git(repo, 'rev-parse', 'refs/supervisor/integration/wf-test').trim(), git(repo, 'rev-parse', result.branch).trim(), 'the record moves with the branch');
      assert.ok(result.notices.some((n) => new RegExp(`integration branch supervisor/wf/wf-test ${how === 'reset' ? 'was moved to' : 'was deleted'}.*restored`).test(n)));
      unchanged();
    });
  }

  it('the integration branch moved at the very end (after the last merge) is restored before the result; the record stays outside refs/heads', async () => {
    const { repo, options } = await setup({ before: (o) => (o.role === 'worker' ? worktreeFile(o, 'work/a.txt', 'work\n') : undefined) });
    // The gates run after the merge: a gate that deletes the branch is the last thing that happens.
    const result = await runWorkflow({ ...options, workflow: workflow([task('a')], { gates: [`git -C ${repo} update-ref -d refs/heads/supervisor/wf/wf-test`], gates_on: 'end' }) });
    assert.equal(result.tasks[0]!.status, 'integrated', JSON.stringify(result.tasks[0]));
    assert.equal(git(repo, 'show', `${result.branch}:work/a.txt`), 'work\n');
    assert.ok(new WorkflowStore(repo, 'wf-test').events().some((e) => e.kind === 'integration_moved' && e.found === null));
  });

  it('a worker that leaves a nested repository: the task is gaps naming it, its slot is kept (not cleaned), nothing integrated', async () => {
    const { repo, options, unchanged } = await setup({
      before: (o) => {
        if (!isRole(o, 'worker', 'a')) return;
        const nested = join(o.workspace!.path, 'vendor', 'lib');
        execFileSync('git', ['init', '-q', nested]);
        writeFileSync(join(nested, 'lib.txt'), 'nested work\n');
        execFileSync('git', ['-C', nested, '-c', 'user.name=t', '-c', 'user.email=t@x', 'add', '-A']);
        execFileSync('git', ['-C', nested, '-c', 'user.name=t', '-c', 'user.email=t@x', '-c', 'commit.gpgsign=false', 'commit', '-qm', 'nested']);
      },
    });
    // No committing worker gate: the nested repository is the worker's whole change.
    const result = await runWorkflow({ ...options, workflow: workflow([task('a', { gates: [] })]) });
    const a = result.tasks[0]!;
    assert.equal(a.status, 'gaps');
    assert.match(a.issues[0]!, /nested git repository vendor\/lib.*kept at (\S+)/);
    const kept = /kept at (\S+)/.exec(a.issues[0]!)![1]!;
    assert.equal(readFileSync(join(kept, 'vendor', 'lib', 'lib.txt'), 'utf8'), 'nested work\n', 'the work is still there');
    assert.equal(result.status, 'gaps');
    assert.equal(git(repo, 'rev-parse', result.branch).trim(), git(repo, 'rev-parse', 'main').trim(), 'nothing integrated');
    unchanged();
  });

  it('a worker that changes a submodule: gaps, the slot kept', async () => {
    const sub = await makeRepo({ 'lib.txt': 'lib\n' });
    made.push(sub);
    const repo = await makeRepo({ 'README.md': '# demo\n', 'staged.txt': 'one\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'lib');
    git(repo, 'commit', '-qm', 'submodule');
    const { options, unchanged } = await setup({
      before: (o) => {
        if (!isRole(o, 'worker', 'a')) return;
        const lib = join(o.workspace!.path, 'lib');
        execFileSync('git', ['-C', o.workspace!.path, '-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init']);
        writeFileSync(join(lib, 'lib.txt'), 'changed in the submodule\n');
      },
    }, repo);
    const result = await runWorkflow({ ...options, workflow: workflow([task('a')]) });
    assert.equal(result.tasks[0]!.status, 'gaps', JSON.stringify(result.tasks[0]));
    assert.match(result.tasks[0]!.issues[0]!, /work inside submodule lib.*kept at/);
    unchanged();
  });

  it('runs in a SHA-256 repository (the all-zero id of its object format)', async () => {
    const repo = await tempDir('sv-sha256-');
    git(repo, 'init', '-q', '--object-format=sha256', '-b', 'main');
    git(repo, 'config', 'user.email', 't@example.com');
    git(repo, 'config', 'user.name', 'test');
    await writeFile(join(repo, 'README.md'), '# demo\n');
    await mkdir(join(repo, 'work'));
    await writeFile(join(repo, 'work', 'keep.txt'), 'x\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'initial');
    const { options } = await setup({ before: (o) => (o.role === 'worker' ? worktreeFile(o, 'work/a.txt', 'work\n') : undefined) }, repo);
    const result = await runWorkflow({ ...options, workflow: workflow([task('a')]) });
    assert.equal(result.status, 'pass', JSON.stringify(result, null, 2));
    assert.equal(git(repo, 'rev-parse', result.branch).trim().length, 64);
    assert.ok(readdirSync(join(repo, '.git')).length);
  });
});
