/**
 * The exported pipelines run by the engines' stand-ins, with a job binary that only records
 * its arguments: gitlab-ci-local (GitLab's own rules for needs, shell executor) and the GitHub
 * test runner (test/helpers/github-actions-runner.ts). Each job runs once, after what it needs,
 * in its own copy of the repository, with the words of `workflow task`.
 */
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { git, makeRepo, tempDir } from '../../../helpers/git-repo.ts';
import { runGithubWorkflow } from '../../../helpers/github-actions-runner.ts';
import { listGitlabJobs, missingGitlabCiLocal, runGitlabPipeline } from '../../../helpers/gitlab-ci-local.ts';
import { requires } from '../../../helpers/requires.ts';
import { runCli } from '../../../helpers/run-cli.ts';

const PLAN = `name: Five
tasks:
${[['a', []], ['b', ['a']], ['c', ['a']], ['d', ['b', 'c']], ['e', []]].map(([id, deps]) => `  - id: ${id}\n    title: ${id}\n    task: Do ${id}.\n    depends_on: [${(deps as string[]).join(', ')}]\n`).join('')}`;
const DEPS: Record<string, string[]> = { a: [], b: ['a'], c: ['a'], d: ['b', 'c'], e: [] };

interface Recorded {
  task: string;
  cwd: string;
  args: string[];
  seq: number;
}

/** A repository holding the plan and its exported pipeline, a bare remote of it, and a job binary that appends its call to a log. */
async function world(to: 'gitlab-ci' | 'github-actions', output: string) {
  const repo = await makeRepo({ 'plan.yaml': PLAN });
  const run = await runCli(['workflow', 'export', 'plan.yaml', '--to', to, '-o', output, '--cli', 'replay', '--json'], { cwd: repo });
  assert.equal(run.code, 0, run.stderr);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'pipeline');
  const dir = await tempDir('sv-pipeline-');
  const remote = join(dir, 'remote.git');
  git(dir, 'clone', '-q', '--bare', repo, remote);
  git(repo, 'remote', 'add', 'origin', remote);
  const log = join(dir, 'calls.log');
  const job = join(dir, 'job-binary');
  // One line per call: a sequence number taken under a lock, the folder, the words.
  writeFileSync(job, `#!/bin/sh\nexec 9>>"${log}.lock"; flock 9\nn=$(wc -l < "${log}" 2>/dev/null || echo 0)\nprintf '%s\\t%s\\t%s\\n' "$n" "$PWD" "$*" >> "${log}"\n`);
  chmodSync(job, 0o755);
  const calls = (): Recorded[] =>
    readFileSync(log, 'utf8').trim().split('\n').map((line) => {
      const [seq, cwd, words] = line.split('\t') as [string, string, string];
      const args = words.split(' ');
      return { seq: Number(seq), cwd, args, task: args[3] === '--final' ? 'final' : args[3]! };
    });
  return { repo, dir, remote, job, calls, out: JSON.parse(run.stdout) as { workflow_id: string; plan: { sha256: string } } };
}

function assertDependencyOrder(calls: Recorded[]): void {
  const seq = Object.fromEntries(calls.map((c) => [c.task, c.seq]));
  assert.deepEqual(calls.map((c) => c.task).sort(), ['a', 'b', 'c', 'd', 'e', 'final'], 'every job once');
  for (const [task, deps] of Object.entries(DEPS)) for (const dep of deps) assert.ok(seq[dep]! < seq[task]!, `${task} after ${dep}`);
  assert.equal(seq.final, 5, 'the final job last');
  assert.equal(new Set(calls.map((c) => c.cwd)).size, 6, 'each job in its own folder');
}

describe('exported pipelines run by the engines (a job binary that records its words)', () => {
  it('gitlab-ci-local runs each job once, after its needs, each in its own copy, with the plan pinned', requires(missingGitlabCiLocal()), async () => {
    const w = await world('gitlab-ci', '.gitlab-ci.yml');
    const run = await runGitlabPipeline(w.repo, { env: { PATH: process.env.PATH!, HOME: w.dir }, variables: { SUPERVISOR: w.job } });
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(run.jobs, { 'task-a': 'PASS', 'task-b': 'PASS', 'task-c': 'PASS', 'task-d': 'PASS', 'task-e': 'PASS', final: 'PASS' }, run.output);
    const calls = w.calls();
    assertDependencyOrder(calls);
    const d = calls.find((c) => c.task === 'd')!;
    assert.deepEqual(d.args, ['workflow', 'task', w.out.workflow_id, 'd', '--plan', 'plan.yaml', '--plan-sha256', w.out.plan.sha256, '--remote', 'origin', '--cli', 'replay']);
  });

  it('the GitHub test runner runs each job once, after its needs, each in its own clone of the remote', async () => {
    const w = await world('github-actions', '.github/workflows/supervisor.yml');
    git(w.repo, 'push', '-q', 'origin', 'HEAD:main');
    const text = readFileSync(join(w.repo, '.github/workflows/supervisor.yml'), 'utf8');
    assert.deepEqual(parseWorkflow({ name: 'supervisor.yml', content: text }, new NoOperationTraceWriter()).context.errors.getErrors(), [], "GitHub's parser reads the file the command wrote");
    const results = await runGithubWorkflow(text, { remote: w.remote, ref: 'main', workDir: join(w.dir, 'jobs'), env: { PATH: process.env.PATH!, HOME: w.dir }, vars: { SUPERVISOR: w.job, SUPERVISOR_REMOTE: 'shared' } });
    assert.deepEqual(Object.values(results).map((r) => r.status), Array(6).fill('success'));
    const calls = w.calls();
    assertDependencyOrder(calls);
    for (const call of calls) assert.equal(git(call.cwd, 'remote', 'get-url', 'origin').trim(), w.remote);
    assert.ok(calls.every((c) => c.args.includes('shared')), 'SUPERVISOR_REMOTE from the repository variable');
  });

  it("gitlab-ci-local reads the file of a plan of 52 tasks by GitLab's schema, the final job by stages, the others with their needs", requires(missingGitlabCiLocal()), async () => {
    const tasks = Array.from({ length: 52 }, (_, i) => `  - id: t${i + 1}\n    title: t${i + 1}\n    task: Do t${i + 1}.\n${i === 51 ? '    depends_on: [t1]\n' : ''}`).join('');
    const repo = await makeRepo({ 'plan.yaml': `name: Wide\ntasks:\n${tasks}` });
    const run = await runCli(['workflow', 'export', 'plan.yaml', '--to', 'gitlab-ci', '-o', '.gitlab-ci.yml', '--cli', 'replay', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { notices: string[] }).notices.length, 1);
    const listed = listGitlabJobs(repo, { PATH: process.env.PATH!, HOME: await tempDir('sv-home-') });
    assert.equal(listed.code, 0, listed.output);
    const byName = Object.fromEntries(listed.jobs.map((j) => [j.name, j]));
    assert.equal(listed.jobs.length, 53);
    assert.deepEqual([byName.final!.stage, byName.final!.when, byName.final!.needs ?? []], ['supervisor-2', 'always', []]);
    assert.deepEqual([byName['task-t52']!.stage, byName['task-t52']!.needs], ['supervisor-1', ['task-t1']]);
    assert.deepEqual([byName['task-t7']!.stage, byName['task-t7']!.needs], ['supervisor-0', []]);
  });
});
