/**
 * Commands from a plan (the workflow's and each task's `gates`, and `setup`) inside an untrusted
 * repository need trust, as the gates of its role files do: `workflow run` refuses before
 * anything runs, naming them; `--dry-run` lists them with a notice; `--trust` (or a plan of the
 * user's own, outside the repository) lets them run.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { planCommands, untrustedPlanCommands } from '../../core/workflow/plan-commands.ts';
import { task, workflow } from '../core/workflow/engine/_workflow.ts';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

/** The task's gate commits a line: replay's worker changes no file, and an empty change is never integrated. */
const COMMIT = "echo one >> done.txt && git add done.txt && git -c user.name=t -c user.email=t@t commit -qm one";

async function project() {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const outside = await tempDir('sv-outside-');
  roots.push(repo, outside);
  const marker = join(outside, 'ran');
  const yaml = `name: gated\ngates:\n  - touch ${marker}\ntasks:\n  - id: one\n    title: One\n    task: Do one thing.\n    review: none\n    gates: ['${COMMIT}']\n`;
  await writeFile(join(repo, 'plan.yaml'), yaml);
  await writeFile(join(outside, 'plan.yaml'), yaml);
  return { repo, outside, marker };
}

describe('commands from a plan need trust', () => {
  it('an untrusted repository\'s plan with gates: run refuses naming them (nothing runs, no branch); --dry-run lists them', async () => {
    const { repo, marker } = await project();
    const run = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'replay'], { cwd: repo });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /WORKFLOW_UNTRUSTED_COMMANDS/);
    assert.match(run.stderr, /\/gates\/0: "touch [^"]+"/);
    assert.match(run.stderr, /\/tasks\/0\/gates\/0: "echo one >> done.txt/);
    assert.match(run.stderr, /supervisor trust /);
    assert.equal(existsSync(marker), false);
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '');

    const dry = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'replay', '--dry-run', '--json'], { cwd: repo });
    // The dry run shows the plan and refuses what run refuses.
    assert.equal(dry.code, 2, dry.stderr);
    assert.match(dry.stderr, /WORKFLOW_UNTRUSTED_COMMANDS/);
    const listed = (JSON.parse(dry.stdout) as { untrusted_commands: { pointer: string; command: string }[] }).untrusted_commands;
    assert.deepEqual(listed.map((c) => c.pointer), ['/gates/0', '/tasks/0/gates/0']);
    assert.match(dry.stderr, /notice: not loaded: 2 commands of the plan \(\/gates\/0, \/tasks\/0\/gates\/0\)/);
    const text = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'replay', '--dry-run'], { cwd: repo });
    assert.match(text.stdout, /commands from the plan[^\n]*\n {2}\/gates\/0: touch /);
    // Per task: approve, set-up, gates, allowed commands, sandbox.
    assert.match(text.stdout, /per task:\n {2}one: approve no; sandbox the roles' own\n {6}set-up: -\n {6}gates: echo one >> done\.txt/);

    // workflow check refuses what run refuses (it said ok before).
    const check = await runCli(['workflow', 'check', 'plan.yaml', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(check.code, 2, check.stderr);
    assert.equal((JSON.parse(check.stderr) as { error: { code: string } }).error.code, 'WORKFLOW_UNTRUSTED_COMMANDS');
    assert.equal((await runCli(['workflow', 'check', 'plan.yaml', '--cli', 'replay'], { cwd: repo, trust: true })).code, 0);
  });

  it('with --trust, or from a plan outside the repository, the gates run', async () => {
    const { repo, outside, marker } = await project();
    const trusted = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'replay', '--json'], { cwd: repo, trust: true });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(existsSync(marker), true);
    await rm(marker);
    const own = await runCli(['workflow', 'run', join(outside, 'plan.yaml'), '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(own.code, 0, own.stderr);
    assert.equal(existsSync(marker), true);
  });

  it("an untrusted repository's plan with setup: refused before any set-up runs, naming each command once, where the plan wrote it", async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const outside = await tempDir('sv-outside-');
    roots.push(repo, outside);
    const marker = join(outside, 'set-up-ran');
    await writeFile(join(repo, 'plan.yaml'), `name: set up\nsetup: ["touch ${marker}"]\ntasks:\n  - id: one\n    title: One\n    task: Do one thing.\n    review: none\n    gates: ['${COMMIT}']\n  - id: two\n    title: Two\n    task: Do another.\n    review: none\n    setup: ['true']\n    gates: ['${COMMIT}']\n`);
    const run = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'replay'], { cwd: repo });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /WORKFLOW_UNTRUSTED_COMMANDS/);
    assert.match(run.stderr, /\(\/setup\/0: "touch [^"]+"/);
    assert.match(run.stderr, /\/tasks\/1\/setup\/0: "true"/);
    assert.doesNotMatch(run.stderr, /\/defaults\/setup|\/tasks\/0\/setup/, 'the top-level setup is named once, as the plan has it');
    assert.equal(existsSync(marker), false);
    const trusted = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'replay', '--json'], { cwd: repo, trust: true });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(existsSync(marker), true);
  });

  it('every command field counts, setup included, at the workflow and the task level', () => {
    const plan = { ...workflow([{ ...task('a', { gates: ['make test'] }), setup: ['npm ci'] } as never]), setup: 'make deps', source: { file: '/repo/plan.yaml', reader: 'x' } };
    assert.deepEqual(planCommands(plan).map((c) => [c.pointer, c.command]), [['/setup', 'make deps'], ['/tasks/0/gates/0', 'make test'], ['/tasks/0/setup/0', 'npm ci']]);
    assert.equal(untrustedPlanCommands(plan, '/repo', true).length, 0);
    assert.equal(untrustedPlanCommands(plan, '/repo', false).length, 3);
    assert.equal(untrustedPlanCommands(plan, '/elsewhere', false).length, 0);
  });
});
