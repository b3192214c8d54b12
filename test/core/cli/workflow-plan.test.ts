import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { loadPlanFrom } from '../../helpers/load-workflow.ts';
import { runCli } from '../../helpers/run-cli.ts';

interface PlanJson {
  file: string;
  workflow_id: string;
  tasks: string[];
  run_id: string;
  planner_status: string;
  exit_code: number;
}

async function reply(answer: unknown): Promise<string> {
  const file = join(await tempDir('sv-reply-'), 'planner.md');
  await writeFile(file, `The plan.\n\n\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`\n`);
  return file;
}

describe('supervisor workflow plan', () => {
  it('offline (--cli replay): writes a workflow of the planner\'s example phases that loads', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const run = await runCli(['workflow', 'plan', '--task', 'Validate the arguments of add()', '--cli', 'replay', '--target', 'math.js', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as PlanJson;
    assert.equal(out.file, join(repo, '.supervisor', 'workflows', 'validate-the-arguments-of-add.yaml'));
    assert.deepEqual(out.tasks, ['phase-1', 'phase-2']);
    const text = await readFile(out.file, 'utf8');
    assert.match(text, /^# Workflow planned by `supervisor workflow plan` \(planner run /);
    const workflow = await loadPlanFrom({ 'plan.yaml': text }, 'plan.yaml');
    assert.deepEqual(workflow.tasks.map((t) => [t.id, t.depends_on]), [['phase-1', []], ['phase-2', ['phase-1']]]);
    assert.equal(workflow.id, out.workflow_id, 'the same plan wherever it lies');
  });

  it("turns the planner's phases and dependencies into tasks, at --out", async () => {
    const repo = await makeRepo();
    const answer = {
      status: 'COMPLETE',
      estimated_components: 3,
      risks: ['The parser may be slow'],
      phases: [
        { id: 'parser', name: 'Parser', description: 'Write the parser.', files: ['src/parse.ts'] },
        { id: 'cli', name: 'CLI', description: 'Add the command.' },
        { id: 'docs', name: 'Docs', description: 'Document both.', depends_on: ['parser', 'cli'] },
        { id: 'bench', name: 'Bench', description: 'Measure.', depends_on: [] },
      ],
    };
    const run = await runCli(['workflow', 'plan', '--task', 'A parser', '--cli', 'replay', '--out', 'flows/parser.yaml'], { cwd: repo, env: { SUPERVISOR_REPLAY: await reply(answer) } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Wrote flows\/parser\.yaml: 4 tasks \(parser; cli after parser; docs after parser, cli; bench\)/);
    const text = await readFile(join(repo, 'flows', 'parser.yaml'), 'utf8');
    assert.match(text, /# Risks the planner named:\n# {3}- The parser may be slow/);
    const check = await runCli(['workflow', 'check', 'flows/parser.yaml', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(check.code, 0, check.stderr);
    const workflow = JSON.parse(check.stdout) as { tasks: { id: string; depends_on: string[]; files: string[]; task: string }[] };
    assert.deepEqual(workflow.tasks.map((t) => [t.id, t.depends_on]), [['parser', []], ['cli', ['parser']], ['docs', ['parser', 'cli']], ['bench', []]]);
    assert.deepEqual(workflow.tasks[0]!.files, ['src/parse.ts']);
    assert.match(workflow.tasks[2]!.task, /Part of the plan for: A parser\n\n## Docs\n\nDocument both\./);
  });

  it('refuses to overwrite a workflow file before running the planner', async () => {
    const repo = await makeRepo({ 'flow.yaml': 'name: mine\n' });
    const run = await runCli(['workflow', 'plan', '--task', 'x', '--cli', 'replay', '--out', 'flow.yaml'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /FILE_EXISTS/);
    assert.equal(await readFile(join(repo, 'flow.yaml'), 'utf8'), 'name: mine\n');
    assert.doesNotMatch(run.stderr, /replay/, 'the planner did not run');
  });

  it('goes through the application layer as run does: an unreadable SUPERVISOR_KILL_GRACE_MS is a usage error, and nothing is written', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const run = await runCli(['workflow', 'plan', '--task', 'x', '--cli', 'replay', '--out', 'flow.yaml'], { cwd: repo, env: { SUPERVISOR_KILL_GRACE_MS: 'soon' } });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /SUPERVISOR_KILL_GRACE_MS/);
    await assert.rejects(readFile(join(repo, 'flow.yaml'), 'utf8'));
  });

  it('writes nothing when the planner gives no phases', async () => {
    const repo = await makeRepo();
    const answer = { status: 'BLOCKED', phases: [], estimated_components: 0, next_step: 'Ask for the API spec' };
    const run = await runCli(['workflow', 'plan', '--task', 'x', '--cli', 'replay', '--out', 'flow.yaml'], { cwd: repo, env: { SUPERVISOR_REPLAY: await reply(answer) } });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /gave no phases \(status BLOCKED\); nothing written/);
    await assert.rejects(readFile(join(repo, 'flow.yaml')));
  });
});
