/**
 * The v2 worker contract the CLIs can keep: supervisor commits a worker's changes and records
 * the range, so a worker that edits without committing and reports no git_range is integrated
 * on the engine's range; its prompt names the starting commit, the gates and the commands it
 * may run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';
import { fakeEnv } from './_run.ts';

interface Result {
  workflow_id: string;
  status: string;
  branch: string;
  tasks: { id: string; status: string }[];
}

describe('the v2 worker contract', () => {
  it('a worker that edits without committing and reports no git_range is integrated on the engine\'s range', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const start = git(repo, 'rev-parse', 'HEAD').trim();
    const script = await tempDir('sv-script-');
    await writeFile(
      join(script, 'worker.json'),
      JSON.stringify({ edits: { 'src/feature.txt': 'the feature\n' }, commit: false, reply: 'role: worker\ntask_id: {{TASK_ID}}\nstatus: pass\nfiles_changed: src/feature.txt\n\nDone, not committed.\n' }),
    );
    const plan = join(await tempDir('sv-plan-'), 'plan.yaml');
    await writeFile(plan, 'name: contract\ntasks:\n  - id: t1\n    title: add the feature\n    task: Add src/feature.txt.\n    cli: claude\n    review: spec-only\n    gates: ["test -f src/feature.txt"]\n');
    const log = join(script, 'calls.log');
    const run = await runCli(['workflow', 'run', plan, '--allow-command', 'npm test', '--json'], { cwd: repo, env: fakeEnv({ FAKE_CLI_SCRIPT: script, FAKE_CLI_LOG: log }) });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as Result;
    assert.deepEqual([result.status, result.tasks[0]!.status], ['pass', 'integrated']);
    assert.equal(git(repo, 'show', `${result.branch}:src/feature.txt`), 'the feature\n');
    // The worker's run has the engine's range: from the start to the commit supervisor made.
    const events = readFileSync(join(repo, '.supervisor', 'workflows', result.workflow_id, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; role?: string; git_range?: string });
    const worker = events.find((e) => e.kind === 'run_finished' && e.role === 'worker')!;
    assert.match(worker.git_range ?? '', new RegExp(`^${start}\\.\\.[0-9a-f]{40}$`));
    // Its prompt said where it starts, that supervisor commits, which checks run and what it may run.
    const prompt = (JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!) as { stdin: string }).stdin;
    assert.match(prompt, new RegExp(`starts at commit ${start}`));
    assert.match(prompt, /Supervisor commits everything you change/);
    assert.match(prompt, /runs these checks: `test -f src\/feature.txt`/);
    assert.match(prompt, /You may run: `npm test`/);
    assert.doesNotMatch(prompt, /git (add|commit)|rev-parse/, "the worker is not asked to run git");
  });
});
