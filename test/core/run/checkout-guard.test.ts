import assert from 'node:assert/strict';
import { appendFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compareCheckout, recordCheckout } from '../../../core/run/checkout-guard.ts';
import { ensureStateDir } from '../../../core/state-dir.ts';
import { countingGit, git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';

async function dirtyRepo(): Promise<string> {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  await writeFiles(repo, { 'a.txt': 'edited\n', 'new.txt': 'untracked\n' });
  return repo;
}

describe("the user's checkout, recorded and compared around a run", () => {
  it('finds no change when nothing changed, whatever supervisor itself writes under .supervisor/ or as run branches', async () => {
    const repo = await dirtyRepo();
    const before = await recordCheckout(repo);
    const paths = ensureStateDir(repo);
    await writeFiles(paths.runs, { 'r/events.jsonl': '{}\n' });
    git(repo, 'branch', 'supervisor/20260101-000000-implementer-abcdef');
    assert.deepEqual(compareCheckout(before, await recordCheckout(repo)).changes, []);
  });

  it('names refs other than branches created, moved or deleted (a CLI\'s checkpoints, tags): SECURITY I1', async () => {
    const repo = await dirtyRepo();
    git(repo, 'tag', 'v1');
    git(repo, 'tag', 'v0');
    git(repo, 'update-ref', 'refs/supervisor/integration/flow-1', 'HEAD');
    const before = await recordCheckout(repo);
    git(repo, 'update-ref', 'refs/cline/checkpoints/s1/1', 'HEAD');
    git(repo, 'tag', '-d', 'v0');
    // a workflow's integration record moves as another task merges: its own guard watches it
    const merged = git(repo, 'commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'merged').trim();
    git(repo, 'update-ref', 'refs/supervisor/integration/flow-1', merged);
    git(repo, 'update-ref', 'refs/supervisor/integration/flow-2', merged);
    assert.deepEqual(compareCheckout(before, await recordCheckout(repo)).changes, ['refs created: refs/cline/checkpoints/s1/1', 'refs deleted: refs/tags/v0']);
  });

  it('names a file appended to, also one that was already uncommitted, and an untracked file written', async () => {
    const repo = await dirtyRepo();
    const before = await recordCheckout(repo);
    appendFileSync(join(repo, 'a.txt'), 'more\n'); // already dirty: git status alone would not see it
    appendFileSync(join(repo, 'b.txt'), 'more\n');
    await writeFiles(repo, { 'dropped.txt': 'x\n' });
    assert.deepEqual(compareCheckout(before, await recordCheckout(repo)).changes, ['files changed: a.txt, b.txt, dropped.txt']);
  });

  it('names a switched branch, a created branch, a moved branch, a deleted branch and a changed index', async () => {
    const repo = await dirtyRepo();
    git(repo, 'branch', 'old');
    git(repo, 'branch', 'gone');
    const before = await recordCheckout(repo);
    git(repo, 'checkout', '-q', '-b', 'x');
    git(repo, 'add', 'new.txt');
    git(repo, 'commit', '-q', '-m', 'moved', '--', 'new.txt');
    git(repo, 'branch', '-f', 'old', 'HEAD');
    git(repo, 'branch', '-D', 'gone');
    git(repo, 'add', 'a.txt');
    const { changes, createdBranches } = compareCheckout(before, await recordCheckout(repo));
    assert.deepEqual(changes, [
      'the checkout switched from main to x',
      'files changed: a.txt, new.txt',
      'the index (staged changes) changed',
      'branches created: x',
      'branches moved: old',
      'branches deleted: gone',
    ]);
    assert.deepEqual(createdBranches, ['x']);
  });

  it("names another run's supervisor branch deleted or moved and a workflow's branch deleted; a workflow's branch moving and new run branches count for nothing", async () => {
    const repo = await dirtyRepo();
    const other = 'supervisor/20260101-000000-implementer-abcdef';
    const moved = 'supervisor/20260101-000001-implementer-bcdefa';
    git(repo, 'branch', other);
    git(repo, 'branch', moved);
    git(repo, 'branch', 'supervisor/wf/flow-1');
    git(repo, 'branch', 'supervisor/wf/flow-1--a');
    git(repo, 'branch', 'supervisor/wf/flow-2');
    const before = await recordCheckout(repo);
    git(repo, 'branch', '-D', other, 'supervisor/wf/flow-2');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'elsewhere');
    git(repo, 'branch', '-f', moved, 'HEAD');
    git(repo, 'branch', '-f', 'supervisor/wf/flow-1', 'HEAD');
    git(repo, 'branch', 'supervisor/20260101-000002-reviewer-cdefab');
    const after = await recordCheckout(repo);
    assert.deepEqual(compareCheckout(before, after).changes.filter((c) => c.includes('supervisor')), [
      `branches of other supervisor runs deleted: ${other}, supervisor/wf/flow-2`,
      `branches of other supervisor runs moved: ${moved}`,
    ]);
    assert.deepEqual(compareCheckout(before, after, [other, moved, 'supervisor/wf/flow-2']).changes.filter((c) => c.includes('supervisor')), [], 'its own branches count for nothing');
  });

  it('names a file whose name has spaces, a renamed file, a re-staged file and a detached HEAD, and nothing when the same record is read twice', async () => {
    const repo = await makeRepo({ 'a b.txt': 'a\n', 'old name.txt': 'o\n', 's.txt': 's\n' });
    await writeFiles(repo, { 's.txt': 'staged\n' });
    git(repo, 'add', 's.txt');
    git(repo, 'mv', 'old name.txt', 'new name.txt');
    const before = await recordCheckout(repo);
    assert.deepEqual(compareCheckout(before, await recordCheckout(repo)).changes, [], 'a record read twice is the same');
    assert.equal(before.branch, 'refs/heads/main');
    appendFileSync(join(repo, 'a b.txt'), 'more\n');
    await writeFiles(repo, { 's.txt': 'staged again\n' });
    git(repo, 'add', 's.txt'); // still "M." in git status: the index's blob tells
    git(repo, 'checkout', '-q', '--detach');
    const after = await recordCheckout(repo);
    assert.equal(after.branch, '');
    assert.equal(after.head, before.head);
    assert.deepEqual(compareCheckout(before, after).changes, ['the checkout switched from main to a detached HEAD', 'files changed: a b.txt, s.txt', 'the index (staged changes) changed']);
  });

  it('given the earlier record (as a run compares), an index written meanwhile is still named, and an untouched index file keeps its entries', async () => {
    const repo = await dirtyRepo();
    const before = await recordCheckout(repo);
    assert.notEqual(before.indexFile, '');
    const same = await recordCheckout(repo, undefined, before);
    assert.equal(same.index, before.index);
    assert.deepEqual(compareCheckout(before, same).changes, []);
    git(repo, 'add', 'a.txt');
    const after = await recordCheckout(repo, undefined, before);
    assert.notEqual(after.indexFile, before.indexFile);
    assert.ok(compareCheckout(before, after).changes.includes('the index (staged changes) changed'));
  });

  it('keeps the index file before the CLI instead of listing it, and lists entries after only when the index file is another: one rewritten with the same entries is no change', async () => {
    const repo = await dirtyRepo();
    const { env, calls } = await countingGit();
    const listings = async () => (await calls()).filter((call) => call.includes(' ls-files --stage')).length;
    const before = await recordCheckout(repo, env);
    assert.ok(before.keptIndex, 'the index file is kept');
    assert.equal(await listings(), 0);
    assert.equal((await recordCheckout(repo, env, before)).index, before.index);
    assert.equal(await listings(), 0, 'the very file it was: nothing listed');
    // The same entries in a new file (git writes the index again: stat data refreshed, here dropped).
    git(repo, 'read-tree', 'HEAD');
    const rewritten = await recordCheckout(repo, env, before);
    assert.notEqual(rewritten.indexFile, before.indexFile);
    assert.deepEqual(compareCheckout(before, rewritten).changes.filter((c) => c.includes('index')), []);
    assert.equal(await listings(), 2, 'both listed: the index now, and the kept one through a copy');
    git(repo, 'add', 'a.txt');
    assert.ok(compareCheckout(before, await recordCheckout(repo, env, before)).changes.includes('the index (staged changes) changed'));
  });

  it('names an index that changed when the kept one cannot be listed, and lists an index file that is a link instead of keeping it', async () => {
    const repo = await dirtyRepo();
    const before = await recordCheckout(repo);
    git(repo, 'read-tree', 'HEAD');
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = join(repo, 'no-such-folder');
    try {
      assert.ok(compareCheckout(before, await recordCheckout(repo, undefined, before)).changes.includes('the index (staged changes) changed'), 'unchecked is not the same');
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    renameSync(join(repo, '.git', 'index'), join(repo, 'index-elsewhere'));
    symlinkSync(join(repo, 'index-elsewhere'), join(repo, '.git', 'index'));
    const linked = await recordCheckout(repo);
    assert.equal(linked.keptIndex, undefined);
    assert.match(linked.index, /^[0-9a-f]{64}$/, 'its entries, listed by git');
  });

  it("does not count a branch the run's own worktree is on (a CLI committing on a branch of its own there)", async () => {
    const repo = await dirtyRepo();
    const before = await recordCheckout(repo);
    git(repo, 'branch', 'cli-work');
    assert.deepEqual(compareCheckout(before, await recordCheckout(repo), ['cli-work']).changes, []);
  });

  it("counts what the CLI writes into the user's own .supervisor/ (roles, plugins: code that later runs load)", async () => {
    const repo = await dirtyRepo();
    ensureStateDir(repo);
    const before = await recordCheckout(repo);
    await writeFiles(repo, { '.supervisor/roles/reviewer.yaml': 'name: reviewer\n' });
    assert.deepEqual(compareCheckout(before, await recordCheckout(repo)).changes, ['files changed: .supervisor/roles/reviewer.yaml']);
  });
});
