import assert from 'node:assert/strict';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, runProgram } from './binary.ts';

const examples = fileURLToPath(new URL('../../scripts/examples/', import.meta.url));
const fakeBin = fileURLToPath(new URL('../fixtures/bin/', import.meta.url));

interface Summary {
  approved: boolean;
  rounds: number;
  runs: { role: string; round?: number; run_id: string; status: string; verdict?: string }[];
}

/** Runs the zx example with this Node; the supervisor it drives is the sandboxed binary. */
async function workflow(args: string[], extra: { path?: string; env?: Record<string, string> } = {}) {
  const box = await makeSandbox();
  const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
  const run = await runProgram(process.execPath, [join(examples, 'plan-implement-review.mjs'), '--task', 'Validate the arguments of add()', '--target', 'math.js', '--replay-dir', join(examples, 'replies'), ...args], {
    cwd: repo,
    env: { PATH: extra.path ? `${extra.path}:${box.path}` : box.path, HOME: box.home, SUPERVISOR_BIN: box.binary, ...extra.env },
  });
  return { run, repo };
}

describe('the zx plan → implement → review example, driving the binary', binarySuite(), () => {
  it('loops until the reviewer approves, feeding the review back to the implementer', async () => {
    const { run, repo } = await workflow([]);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as Summary;
    assert.equal(summary.approved, true);
    assert.equal(summary.rounds, 2);
    assert.deepEqual(
      summary.runs.map((r) => `${r.role}:${r.verdict ?? r.status}`),
      ['planner:pass', 'implementer:pass', 'reviewer:CHANGES_REQUESTED', 'implementer:pass', 'reviewer:APPROVED'],
    );
    const second = summary.runs.filter((r) => r.role === 'implementer')[1]!;
    const prompt = await readFile(join(repo, '.supervisor', 'runs', second.run_id, 'prompt.md'), 'utf8');
    assert.match(prompt, /The reviewer asked for these changes/);
    assert.match(prompt, /not covered by a test/);
    assert.match(prompt, /Reject non-numeric arguments/, 'the plan reaches the implementer');
  });

  it('merges the implementer\'s commit so the reviewer sees it (implementer on a fake claude)', async () => {
    const fakes = await tempDir('sv-fakes-');
    await writeFile(join(fakes, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${join(fakeBin, 'claude')}" "$@"\n`);
    await chmod(join(fakes, 'claude'), 0o755);
    const validated = 'export const add = (a, b) => {\n  if (typeof a !== "number" || typeof b !== "number") throw new TypeError("numbers only");\n  return a + b;\n};\n';
    const { run, repo } = await workflow(['--cli', 'implementer=claude'], {
      path: fakes,
      env: { FAKE_CLI_REPLY_FILE: join(examples, 'replies', 'implementer.md'), FAKE_CLI_EDITS: JSON.stringify({ 'math.js': validated }) },
    });
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as Summary & { runs: { files_changed?: string[] }[] };
    assert.deepEqual(summary.runs[1]!.files_changed, ['math.js']);
    assert.equal(await readFile(join(repo, 'math.js'), 'utf8'), validated, 'fast-forwarded into the checkout');
    assert.match(git(repo, 'log', '--oneline', '-1'), /supervisor|implementer/i);
    const review = summary.runs.find((r) => r.role === 'reviewer')!;
    const prompt = await readFile(join(repo, '.supervisor', 'runs', review.run_id, 'prompt.md'), 'utf8');
    assert.match(prompt, /numbers only/, 'the reviewer was shown the merged change');
  });

  it('stops at the round limit without approval (exit 1)', async () => {
    const { run } = await workflow(['--max-rounds', '1']);
    assert.equal(run.code, 1, run.stderr);
    const summary = JSON.parse(run.stdout) as Summary;
    assert.equal(summary.approved, false);
    assert.equal(summary.rounds, 1);
  });
});

describe('the zx example\'s usage errors (no binary needed)', () => {
  for (const rounds of ['abc', '0', '1.5', '']) {
    it(`--max-rounds "${rounds}" exits 2 (usage) before running anything`, async () => {
      const cwd = await tempDir('sv-usage-');
      const run = await runProgram(process.execPath, [join(examples, 'plan-implement-review.mjs'), '--task', 'x', '--max-rounds', rounds], { cwd, env: { PATH: process.env.PATH ?? '', SUPERVISOR_BIN: '/nonexistent/supervisor' } });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /--max-rounds expects a whole number >= 1/);
    });
  }
});
