import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

describe('bad input gets a clear usage error and exit 2, never a crash', () => {
  const cases: [string[], RegExp][] = [
    [['--repo', '/nonexistent/folder', 'doctor'], /--repo \/nonexistent\/folder: .* is not a folder/],
    [['run', 'reviewer', '--task', 'x', '--timeout', 'abc'], /--timeout expects a number >= 1 and <= 86400, got "abc"/],
    [['run', 'reviewer', '--task', 'x', '--retries', '99'], /--retries expects a whole number >= 0 and <= 10, got "99"/],
    [['run', 'reviewer', '--task', 'x', '--retries', '1.5'], /--retries expects a whole number/],
    [['run', 'reviewer', '--task', 'x', '--max-cost-usd', ''], /--max-cost-usd expects a number > 0, got ""/],
    [['run', 'reviewer', '--task', 'x', '--gate-timeout', '0'], /--gate-timeout expects a number >= 1 and <= 86400, got "0"/],
    [['run', 'reviewer', '--task', '   '], /The task is empty/],
    [['nosuchcommand'], /Unknown command "nosuchcommand"/],
  ];
  for (const [argv, message] of cases) {
    it(argv.join(' '), async () => {
      const repo = await makeRepo();
      const run = await runCli(argv, { cwd: repo });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /^\s+at /m);
    });
  }
});
