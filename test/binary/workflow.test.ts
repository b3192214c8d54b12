/**
 * The zx example (scripts/examples/plan-implement-review.mjs) drives `workflow plan` and
 * `workflow run` of the sandboxed binary: offline with the replay folder beside it, and with the
 * worker on a fake claude that really edits files.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, runProgram } from './binary.ts';
import { fakeClis } from '../helpers/fake-clis.ts';

const examples = fileURLToPath(new URL('../../scripts/examples/', import.meta.url));

interface Result {
  status: string;
  branch: string;
  tasks: { id: string; status: string; rounds: number; runs: { run_id: string; role: string; round: number }[] }[];
}

/** Runs the zx example with this Node; the supervisor it drives is the sandboxed binary. */
async function example(args: string[], extra: { path?: string; env?: Record<string, string> } = {}) {
  const box = await makeSandbox();
  const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
  const before = snapshotCheckout(repo);
  const run = await runProgram(process.execPath, [join(examples, 'plan-implement-review.mjs'), '--task', 'Validate the arguments of add()', '--target', 'math.js', ...args], {
    cwd: repo,
    env: { PATH: extra.path ? `${extra.path}:${box.path}` : box.path, HOME: box.home, ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}), SUPERVISOR_BIN: box.binary, SUPERVISOR_REPLAY: join(examples, 'replies'), ...extra.env },
  });
  return { run, repo, before };
}

/** The fake claude (script mode: a worker commits a file per round unless told otherwise), behind a node-free wrapper. */
async function fakeClaude(): Promise<{ fakes: string; script: string }> {
  const fakes = await fakeClis();
  return { fakes, script: await tempDir('sv-script-') };
}

describe('the zx example drives `supervisor workflow` of the binary', binarySuite(), () => {
  it('plans, runs the tasks through review loops offline, and leaves the work on the integration branch', async () => {
    // Replay answers the planner and the reviewers; a worker must change something (replay cannot), so it is the fake claude.
    const { fakes, script } = await fakeClaude();
    const { run, repo, before } = await example(['--cli', 'replay', '--cli', 'worker=claude'], { path: fakes, env: { FAKE_CLI_SCRIPT: script } });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as Result;
    assert.equal(result.status, 'pass');
    assert.deepEqual(result.tasks.map((t) => [t.id, t.status, t.rounds]), [['phase-1', 'integrated', 2], ['phase-2', 'integrated', 1]]);
    const round2 = result.tasks[0]!.runs.find((r) => r.role === 'worker' && r.round === 2)!;
    const prompt = await readFile(join(repo, '.supervisor', 'runs', round2.run_id, 'prompt.md'), 'utf8');
    assert.match(prompt, /\[spec-reviewer\] the TypeError for non-numeric arguments is not covered by a test/);
    assert.match(prompt, /Reject non-numeric arguments/, 'the plan reaches the worker');
    assertCheckoutUnchanged(repo, before);
  });

  it('with the worker on a fake claude that edits files, the change is on the integration branch, not in the checkout', async () => {
    const { fakes, script } = await fakeClaude();
    const validated = 'export const add = (a, b) => {\n  if (typeof a !== "number" || typeof b !== "number") throw new TypeError("numbers only");\n  return a + b;\n};\n';
    await writeFile(join(script, 'worker.json'), JSON.stringify({ edits: { 'math.js': validated } }));
    // Round 2 answers the reviewer (a test for the TypeError): a change of its own, or it would be an empty round.
    await writeFile(join(script, 'worker-2.json'), JSON.stringify({ edits: { 'math.js': validated, 'math.test.js': 'import { add } from "./math.js";\n' } }));
    await mkdir(join(script, 'phase-2'));
    await writeFile(join(script, 'phase-2', 'worker.json'), JSON.stringify({ edits: { 'math.md': 'add(a, b) takes numbers only.\n' } }));
    const { run, repo, before } = await example(['--cli', 'replay', '--cli', 'worker=claude'], { path: fakes, env: { FAKE_CLI_SCRIPT: script } });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as Result;
    assert.equal(git(repo, 'show', `${result.branch}:math.js`), validated);
    assertCheckoutUnchanged(repo, before);
  });
});

describe("the zx example's usage error (no binary needed)", () => {
  it('no --task exits 2 before running anything', async () => {
    const cwd = await tempDir('sv-usage-');
    const run = await runProgram(process.execPath, [join(examples, 'plan-implement-review.mjs')], { cwd, env: { PATH: process.env.PATH ?? '', SUPERVISOR_BIN: '/nonexistent/supervisor' } });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /usage: plan-implement-review\.mjs --task/);
  });
});
