/** What the run's issues say when a sandboxed CLI failed because its sandbox refused something. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusalsThatMayExplain, sandboxExplanation } from '../../../core/sandbox/explain.ts';

describe('sandbox explanations for the run\'s issues', () => {
  const bwrap = { name: 'bwrap', network: 'allow' as const };
  const areas = { hidden: ['/home/u', '/repo', '/tmp'], visible: ['/repo/.supervisor/worktrees/r1', '/repo/.supervisor/runs/r1/attempt-1'] };

  it('names refused connections, refused writes, hidden files and the missing network', () => {
    assert.equal(
      sandboxExplanation(bwrap, ['127.0.0.1:9', '127.0.0.1:9'], 'Error: EROFS: read-only file system, open \'/repo/x\'\n', areas),
      "the bwrap sandbox refused connections to 127.0.0.1:9 (allow them with --allow-host or the role's sandbox.allow); refused a file access: Error: EROFS: read-only file system, open '/repo/x'",
    );
    assert.match(sandboxExplanation(bwrap, [], "ENOENT: no such file or directory, open '/home/u/.ssh/id_rsa'", areas)!, /hides \/home\/u\/\.ssh\/id_rsa/);
    assert.match(sandboxExplanation(bwrap, [], 'connect ECONNREFUSED 127.0.0.1:5432', areas)!, /gives no network but the allowed hosts/);
  });

  it('says nothing for no sandbox, a missing file in the worktree, or a refused connection on an open network', () => {
    assert.equal(sandboxExplanation({ name: 'none', network: 'allow' }, ['a:1'], 'EROFS', areas), undefined);
    assert.equal(sandboxExplanation(bwrap, [], "ENOENT: no such file or directory, open '/repo/.supervisor/worktrees/r1/missing.ts'", areas), undefined);
    assert.equal(sandboxExplanation({ name: 'bwrap', network: 'open' }, [], 'connect ECONNREFUSED 127.0.0.1:5432', areas), undefined);
  });

  it("an auth failure is not blamed on connections refused elsewhere (cline's telemetry host); other failures still are", () => {
    const refused = ['otel.cline.bot:443'];
    assert.deepEqual(refusalsThatMayExplain({ class: 'api_error', detail: 'cline authentication failed (error): Incorrect API key provided' }, refused), []);
    assert.deepEqual(refusalsThatMayExplain({ class: 'api_error', httpStatus: 401, detail: 'Unauthorized' }, refused), []);
    assert.deepEqual(refusalsThatMayExplain({ class: 'api_error', httpStatus: 500, detail: 'server error' }, refused), refused);
    assert.deepEqual(refusalsThatMayExplain({ class: 'nonzero_exit', detail: 'fetch failed' }, refused), refused);
  });
});
