import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const GOOD = 'name: Two steps\ntasks:\n  - id: a\n    title: A\n    task: Do a\n  - id: b\n    title: B\n    task: Do b\n    depends_on: [a]\n    review: spec-only\n';

describe('supervisor workflow check', () => {
  it('prints the normalised plan as a summary, or as JSON, and exits 0', async () => {
    const repo = await makeRepo({ 'plan.yaml': GOOD });
    const run = await runCli(['workflow', 'check', 'plan.yaml', '--cli', 'replay'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ok: plan\.yaml \(read by workflow-yaml\): 2 tasks/);
    assert.match(run.stdout, /workflow: two-steps-[0-9a-f]{8}/);
    assert.match(run.stdout, /\nb +a +worker +spec-reviewer +role/);
    const json = await runCli(['workflow', 'check', 'plan.yaml', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(json.code, 0, json.stderr);
    const plan = JSON.parse(json.stdout) as { id: string; source: { file: string }; tasks: { id: string; max_rounds: number }[] };
    assert.equal(plan.source.file, join(repo, 'plan.yaml'));
    assert.deepEqual(plan.tasks.map((t) => [t.id, t.max_rounds]), [['a', 3], ['b', 3]]);
  });

  it('exits 2 on a bad plan, with the error on stderr and nothing on stdout', async () => {
    const repo = await makeRepo({ 'plan.yaml': GOOD.replace('depends_on: [a]', 'depends_on: [c]') });
    const run = await runCli(['workflow', 'check', 'plan.yaml', '--cli', 'replay'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /WORKFLOW_UNKNOWN_DEPENDENCY.*plan\.yaml:9: task "b": \/tasks\/1\/depends_on\/0/);
    const json = await runCli(['workflow', 'check', 'plan.yaml', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(json.code, 2);
    assert.equal((JSON.parse(json.stderr) as { error: { code: string } }).error.code, 'WORKFLOW_UNKNOWN_DEPENDENCY');
  });

  it('reads a plan with the starter plan reader of `plugins new plan-reader`', async () => {
    const repo = await makeRepo();
    assert.equal((await runCli(['plugins', 'new', 'plan-reader', 'todo'], { cwd: repo })).code, 0);
    await writeFile(join(repo, 'week.todo'), '- [ ] fix-login: Fix the login bug\n- [ ] docs: Write the docs\n');
    const run = await runCli(['workflow', 'check', 'week.todo', '--cli', 'replay', '--json'], { cwd: repo, trust: true });
    assert.equal(run.code, 0, run.stderr);
    const plan = JSON.parse(run.stdout) as { source: { reader: string }; tasks: { id: string }[] };
    assert.equal(plan.source.reader, 'todo');
    assert.deepEqual(plan.tasks.map((t) => t.id), ['fix-login', 'docs']);
  });

  it('lists plan readers in plugins list and doctor', async () => {
    const repo = await makeRepo();
    const listed = JSON.parse((await runCli(['plugins', 'list', '--json'], { cwd: repo })).stdout) as { kind: string; name: string }[];
    assert.deepEqual(listed.filter((p) => p.kind === 'plan-reader').map((p) => p.name), ['plan-markdown', 'workflow-yaml']);
    const doctor = await runCli(['doctor'], { cwd: repo, env: { PATH: '' } });
    assert.match(doctor.stdout, /plan readers \(workflow files\):\n {2}plan-markdown +\.md \.markdown/);
  });
});
