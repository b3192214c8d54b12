/**
 * A workflow's set-up runs under the workflow's sandbox, as its runs' CLIs do (issue 20, item
 * 1): with `--sandbox bwrap` a set-up command that writes outside its worktree writes into the
 * sandbox's private view, never the host's, while what it makes in the worktree is there for
 * the task. Without a sandbox the same command reaches the host folder.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';
import { runCli } from '../helpers/run-cli.ts';

/**
 * A plan outside the repository (the user's own): set-up writes in the worktree and tries the
 * host folder; the task's gate checks set-up's file is there. (The replay worker changes no file,
 * so the task ends gaps: what matters here is where set-up ran.)
 */
async function world() {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const outside = await tempDir('sv-setup-host-');
  const marker = join(outside, 'escaped');
  const plan = join(outside, 'plan.yaml');
  await writeFile(plan, `name: set up\nsetup: ['echo ran > setup-ran.txt; touch ${marker} 2>/dev/null; true']\ntasks:\n  - id: one\n    title: One\n    task: Do one thing.\n    review: none\n    max_rounds: 1\n    gates: ['test -f setup-ran.txt']\n`);
  return { repo, plan, marker };
}

/** The workflow's set-up steps and the worker run's gate results, from the state on disk. */
function record(repo: string, workflowId: string) {
  const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const setup = lines(join(repo, '.supervisor', 'workflows', workflowId, 'events.jsonl')).filter((e) => e.kind === 'setup' && e.step === 'command_finished');
  const runs = readdirSync(join(repo, '.supervisor', 'runs'));
  const gates = runs.flatMap((id) => lines(join(repo, '.supervisor', 'runs', id, 'events.jsonl'))).filter((e) => e.kind === 'gate_passed' || e.kind === 'gate_failed');
  return { setup, gates };
}

describe('workflow set-up and the sandbox', () => {
  it('with --sandbox bwrap, set-up runs inside it: the worktree gets its files, the host folder nothing', requires(missingBwrap()), async () => {
    const { repo, plan, marker } = await world();
    const run = await runCli(['workflow', 'run', plan, '--cli', 'replay', '--sandbox', 'bwrap', '--json'], { cwd: repo });
    const result = JSON.parse(run.stdout) as { workflow_id: string; status: string };
    assert.equal(result.status, 'gaps', run.stderr);
    const { setup, gates } = record(repo, result.workflow_id);
    assert.deepEqual(setup.map((s) => s.exit_code), [0], 'set-up ran once, and passed');
    assert.ok(gates.length > 0 && gates.every((g) => g.kind === 'gate_passed'), 'the gate found set-up\'s file in the worktree');
    assert.equal(existsSync(marker), false, 'set-up wrote outside its worktree on the host');
  });

  it('without a sandbox the same set-up reaches the host folder (the control)', async () => {
    const { repo, plan, marker } = await world();
    const run = await runCli(['workflow', 'run', plan, '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal((JSON.parse(run.stdout) as { status: string }).status, 'gaps', run.stderr);
    assert.equal(existsSync(marker), true);
  });
});
