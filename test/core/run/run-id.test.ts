import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isRunId, newRunId } from '../../../core/run/run-id.ts';
import { ensureStateDir } from '../../../core/state-dir.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';

describe('run ids', () => {
  it('sort by time, name the role, and are safe as branch and folder names', () => {
    const id = newRunId('Reviewer Python!', new Date('2026-11-22T15:30:12.345Z'), () => 'abc123');
    assert.equal(id, '20261122-153012-reviewer-python-abc123');
    assert.ok(isRunId(id));
    assert.ok(!isRunId('../etc'));
    assert.equal(newRunId('***', new Date(0), () => '000000'), '19700101-000000-role-000000');
  });
});

describe('state folder', () => {
  it('creates .supervisor/ with a .gitignore that keeps runs and worktrees out of git', async () => {
    const repo = await makeRepo();
    const paths = ensureStateDir(repo);
    assert.ok(existsSync(paths.runs));
    await writeFiles(repo, { '.supervisor/runs/x/events.jsonl': '{}\n', '.supervisor/worktrees/y/file': 'z' });
    assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '');
    ensureStateDir(repo); // twice is fine
  });

  it("leaves a user's own .gitignore alone", async () => {
    const repo = await makeRepo({ '.supervisor/.gitignore': 'custom\n' });
    ensureStateDir(repo);
    assert.equal(readFileSync(join(repo, '.supervisor/.gitignore'), 'utf8'), 'custom\n');
  });
});
