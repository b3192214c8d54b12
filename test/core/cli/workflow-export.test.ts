import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const PLAN = 'name: Two steps\ntasks:\n  - id: a\n    title: A\n    task: Do a\n  - id: b\n    title: B\n    task: Do b\n    depends_on: [a]\n    review: spec-only\n';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const code = (stderr: string) => (JSON.parse(stderr) as { error: { code: string } }).error.code;

interface Exported {
  workflow_id: string;
  file: string | null;
  plan: { path: string; sha256: string; written: string | null };
  jobs: { name: string; task: string | null; needs: string[]; command: string; secrets: string[] }[];
  notices: string[];
  text?: string;
}

describe('supervisor workflow export', () => {
  it('writes the pipeline of a tracked plan: its path and sha256 on every job, the settings as flags, the same bytes each time', async () => {
    const repo = await makeRepo({ 'plans/two.yaml': PLAN });
    const args = ['workflow', 'export', 'plans/two.yaml', '--to', 'gitlab-ci', '-o', '.gitlab-ci.yml', '--cli', 'replay', '--allow-command', 'npm test', '--max-cost-usd', '5', '--json'];
    const run = await runCli(args, { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Exported;
    assert.equal(out.file, join(repo, '.gitlab-ci.yml'));
    assert.deepEqual(out.plan, { path: 'plans/two.yaml', sha256: sha(PLAN), written: null });
    assert.deepEqual(out.jobs.map((j) => [j.name, j.task, j.needs]), [['task-a', 'a', []], ['task-b', 'b', ['task-a']], ['final', null, ['task-a', 'task-b']]]);
    assert.equal(out.jobs[1]!.command, `"\${SUPERVISOR:-supervisor}" workflow task ${out.workflow_id} b --plan plans/two.yaml --plan-sha256 ${sha(PLAN)} --remote "\${SUPERVISOR_REMOTE:-origin}" --cli replay --allow-command 'npm test' --max-cost-usd 5`);
    assert.deepEqual(out.notices, []);
    const first = readFileSync(join(repo, '.gitlab-ci.yml'), 'utf8');
    assert.equal(out.text, undefined, 'the text went to the file');
    assert.equal((await runCli(args, { cwd: repo })).code, 0);
    assert.equal(readFileSync(join(repo, '.gitlab-ci.yml'), 'utf8'), first, 'deterministic');
    const printed = await runCli(args.filter((a) => !['-o', '.gitlab-ci.yml', '--json'].includes(a)), { cwd: repo });
    assert.equal(printed.stdout, first, 'without -o the same text goes to stdout');
  });

  it('copies a plan git does not track beside the pipeline file (and refuses without -o, writing nothing)', async () => {
    const repo = await makeRepo();
    const outside = join(await tempDir('sv-plan-'), 'two.yaml');
    writeFileSync(outside, PLAN);
    const refused = await runCli(['workflow', 'export', outside, '--to', 'github-actions', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(refused.code, 2);
    assert.equal(code(refused.stderr), 'USAGE');
    const run = await runCli(['workflow', 'export', outside, '--to', 'github-actions', '-o', '.github/workflows/sv.yml', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Exported;
    const copy = `.github/workflows/supervisor-plans/${out.workflow_id}/two.yaml`;
    assert.deepEqual(out.plan, { path: copy, sha256: sha(PLAN), written: join(repo, copy) });
    assert.equal(readFileSync(join(repo, copy), 'utf8'), PLAN);
    assert.match(out.jobs[0]!.command, new RegExp(`--plan ${copy.replaceAll('.', '\\.')} `));
    assert.equal(out.notices.length, 1);
  });

  it('says when a tracked plan differs from the committed one', async () => {
    const repo = await makeRepo({ 'plan.yaml': PLAN });
    writeFileSync(join(repo, 'plan.yaml'), PLAN.replace('Do b', 'Do b now'));
    const run = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'gitlab-ci', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Exported;
    assert.match(out.notices.join('\n'), /not committed as it is now/);
    assert.match(out.text!, /^# Made by `supervisor workflow export`/);
    assert.match(run.stderr, /notice: the plan plan\.yaml is not committed/);
  });

  it("refuses what workflow run refuses before writing anything (the plan's commands without trust, an unknown CLI), but not a CLI this machine lacks: the runners run it", async () => {
    const gated = `${PLAN}gates: [npm test]\n`;
    const repo = await makeRepo({ 'plan.yaml': gated });
    const untrusted = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'gitlab-ci', '-o', 'ci.yml', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(untrusted.code, 2);
    assert.equal(code(untrusted.stderr), 'WORKFLOW_UNTRUSTED_COMMANDS');
    assert.equal(existsSync(join(repo, 'ci.yml')), false);
    const unknown = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'gitlab-ci', '-o', 'ci.yml', '--cli', 'no-such-cli', '--json', '--trust'], { cwd: repo });
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.equal(existsSync(join(repo, 'ci.yml')), false);
    // codex is not on this machine's PATH (nor CI's): the runners have it, the file says so.
    const elsewhere = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'gitlab-ci', '--cli', 'codex', '--json', '--trust'], { cwd: repo });
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.match((JSON.parse(elsewhere.stdout) as Exported).text!, /the CLIs the plan runs: codex/);
    const trusted = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'gitlab-ci', '-o', 'ci.yml', '--cli', 'replay', '--json', '--trust'], { cwd: repo });
    assert.equal(trusted.code, 0, trusted.stderr);
    const out = JSON.parse(trusted.stdout) as Exported;
    assert.ok(out.jobs.every((j) => j.command.endsWith(' --trust')), '--trust on export: --trust on every job');
  });

  it('names the keys of the CLIs the plan runs as secrets, never their values; a remote URL with a password is refused', async () => {
    const repo = await makeRepo({ 'plan.yaml': PLAN });
    const env = { ANTHROPIC_API_KEY: 'sk-ant-not-a-real-key-0123456789', NPM_TOKEN: 'npm_value_0123456789' };
    const claude = await tempDir('sv-bin-');
    writeFileSync(join(claude, 'claude'), '#!/bin/sh\necho 2.0.0\n', { mode: 0o755 });
    const run = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'github-actions', '--cli', 'claude', '--pass-env', 'NPM_TOKEN', '--json'], { cwd: repo, env: { ...env, PATH: `${claude}:${process.env.PATH}` } });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Exported;
    assert.deepEqual(out.jobs[0]!.secrets, ['ANTHROPIC_API_KEY', 'NPM_TOKEN']);
    assert.deepEqual(out.jobs[2]!.secrets, ['NPM_TOKEN']);
    const doc = parse(out.text!) as { jobs: Record<string, { env?: Record<string, string> }> };
    assert.deepEqual(doc.jobs['task-a']!.env, { ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}', NPM_TOKEN: '${{ secrets.NPM_TOKEN }}' });
    for (const value of Object.values(env)) assert.ok(!run.stdout.includes(value) && !run.stderr.includes(value));
    const leaky = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'gitlab-ci', '--cli', 'replay', '--remote', 'https://ci:glpat-secret@gitlab.example.com/g/p.git', '--json'], { cwd: repo });
    assert.equal(leaky.code, 2);
    assert.equal(code(leaky.stderr), 'USAGE');
    assert.ok(!git(repo, 'status', '--porcelain').trim(), 'nothing written');
  });
});
