import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { joinStdinValues } from '../../../core/cli/main.ts';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

describe('--task - reads the task from stdin', () => {
  it('joins a lone "-" to --task so yargs does not take it for a positional', () => {
    assert.deepEqual(joinStdinValues(['run', 'x', '--task', '-', '--json']), ['run', 'x', '--task=-', '--json']);
    assert.deepEqual(joinStdinValues(['parse', '--json', '-']), ['parse', '--json', '-']);
    // No command defines -t: "-t -" is left for yargs to refuse, not turned into an option.
    assert.deepEqual(joinStdinValues(['run', 'x', '-t', '-']), ['run', 'x', '-t', '-']);
  });

  it('supervisor prompt --task - puts the stdin text into the prompt', async () => {
    const repo = await makeRepo();
    const run = await runCli(['prompt', 'reviewer', '--task', '-'], { cwd: repo, stdin: 'TASK-FROM-STDIN-42' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /TASK-FROM-STDIN-42/);
  });
});
