/** The git-diff packer on real repositories: staged and unstaged diffs, $CHANGED_FILES, no repository. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveGit, resolvePatterns } from '../../../core/context/patterns.ts';
import type { RoleContext } from '../../../core/roles/role.ts';
import gitDiff from '../../../plugins/packers/git-diff.ts';
import { git, makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { packContextFor, request } from './_context.ts';

async function changedRepo(): Promise<string> {
  const repo = await makeRepo({ 'a.ts': 'alpha\n', 'b.ts': 'beta\n', 'gone.ts': 'bye\n', 'c.ts': 'gamma\n' });
  await writeFiles(repo, { 'a.ts': 'ALPHA\n', 'new.ts': 'fresh\n', 'c.ts': 'GAMMA (unstaged)\n' });
  git(repo, 'rm', '-q', 'gone.ts');
  git(repo, 'add', 'a.ts', 'new.ts');
  return repo;
}

/** Runs git-diff as the core does: the git options resolved by the core's one rule, packed files skipped. */
const pack = async (repo: string, context: RoleContext, skipFiles: string[] = [], exclude: string[] = []) => {
  const ctx = packContextFor(repo);
  const git = resolveGit(context, resolvePatterns(context.include ?? []), true);
  const result = await gitDiff.pack(request(repo, { context, skipFiles, exclude, git }), ctx);
  return { ...result, byKey: Object.fromEntries(result.parts.map((p) => [p.key, p])) };
};

describe('git-diff packer', () => {
  it('gives the staged diff only, for git_diff: true', async () => {
    const repo = await changedRepo();
    const { parts, byKey } = await pack(repo, { git_diff: true });
    assert.deepEqual(parts.map((p) => p.key), ['git_diff']);
    const diff = byKey.git_diff!.content;
    assert.match(diff, /^## Git Diff \(Staged\)\n\n```diff\ndiff --git a\/a\.ts b\/a\.ts/);
    assert.match(diff, /-alpha\n\+ALPHA/);
    assert.match(diff, /\+fresh/);
    assert.doesNotMatch(diff, /GAMMA/);
    assert.ok(diff.endsWith('\n```'));
  });

  it('adds the unstaged diff when asked', async () => {
    const repo = await changedRepo();
    const { byKey } = await pack(repo, { git_diff: true, git_diff_unstaged: true });
    assert.match(byKey.git_diff!.content, /## Git Diff \(Unstaged\)\n\n```diff\n[^]*\+GAMMA \(unstaged\)/);
  });

  it('packs $CHANGED_FILES in full: staged, not deleted, not packed already, sorted', async () => {
    const repo = await changedRepo();
    const { parts, byKey } = await pack(repo, { include: ['$CHANGED_FILES'] }, ['a.ts']);
    assert.deepEqual(parts.map((p) => p.key), ['changed_files']);
    assert.deepEqual(byKey.changed_files!.files, ['new.ts']);
    assert.equal(byKey.changed_files!.content, '## Changed Files\n\n### new.ts\n\n```\nfresh\n\n```\n');
  });

  it('packs a renamed file under its new name only (the old one is deleted)', async () => {
    const repo = await changedRepo();
    git(repo, 'mv', 'b.ts', 'renamed.ts');
    const { byKey } = await pack(repo, { include: ['$CHANGED_FILES'] }, ['a.ts']);
    assert.deepEqual(byKey.changed_files!.files, ['new.ts', 'renamed.ts']);
    const left = await pack(repo, { include: ['$CHANGED_FILES'] }, ['a.ts'], ['renamed.ts']);
    assert.deepEqual(left.byKey.changed_files!.files, ['new.ts']);
  });

  it('renders the changed files in the requested style', async () => {
    const repo = await changedRepo();
    const git = { staged: false, unstaged: false, changedFiles: true };
    const result = await gitDiff.pack(request(repo, { skipFiles: ['a.ts'], style: 'xml', git }), packContextFor(repo));
    assert.deepEqual(result.parts.map((p) => [p.key, p.content]), [['changed_files', '<changed_files>\n<file path="new.ts">\nfresh\n\n</file>\n</changed_files>']]);
  });

  it('leaves excluded and default-ignored changed files out, with a notice', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    await writeFiles(repo, { '.env': 'KEY=secret\n', 'a.test.ts': 't\n', 'b.ts': 'b\n', 'node_modules/x/i.js': 'x\n' });
    git(repo, 'add', '-f', '.env', 'a.test.ts', 'b.ts', 'node_modules/x/i.js');
    const { byKey, notices } = await pack(repo, { changed_files: true }, [], ['**/*.test.ts', '!b.ts']);
    assert.deepEqual(byKey.changed_files!.files, ['b.ts']);
    assert.doesNotMatch(byKey.changed_files!.content, /secret/);
    assert.ok(notices.includes('git-diff: left out 3 changed files (excluded, gitignored or on the default ignore list): .env, a.test.ts, node_modules/x/i.js'), notices.join('\n'));
  });

  it('takes the "git diff --cached" sentinel, and defaults to the staged diff when chosen with no option', async () => {
    const repo = await changedRepo();
    assert.deepEqual((await pack(repo, { include: ['git diff --cached'] })).parts.map((p) => p.key), ['git_diff']);
    assert.deepEqual((await pack(repo, {})).parts.map((p) => p.key), ['git_diff']);
    assert.deepEqual((await pack(repo, { git_diff: false })).parts, []);
  });

  it('gives nothing when nothing is staged', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    assert.deepEqual((await pack(repo, { git_diff: true, include: ['$CHANGED_FILES'] })).parts, []);
  });

  it('outside a git repository: NOT_A_REPOSITORY (git answered "unknown option `cached\'"), no crash', async () => {
    const dir = await tempDir();
    await assert.rejects(pack(dir, { git_diff: true }), (e: { code?: string }) => e.code === 'NOT_A_REPOSITORY');
  });

  it('outside a git repository with targets (a run in place): no diff, one notice, the targets still packed by the core', async () => {
    const dir = await tempDir();
    const result = await gitDiff.pack(request(dir, { targets: ['notes.md'], git: { staged: true, unstaged: false, changedFiles: false } }), packContextFor(dir));
    assert.deepEqual(result.parts, []);
    assert.match(result.notices.join('\n'), /not a git repository: no change to pack, only the targets/);
  });

  it('reads the driver guard of a linked worktree once per pack, not before each of its git commands, and asks no rev-parse when its lists answer', async () => {
    const repo = await changedRepo();
    const worktree = join(await tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', '--detach', worktree);
    await writeFiles(worktree, { 'a.ts': 'ALPHA\n', 'new.ts': 'fresh\n' });
    git(worktree, 'add', 'a.ts', 'new.ts');
    const bin = await tempDir();
    const log = join(bin, 'calls');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    await writeFile(join(bin, 'git'), `#!/bin/sh\ncase "$*" in *' config '*) echo config >> '${log}' ;; *' rev-parse '*) echo rev-parse >> '${log}' ;; *) echo other >> '${log}' ;; esac\nexec ${real} "$@"\n`);
    await chmod(join(bin, 'git'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}${delimiter}${path ?? ''}`;
    try {
      const { byKey } = await pack(worktree, { git_diff: true, include: ['$CHANGED_FILES'] });
      assert.deepEqual(Object.keys(byKey), ['git_diff', 'changed_files']);
    } finally {
      process.env.PATH = path;
    }
    const calls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    assert.equal(calls.filter((c) => c === 'config').length, 1, calls.join(' '));
    assert.ok(calls.filter((c) => c === 'other').length >= 3, calls.join(' '));
    assert.equal(calls.filter((c) => c === 'rev-parse').length, 0, `whether this is a repository is asked only when a list fails: ${calls.join(' ')}`);
  });
});
