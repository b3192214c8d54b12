/** Usage errors in our own words, never yargs': the missing argument named, the choices listed, a close option suggested; own options before the global ones in help. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

describe('usage errors', () => {
  it('name the missing argument, list a bad choice, and suggest a close option', async () => {
    const repo = await makeRepo();
    const missing = await runCli(['workflow', 'run'], { cwd: repo });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /workflow run needs the plan file/);
    assert.doesNotMatch(missing.stderr, /non-option arguments/);
    const task = await runCli(['workflow', 'show', 'last'], { cwd: repo });
    assert.match(task.stderr, /workflow show needs the task id/);
    const choice = await runCli(['runs', 'list', '--status', 'passed'], { cwd: repo });
    assert.equal(choice.code, 2);
    assert.match(choice.stderr, /--status passed: choose one of pass, gaps, error, running, incomplete/);
    assert.doesNotMatch(choice.stderr, /Invalid values|Given:/);
    const typo = await runCli(['workflow', 'list', '--jsn'], { cwd: repo });
    assert.match(typo.stderr, /Unknown option: --jsn; did you mean --json\?/);
    const none = await runCli(['runs', 'list', '--status', 'error'], { cwd: repo });
    assert.equal(none.code, 0);
    assert.match(none.stdout, /No run matches --status error/);
  });

  it('workflow check warns about a task file that does not exist, and an unknown adapter gets a did-you-mean', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'x\n' });
    await writeFile(join(repo, 'plan.yaml'), 'name: x\ntasks:\n  - { id: a, title: A, task: Do a., files: [src/a.ts, src/typo.ts] }\n');
    const check = await runCli(['workflow', 'check', 'plan.yaml'], { cwd: repo });
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stderr, /task a: the file src\/typo\.ts does not exist/);
    assert.doesNotMatch(check.stderr, /src\/a\.ts does not exist/);
    const cli = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'cloude'], { cwd: repo });
    assert.equal(cli.code, 2);
    assert.match(cli.stderr, /did you mean "claude"/);
  });

  it("a subcommand's help lists its own options before the global ones, numbers typed as numbers", async () => {
    const repo = await makeRepo();
    const help = await runCli(['workflow', 'run', '--help'], { cwd: repo });
    const own = help.stdout.indexOf('--jobs');
    assert.ok(own > 0 && own < help.stdout.indexOf('Global options:'), help.stdout);
    assert.match(help.stdout, /--jobs .*\[number\]/);
  });
});
