/** Issue 14 item 6: the command line behaves (one value per flag, help, suggestions, flags named once). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

describe('the command line', () => {
  it('a repeatable option takes one value: the next word stays a positional', async () => {
    const repo = await makeRepo({ 'a.js': 'export const a = 1;\n' });
    const prompt = await runCli(['prompt', 'reviewer', '--target', 'a.js', 'the task text'], { cwd: repo });
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /the task text/);
    const dry = await runCli(['run', '--gate', 'true', 'reviewer', '--task', 'x', '--dry-run', '--cli', 'replay'], { cwd: repo });
    assert.equal(dry.code, 0, dry.stderr);
    await writeFile(join(repo, 'p.mjs'), "export default { kind: 'packer', name: 'p', pack: async () => ({ parts: [], notices: [] }) };\n");
    await writeFile(join(repo, 'answer.md'), '```json\n{"status": "done"}\n```\n');
    const parse = await runCli(['parse', '--plugin', 'p.mjs', 'answer.md', '--schema', 'generic', '--json'], { cwd: repo });
    assert.equal(parse.code, 0, parse.stderr);
    assert.equal(JSON.parse(parse.stdout).status, 'done');
  });

  it('bare supervisor prints the help on stderr and exits 2; so does a command that needs a subcommand', async () => {
    const repo = await makeRepo();
    const bare = await runCli([], { cwd: repo });
    assert.equal(bare.code, 2);
    assert.equal(bare.stdout, '');
    assert.match(bare.stderr, /Commands:[\s\S]*supervisor run <role>/);
    const roles = await runCli(['roles'], { cwd: repo });
    assert.equal(roles.code, 2);
    assert.match(roles.stderr, /supervisor roles list/);
    assert.match(roles.stderr, /hint: Run "supervisor roles --help"/);
  });

  it('an unknown command or role suggests close names only', async () => {
    const repo = await makeRepo();
    const typo = await runCli(['rnus'], { cwd: repo });
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /Unknown command "rnus"; did you mean "runs"\?/);
    const bogus = await runCli(['bogus'], { cwd: repo });
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /Unknown command "bogus"/);
    assert.doesNotMatch(bogus.stderr, /did you mean/i);
    const sub = await runCli(['runs', 'shwo'], { cwd: repo });
    assert.match(sub.stderr, /Unknown command "shwo"; did you mean "show"\?/);
    const role = await runCli(['run', 'reviwer', '--task', 'x'], { cwd: repo });
    assert.equal(role.code, 2);
    assert.match(role.stderr, /No role named "reviwer"; did you mean "reviewer"\?/);
  });

  it('an unknown option is named once, as typed', async () => {
    const repo = await makeRepo();
    const run = await runCli(['run', 'reviewer', '--task', 'x', '--bogus-flag'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Unknown option: --bogus-flag\n/);
    assert.doesNotMatch(run.stderr, /bogusFlag/);
  });

  it('numeric options show as numbers in --help', async () => {
    const repo = await makeRepo();
    const help = await runCli(['run', '--help'], { cwd: repo });
    assert.equal(help.code, 0);
    for (const option of ['timeout', 'retries', 'gate-timeout', 'max-cost-usd']) {
      assert.match(help.stdout, new RegExp(`--${option}[^\\n]*(\\n {20,}[^\\n]*)*\\[number\\]`), option);
    }
    const runs = await runCli(['runs', 'list', '--help'], { cwd: repo });
    assert.match(runs.stdout, /--limit[\s\S]*\[number\]/);
  });

  it('a reader that goes away (| head) is not a crash', async () => {
    const repo = await makeRepo({ 'big.txt': `${'line of text\n'.repeat(40_000)}` });
    const bin = fileURLToPath(new URL('../../../bin/supervisor.mjs', import.meta.url));
    const out = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" pack --include big.txt | head -1`], { cwd: repo, encoding: 'utf8' });
    assert.match(out.stdout, /^## /);
    assert.doesNotMatch(out.stderr, /EPIPE|Unhandled/);
  });
});
