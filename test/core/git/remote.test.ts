import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commitFiles, dropPrivateRefs, fetchInto, firstParentTrailers, listRemoteRefs, pushWithLease, readFileAt, resolveRemote, type RemoteGit } from '../../../core/git/remote.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';

const BRANCH = 'refs/heads/supervisor/wf/w';

/** A bare remote and a clone of it (`origin`), the remote's main at the clone's first commit. */
async function world(): Promise<{ bare: string; clone: string; ctx: RemoteGit; first: string }> {
  const seed = await makeRepo({ 'a.txt': 'a\n' });
  const bare = join(await tempDir('sv-bare-'), 'remote.git');
  git(seed, 'clone', '-q', '--bare', seed, bare);
  const clone = join(await tempDir('sv-clone-'), 'clone');
  git(seed, 'clone', '-q', bare, clone);
  const first = git(clone, 'rev-parse', 'HEAD').trim();
  return { bare, clone, first, ctx: { repoRoot: clone, env: process.env, remote: await resolveRemote(clone, 'origin') } };
}

describe('git against a shared remote', () => {
  it('resolves a remote name of the clone, a path, and refuses an option-like or unknown value', async () => {
    const { clone, bare } = await world();
    assert.equal((await resolveRemote(clone, 'origin')).arg, bare);
    assert.equal((await resolveRemote(clone, bare)).arg, bare);
    assert.equal((await resolveRemote(clone, 'https://example.invalid/r.git')).arg, 'https://example.invalid/r.git');
    assert.equal(await rejectedCode(() => resolveRemote(clone, '--upload-pack=touch /tmp/x')), 'REMOTE_UNKNOWN');
    assert.equal(await rejectedCode(() => resolveRemote(clone, 'nope')), 'REMOTE_UNKNOWN');
  });

  it('creates a ref only when absent, moves it only from the full sha seen, and reports a lost lease', async () => {
    const { ctx, first, clone } = await world();
    const c1 = await commitFiles(ctx, { 'x.json': '{}' }, first, 'one');
    assert.deepEqual(await pushWithLease(ctx, [{ ref: BRANCH, next: c1, expected: null }]), { ok: true });
    // Absent expected, but it exists now: refused.
    const c2 = await commitFiles(ctx, { 'x.json': '{"n":2}' }, c1, 'two');
    assert.equal((await pushWithLease(ctx, [{ ref: BRANCH, next: c2, expected: null }])).ok, false);
    // Someone else moved it: our lease names c1, the remote holds theirs → refused, theirs kept.
    const theirs = await commitFiles(ctx, { 'y.json': '{}' }, c1, 'theirs');
    assert.deepEqual(await pushWithLease(ctx, [{ ref: BRANCH, next: theirs, expected: c1 }]), { ok: true });
    const outcome = await pushWithLease(ctx, [{ ref: BRANCH, next: c2, expected: c1 }]);
    assert.deepEqual(outcome, { ok: false, rejected: [BRANCH] });
    assert.equal((await listRemoteRefs(ctx, [BRANCH])).get(BRANCH), theirs);
    await assert.rejects(pushWithLease(ctx, [{ ref: BRANCH, next: c2, expected: 'HEAD' }]), /full sha/);
    assert.equal(git(clone, 'for-each-ref', 'refs/heads/supervisor', 'refs/remotes/origin/supervisor'), '', "the clone's branches and remote-tracking refs untouched");
  });

  it('a push a hook of the remote declines is REMOTE_REJECTED, not a lost lease to retry', async () => {
    const { ctx, first, bare } = await world();
    await writeFile(join(bare, 'hooks', 'pre-receive'), '#!/bin/sh\necho protected >&2\nexit 1\n', { mode: 0o755 });
    const c1 = await commitFiles(ctx, { 'x.json': '{}' }, first, 'one');
    assert.equal(await rejectedCode(() => pushWithLease(ctx, [{ ref: BRANCH, next: c1, expected: null }])), 'REMOTE_REJECTED');
  });

  it('fetches into private refs only and reads our files back from them', async () => {
    const { ctx, first, clone } = await world();
    const snapshot = snapshotCheckout(clone);
    const state = await commitFiles(ctx, { 'task.json': '{"a":1}\n', 'events.jsonl': '' }, null, 'state');
    await pushWithLease(ctx, [{ ref: 'refs/supervisor/state/w/t1', next: state, expected: null }]);
    const listed = await listRemoteRefs(ctx, ['refs/supervisor/state/w/*']);
    assert.deepEqual([...listed.keys()], ['refs/supervisor/state/w/t1']);
    const fetched = await fetchInto(ctx, new Map([['refs/supervisor/state/w/t1', 'refs/supervisor/fetched/j1/t1']]));
    assert.equal(fetched.get('refs/supervisor/state/w/t1'), state);
    assert.equal(await readFileAt(ctx, state, 'task.json', 'state'), '{"a":1}\n');
    assert.equal(await readFileAt(ctx, state, 'missing.json', 'state'), null);
    await assert.rejects(fetchInto(ctx, new Map([['refs/heads/main', 'refs/heads/main']])), /private ref/);
    await dropPrivateRefs(ctx, ['refs/supervisor/fetched/j1/t1']);
    assert.equal(git(clone, 'for-each-ref', 'refs/supervisor'), '');
    assertCheckoutUnchanged(clone, snapshot);
    assert.ok(first);
  });

  it('refuses a state file that is a tree or a link (REMOTE_STATE_INVALID)', async () => {
    const { ctx, clone } = await world();
    const blob = gitIn(clone, '/etc/passwd', 'hash-object', '-w', '--stdin');
    const tree = gitIn(clone, `120000 blob ${blob}\ttask.json\n`, 'mktree');
    const commit = git(clone, 'commit-tree', tree, '-m', 'forged').trim();
    assert.equal(await rejectedCode(() => readFileAt(ctx, commit, 'task.json', 'refs/supervisor/state/w/t')), 'REMOTE_STATE_INVALID');
  });

  it('an unreachable remote is REMOTE_UNREACHABLE, at once and without a prompt', async () => {
    const { clone } = await world();
    const ctx: RemoteGit = { repoRoot: clone, env: process.env, remote: { arg: join(clone, 'no-such.git'), given: 'gone' } };
    assert.equal(await rejectedCode(() => listRemoteRefs(ctx, [BRANCH])), 'REMOTE_UNREACHABLE');
    assert.equal(await rejectedCode(() => fetchInto(ctx, new Map([[BRANCH, 'refs/supervisor/fetched/x']]))), 'REMOTE_UNREACHABLE');
    const c = git(clone, 'rev-parse', 'HEAD').trim();
    assert.equal(await rejectedCode(() => pushWithLease(ctx, [{ ref: BRANCH, next: c, expected: null }])), 'REMOTE_UNREACHABLE');
    // ext:: would run a command named in the URL: never allowed.
    const marker = join(clone, 'ext-ran');
    const ext: RemoteGit = { repoRoot: clone, env: process.env, remote: await resolveRemote(clone, `ext::sh -c echo% >${marker}`) };
    assert.equal(await rejectedCode(() => listRemoteRefs(ext, [BRANCH])), 'REMOTE_UNREACHABLE');
    assert.equal(existsSync(marker), false);
  });

  it('reads the trailers of the first-parent line only', async () => {
    const { ctx, first } = await world();
    const side = await commitFiles(ctx, { 's.json': '1' }, first, 'side\n\nSupervisor-Task: w/side');
    const tip = await commitFiles(ctx, { 'm.json': '1' }, first, 'merge\n\nSupervisor-Task: w/t1');
    const merge = git(ctx.repoRoot, 'commit-tree', `${tip}^{tree}`, '-p', tip, '-p', side, '-m', 'm2\n\nSupervisor-Task: w/t2').trim();
    assert.deepEqual(await firstParentTrailers(ctx, merge, 'Supervisor-Task'), [{ commit: merge, value: 'w/t2' }, { commit: tip, value: 'w/t1' }]);
  });
});

function gitIn(cwd: string, input: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, input, encoding: 'utf8' }).trim();
}

async function rejectedCode(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  assert.fail('expected an error');
}
