/**
 * `supervisor workflow run/status/list/resume` through the CLI, in-process, offline: seed 003's
 * plan with `--cli replay` (no CLI, no tokens), --dry-run, usage errors, status and list, and
 * the progress on stderr (one line per state change when stderr is not a terminal).
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';

const seed003 = fileURLToPath(new URL('../fixtures/plans/seed-003.md', import.meta.url));
const fakeBin = fileURLToPath(new URL('../fixtures/bin/', import.meta.url));

/**
 * Replay answers every role but the worker: a worker must change something, and replay cannot,
 * so the worker is the fake claude (script mode: it commits work/<task>.txt each round).
 */
async function fakeWorker(repo: string): Promise<Record<string, string>> {
  const script = join(repo, '..', `${repo.split('/').pop()}-script`);
  await mkdir(script);
  return { PATH: `${fakeBin}:${process.env.PATH ?? ''}`, FAKE_CLI_SCRIPT: script };
}

async function project() {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const plan = join(repo, '..', `${repo.split('/').pop()}-seed-003.md`);
  await copyFile(seed003, plan);
  return { repo, plan, before: snapshotCheckout(repo) };
}

describe('supervisor workflow (CLI, offline)', () => {
  it("runs seed 003's plan with --cli replay: every task integrated, one progress line per state change, status and list agree", async () => {
    const { repo, plan, before } = await project();
    const run = await runCli(['workflow', 'run', plan, '--cli', 'replay', '--cli', 'worker=claude', '--base', 'HEAD', '--jobs', '4', '--json'], { cwd: repo, env: await fakeWorker(repo) });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { workflow_id: string; status: string; tasks: { status: string; runs: unknown[] }[]; metrics: { runs: number } };
    assert.equal(result.status, 'pass');
    assert.deepEqual(result.tasks.map((t) => t.status), ['integrated', 'integrated', 'integrated', 'integrated']);
    assert.equal(result.metrics.runs, 11); // three runs each for full review, two for spec-only
    assert.match(run.stderr, /^workflow: task-4: running worker \(claude\), round 1$/m);
    assert.match(run.stderr, /^workflow: task-4: integrated$/m);
    const status = await runCli(['workflow', 'status', '--json'], { cwd: repo });
    assert.equal((JSON.parse(status.stdout) as { status: string; workflow_id: string }).workflow_id, result.workflow_id);
    const list = await runCli(['workflow', 'list'], { cwd: repo });
    assert.match(list.stdout, new RegExp(`${result.workflow_id}\\s+pass`));
    const resume = await runCli(['workflow', 'resume', result.workflow_id], { cwd: repo });
    assert.equal(resume.code, 2);
    assert.match(resume.stderr, /has finished/);
    assertCheckoutUnchanged(repo, before);
  });

  it('--dry-run shows the waves and the CLI of each role and creates nothing', async () => {
    const { repo, plan, before } = await project();
    // The fake claude on PATH: a dry run refuses what run refuses, a CLI that is not installed included.
    const run = await runCli(['workflow', 'run', plan, '--dry-run', '--cli', 'spec-reviewer=replay', '--json'], { cwd: repo, env: { PATH: `${fakeBin}:${process.env.PATH ?? ''}` } });
    assert.equal(run.code, 0, run.stderr);
    const dry = JSON.parse(run.stdout) as { waves: string[][]; tasks: { id: string; cli: Record<string, string> }[] };
    assert.deepEqual(dry.waves, [['task-1', 'task-2', 'task-3'], ['task-4']]);
    assert.equal(dry.tasks[0]!.cli['spec-reviewer'], 'replay');
    assert.equal(dry.tasks[0]!.cli.worker, 'claude', 'Model: opus chooses claude');
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '');
    assert.equal(existsSync(join(repo, '.supervisor')), false);
    assertCheckoutUnchanged(repo, before);
  });

  it('usage errors before anything runs: an unknown --cli, a bad --jobs, an unknown workflow id', async () => {
    const { repo, plan } = await project();
    const cli = await runCli(['workflow', 'run', plan, '--cli', 'nosuch'], { cwd: repo });
    assert.equal(cli.code, 2);
    assert.match(cli.stderr, /No adapter plugin named "nosuch"/);
    const jobs = await runCli(['workflow', 'run', plan, '--jobs', '0'], { cwd: repo });
    assert.equal(jobs.code, 2);
    const status = await runCli(['workflow', 'status', 'nope'], { cwd: repo });
    assert.equal(status.code, 2);
    assert.match(status.stderr, /No workflow "nope"/);
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '');
  });

  it('--max-rounds caps every task\'s rounds: a reviewer that never passes ends the task gaps after that many rounds (exit 1)', async () => {
    const { repo, plan, before } = await project();
    const replies = join(repo, '..', `${repo.split('/').pop()}-replies`);
    await mkdir(replies);
    await writeFile(join(replies, 'spec-reviewer.md'), 'role: spec-reviewer\ntask_id: x\nstatus: gaps\nconfidence: high\nissues: never good enough\n\nIssues found.\n');
    const run = await runCli(['workflow', 'run', plan, '--cli', 'replay', '--cli', 'worker=claude', '--base', 'HEAD', '--jobs', '3', '--max-rounds', '1', '--json'], { cwd: repo, env: { SUPERVISOR_REPLAY: replies, ...(await fakeWorker(repo)) } });
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout) as { status: string; tasks: { id: string; status: string; rounds: number; issues: string[] }[] };
    assert.deepEqual(result.tasks.map((t) => [t.status, t.rounds]), [['gaps', 1], ['gaps', 1], ['gaps', 1], ['skipped', 0]]);
    assert.deepEqual(result.tasks[0]!.issues, ['[spec-reviewer] never good enough']);
    assertCheckoutUnchanged(repo, before);
  });
});
