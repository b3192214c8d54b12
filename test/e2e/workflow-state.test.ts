/**
 * Workflow state through the CLI: a corrupt state file in one workflow folder affects only
 * that workflow (`list` names it as corrupt, `status` and `resume` of it exit 2 with the file
 * and the problem, everything else works), and one owner per workflow: while a live process
 * holds a workflow's lock, `resume` and `run` of it exit 2 naming that process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeRepo } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

async function project() {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  roots.push(repo);
  const plan = async (name: string) => {
    const file = join(repo, `${name}.yaml`);
    // Replay changes no file: the task's gate commits one (an empty worker round is never integrated); --trust lets the plan's gate run.
    await writeFile(file, `id: ${name}\nname: ${name}\ntasks:\n  - id: one\n    title: One\n    task: Do one thing.\n    review: none\n    gates: ['echo one >> one.txt && git add -A && git -c user.name=t -c user.email=t@t commit -qm one']\n`);
    return file;
  };
  return { repo, plan };
}

async function runPlan(repo: string, file: string): Promise<string> {
  const run = await runCli(['workflow', 'run', file, '--cli', 'replay', '--trust', '--json'], { cwd: repo });
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { workflow_id: string }).workflow_id;
}

describe('workflow state (CLI)', () => {
  it('one corrupt workflow folder: list shows it corrupt with the file, status/resume of it exit 2, the others and new runs work', async () => {
    const { repo, plan } = await project();
    const good = await runPlan(repo, await plan('good'));
    const badPlan = await plan('bad');
    const bad = await runPlan(repo, badPlan);
    const state = (id: string, file: string) => join(repo, '.supervisor', 'workflows', id, file);
    writeFileSync(state(bad, 'plan.json'), readFileSync(state(bad, 'plan.json'), 'utf8').slice(0, 50));

    const list = await runCli(['workflow', 'list', '--json'], { cwd: repo });
    assert.equal(list.code, 0, list.stderr);
    const items = JSON.parse(list.stdout) as { workflow_id: string; status: string; corrupt?: { file: string; problem: string } }[];
    assert.equal(items.find((w) => w.workflow_id === good)?.status, 'pass');
    const corrupt = items.find((w) => w.workflow_id === bad)!;
    assert.equal(corrupt.status, 'corrupt');
    assert.equal(corrupt.corrupt?.file, state(bad, 'plan.json'));
    assert.match(corrupt.corrupt!.problem, /not JSON/);
    const text = await runCli(['workflow', 'list'], { cwd: repo });
    assert.match(text.stdout, new RegExp(`${bad}\\s+corrupt\\s+.*plan\\.json: not JSON`));

    for (const command of ['status', 'resume']) {
      const refused = await runCli(['workflow', command, bad, '--json'], { cwd: repo });
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal((JSON.parse(refused.stderr) as { error: { code: string } }).error.code, 'WORKFLOW_CORRUPT');
      assert.match(refused.stderr, /plan\.json/);
    }
    assert.equal((await runCli(['workflow', 'status', good], { cwd: repo })).code, 0);

    // An empty events.jsonl (every task would look pending) is corrupt too, not a fresh start.
    writeFileSync(state(good, 'events.jsonl'), '');
    const resume = await runCli(['workflow', 'resume', good], { cwd: repo });
    assert.equal(resume.code, 2);
    assert.match(resume.stderr, /WORKFLOW_CORRUPT.*events\.jsonl: empty/);

    // Running either plan again works: corrupt folders are not in the way.
    assert.equal(await runPlan(repo, badPlan), `${bad}-2`);
    writeFileSync(state(`${bad}-2`, 'result.json'), '{"workflow_id": ');
    assert.equal(await runPlan(repo, badPlan), `${bad}-3`);
  });

  it('while another live process owns a workflow, resume and run of it exit 2 naming that process; a dead owner is taken over', async (t) => {
    const { repo, plan } = await project();
    const file = await plan('owned');
    const id = await runPlan(repo, file);
    const lock = join(repo, '.supervisor', 'workflows', id, 'lock');
    const owner = spawn('sleep', ['30'], { stdio: 'ignore' });
    t.after(() => owner.kill('SIGKILL'));
    const startTime = readFileSync(`/proc/${owner.pid}/stat`, 'latin1').split(') ')[1]!.split(' ')[19]!;
    writeFileSync(lock, JSON.stringify({ pid: owner.pid, start_time: startTime, acquired_at: new Date().toISOString() }));

    for (const argv of [['workflow', 'resume', id], ['workflow', 'run', file, '--cli', 'replay', '--trust']]) {
      const busy = await runCli(argv, { cwd: repo });
      assert.equal(busy.code, 2, busy.stderr);
      assert.match(busy.stderr, new RegExp(`WORKFLOW_BUSY.*process ${owner.pid}`));
    }
    const status = await runCli(['workflow', 'status', id, '--json'], { cwd: repo });
    assert.equal((JSON.parse(status.stdout) as { status: string }).status, 'running');

    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    assert.equal(await runPlan(repo, file), `${id}-2`);
  });
});
