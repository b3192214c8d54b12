import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtinPlugins } from '../../../core/plugins/builtins.ts';
import { createRegistry } from '../../../core/registry.ts';
import { checkWorktree, currentCheck, gitOf, worktreeRemoved, worktreeTouched } from '../../../core/git/verified-worktree.ts';
import { confinedExecutor } from '../../../core/sandbox/executor.ts';
import { prepareSandbox } from '../../../core/sandbox/runner.ts';
import { ensureStateDir } from '../../../core/state-dir.ts';
import { inspectRepo, openWorkspace, saveWorkspace, type Workspace } from '../../../core/run/worktree.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

type Opened = Workspace & { git: NonNullable<Workspace['git']>; base: string };

async function opened(runId: string, repo?: string): Promise<{ repo: string; ws: Opened }> {
  repo ??= await makeRepo({ 'a.txt': 'a\n' });
  const paths = ensureStateDir(repo);
  const ws = await openWorkspace({ repoRoot: repo, runId, worktreesDir: paths.worktrees, useWorktree: true, repo: await inspectRepo(repo) });
  assert.ok(ws.git && ws.base);
  return { repo, ws: ws as Opened };
}

function executorIn(repo: string, cwd: string) {
  const registry = createRegistry(builtinPlugins.map((p) => ({ plugin: p.plugin, source: p.file, layer: 'builtin' as const })));
  const sandbox = prepareSandbox(registry, { flag: { name: 'none' } }, { repoRoot: repo, homeDir: process.env.HOME ?? '/root' });
  return confinedExecutor({ sandbox, purpose: 'gate', env: process.env, self: { bin: process.execPath, args: [] }, notice: () => {}, cwd, scratchDir: join(repo, '.supervisor'), id: `verified-${Date.now()}` });
}

describe('a verified worktree', () => {
  it('is current until a command runs inside the worktree; then commit and merge git refuse with GIT_WORKTREE_UNVERIFIED', async () => {
    const { ws } = await opened('run-v1');
    const check = await checkWorktree(ws.git, { base: ws.base });
    assert.equal(check.problem, null);
    assert.ok(check.verified);
    assert.equal(currentCheck(ws.path), check.verified);
    assert.equal((await gitOf(check.verified).runOrThrow(['rev-parse', 'HEAD'])).trim(), ws.base);
    mkdirSync(join(ws.path, 'src'));
    worktreeTouched(join(ws.path, 'src'));
    assert.equal(currentCheck(ws.path), null);
    assert.equal(thrownCode(() => gitOf(check.verified!)), 'GIT_WORKTREE_UNVERIFIED');
  });

  it('is made stale by a command the one executor runs in that worktree, not by one in another worktree', async () => {
    const { repo, ws } = await opened('run-v2');
    const { ws: other } = await opened('run-v3', repo);
    const mine = await checkWorktree(ws.git, { base: ws.base });
    const theirs = await checkWorktree(other.git, { base: other.base });
    const executor = executorIn(repo, ws.path);
    assert.equal((await executor.run('true', { timeoutMs: 10_000 })).exitCode, 0);
    await executor.close();
    assert.equal(currentCheck(ws.path), null, 'a command ran in this worktree');
    assert.equal(currentCheck(other.path), theirs.verified, 'nothing ran in the other one');
    assert.equal(thrownCode(() => gitOf(mine.verified!)), 'GIT_WORKTREE_UNVERIFIED');
  });

  it('refuses to commit from a check made before a command ran there: nothing is committed', async () => {
    const { repo, ws } = await opened('run-v4');
    const stale = checkWorktree(ws.git, { base: ws.base });
    await stale;
    await writeFiles(ws.path, { 'work.txt': 'work\n' });
    worktreeTouched(ws.path);
    const error = await saveWorkspace(ws, { runId: 'run-v4', message: 'work', repoRoot: repo, checked: stale }).then(() => null, (e: unknown) => e);
    assert.equal((error as { code?: string } | null)?.code, 'GIT_WORKTREE_UNVERIFIED');
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*'), '', 'no branch was made');
    assert.equal((await saveWorkspace(ws, { runId: 'run-v4', message: 'work', repoRoot: repo })).changes?.filesChanged.join(','), 'work.txt', 'a fresh check commits');
  });

  it('answers a command asked along with the check only when the check passes', async () => {
    const { ws } = await opened('run-v6');
    await writeFiles(ws.path, { 'left.txt': 'left\n' });
    const passed = await checkWorktree(ws.git, { base: ws.base }, undefined, ['status', '--porcelain']);
    assert.equal(passed.problem, null);
    assert.equal(passed.along?.stdout.trim(), '?? left.txt');
    const failed = await checkWorktree(ws.git, { base: ws.base, branch: 'not-its-branch' }, undefined, ['status', '--porcelain']);
    assert.match(failed.problem ?? '', /not on its branch not-its-branch/);
    assert.equal(failed.along, undefined, "a failed check's companion answer is dropped");
  });

  it('is forgotten when the worktree is removed (a long-lived server keeps no record of it)', async () => {
    const { ws } = await opened('run-v5');
    const check = await checkWorktree(ws.git, { base: ws.base });
    assert.equal(currentCheck(ws.path), check.verified);
    worktreeRemoved(ws.git);
    assert.equal(currentCheck(ws.path), null);
  });
});
