import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gitOrThrow } from '../../../core/git/git.ts';
import { GitError } from '../../../core/git/errors.ts';
import { makeRepo } from '../../helpers/git-repo.ts';

describe('git errors', () => {
  it('a git that must succeed and fails is a GitError with code GIT_FAILED', async () => {
    const repo = await makeRepo();
    const error = await gitOrThrow(repo, ['rev-parse', '--verify', 'no-such-ref^{commit}']).then(() => null, (caught: unknown) => caught);
    assert.ok(error instanceof GitError);
    assert.equal((error as { code?: string }).code, 'GIT_FAILED');
  });
});
