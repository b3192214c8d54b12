/**
 * Model and plan text printed by workflow commands passes the one terminal sanitiser: a plan
 * title and a reviewer's issue carrying escape sequences (window title, colours, BEL) reach
 * the terminal as visible escapes in check, --dry-run, run (result and progress), status and
 * list. --json stays JSON (escaped by JSON itself).
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

const RAW = /[\u0007\u001b\u009b]/;

describe('workflow output on a terminal', () => {
  it('escape sequences in plan and model text are shown, never obeyed, in every workflow command', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const outside = await tempDir('sv-term-');
    roots.push(repo, outside);
    const plan = join(outside, 'plan.yaml');
    // The task's gate commits a line (replay's worker changes no file): the reviewer then runs.
    await writeFile(plan, 'name: "evil \\e]0;pwned\\a"\ntasks:\n  - id: one\n    title: "One \\e[31mred\\e[0m"\n    task: Do one thing.\n    review: spec-only\n    gates: [\'echo one >> done.txt && git add done.txt && git -c user.name=t -c user.email=t@t commit -qm one\']\n');
    const replies = join(outside, 'replies');
    await mkdir(replies);
    await writeFile(join(replies, 'spec-reviewer.md'), 'role: spec-reviewer\ntask_id: x\nstatus: gaps\nconfidence: high\nissues: bad \u001b]52;c;ZXZpbA==\u0007 clipboard\n\nIssues found.\n');
    const env = { SUPERVISOR_REPLAY: replies };

    const outputs: string[] = [];
    const check = await runCli(['workflow', 'check', plan, '--cli', 'replay'], { cwd: repo });
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /\\x1b\[31mred/);
    const dry = await runCli(['workflow', 'run', plan, '--dry-run', '--cli', 'replay'], { cwd: repo });
    assert.equal(dry.code, 0, dry.stderr);
    const run = await runCli(['workflow', 'run', plan, '--cli', 'replay', '--max-rounds', '1'], { cwd: repo, env });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /bad \\x1b\]52$/m);
    assert.match(run.stdout, /ZXZpbA==\\x07 clipboard/);
    const status = await runCli(['workflow', 'status'], { cwd: repo });
    assert.match(status.stdout, /\\x1b\]52/);
    const list = await runCli(['workflow', 'list'], { cwd: repo });
    outputs.push(check.stdout, check.stderr, dry.stdout, dry.stderr, run.stdout, run.stderr, status.stdout, list.stdout);
    for (const text of outputs) assert.doesNotMatch(text, RAW);

    const json = await runCli(['workflow', 'status', '--json'], { cwd: repo });
    assert.match(JSON.parse(json.stdout).tasks[0].issues[0], /\u001b\]52/);
  });
});
