/**
 * `workflow export` end to end (issue 29): the exported pipeline of a 5-task DAG run by the
 * engines' stand-ins against a bare repository on this machine as the shared remote, every job
 * running the built binary (`workflow task ... --remote`) with the fake claude, which really
 * edits and commits. GitLab: gitlab-ci-local, each job in its own copy of the repository.
 * GitHub: the test runner (test/helpers/github-actions-runner.ts), each job in its own clone.
 * Every task lands on the remote's integration branch exactly once (a job killed mid-task and run
 * again too); a second run of the whole pipeline changes nothing; `workflow status --remote` in a
 * fresh clone says pass.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { git, tempDir } from '../helpers/git-repo.ts';
import { runGithubWorkflow } from '../helpers/github-actions-runner.ts';
import { missingGitlabCiLocal, runGitlabPipeline, startGitlabPipeline } from '../helpers/gitlab-ci-local.ts';
import { requires } from '../helpers/requires.ts';
import { binarySuite } from './binary.ts';
import { calls, step, waitFor, world, yamlPlan, type World } from './_workflow-world.ts';

const WF = 'export-flow';
const BRANCH = `refs/heads/supervisor/wf/${WF}`;
const TASKS = ['a', 'b', 'c', 'd', 'e'];
/** a, b and e at once; then c (after a) and d (after a and b) at once; two levels keep the pipeline short. */
const PLAN = yamlPlan([{ id: 'a', review: 'none' }, { id: 'b', review: 'none' }, { id: 'c', deps: ['a'], review: 'none' }, { id: 'd', deps: ['a', 'b'], review: 'spec-only' }, { id: 'e', review: 'none' }], `id: ${WF}\n`);

interface Pipeline {
  w: World;
  bare: string;
  /** Where the tests' clones go. */
  dir: string;
  file: string;
}

/** The plan committed in the world's repository with its exported pipeline file, pushed to a bare remote (`origin`). */
async function exported(to: 'gitlab-ci' | 'github-actions', file: string): Promise<Pipeline> {
  const w = await world();
  writeFileSync(join(w.repo, 'plan.yaml'), PLAN);
  git(w.repo, 'add', 'plan.yaml');
  git(w.repo, 'commit', '-q', '-m', 'plan');
  const run = await w.box.run(['workflow', 'export', 'plan.yaml', '--to', to, '-o', file, '--json'], { cwd: w.repo, env: w.env });
  assert.equal(run.code, 0, run.stderr);
  assert.equal((JSON.parse(run.stdout) as { workflow_id: string }).workflow_id, WF);
  git(w.repo, 'add', file);
  git(w.repo, 'commit', '-q', '-m', 'pipeline');
  const dir = await tempDir('sv-export-');
  const bare = join(dir, 'remote.git');
  git(dir, 'clone', '-q', '--bare', w.repo, bare);
  git(w.repo, 'remote', 'add', 'origin', bare);
  return { w, bare, dir, file };
}

/** The jobs' environment: the world's (fake claude first on PATH, its script), and node and rsync for the engine itself. */
function jobEnv(w: World): Record<string, string> {
  return w.box.env({ ...w.env, PATH: `${w.env.PATH}:${dirname(process.execPath)}:/usr/bin:/bin` });
}

const remoteRefs = (bare: string) => git(bare, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/supervisor');

/** Each task's trailer on the integration branch's first-parent line, counted. */
function integrations(bare: string): Record<string, number> {
  const counts: Record<string, number> = {};
  if (!git(bare, 'for-each-ref', BRANCH).trim()) return counts;
  for (const value of git(bare, 'log', '--first-parent', '--format=%(trailers:key=Supervisor-Task,valueonly)', BRANCH).split('\n').filter(Boolean)) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const ONCE = Object.fromEntries(TASKS.map((t) => [`${WF}/${t}`, 1]));

/** `workflow status --remote` in a fresh clone of the remote. */
async function remoteStatus(p: Pipeline): Promise<{ status: string; tasks: { id: string; status: string }[] }> {
  const fresh = join(p.dir, `fresh-${Date.now()}`);
  git(p.dir, 'clone', '-q', p.bare, fresh);
  const run = await p.w.box.run(['workflow', 'status', WF, '--remote', 'origin', '--json'], { cwd: fresh, env: p.w.env });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as { status: string; tasks: { id: string; status: string }[] };
}

async function assertPass(p: Pipeline): Promise<void> {
  assert.deepEqual(integrations(p.bare), ONCE, 'every task integrated exactly once');
  for (const t of TASKS) assert.match(git(p.bare, 'show', `${BRANCH}:work/${t}.txt`), new RegExp(t));
  const status = await remoteStatus(p);
  assert.equal(status.status, 'pass');
  assert.deepEqual(status.tasks.map((t) => [t.id, t.status]), TASKS.map((t) => [t, 'integrated']));
}

describe('workflow export: the pipeline run against a bare remote, from the binary', binarySuite(), () => {
  it('GitLab (gitlab-ci-local): a job killed mid-task; then the whole 5-task DAG integrates every task once, tasks in parallel; a second run changes nothing; status --remote says pass', requires(missingGitlabCiLocal()), async () => {
    const p = await exported('gitlab-ci', '.gitlab-ci.yml');
    const options = { env: jobEnv(p.w), variables: { SUPERVISOR: p.w.box.binary } };
    // a's worker edits and commits, then never answers: its job is killed in the middle of the run.
    await step(p.w, 'a/worker', { hang: true });
    const killed = startGitlabPipeline(p.w.repo, { ...options, jobs: ['task-a'] });
    await waitFor(() => calls(p.w).some((c) => c.task === 'a' && c.role === 'worker'));
    process.kill(-killed.child.pid!, 'SIGKILL');
    // The CLI runs in a process group of its own: ended as a runner ends what a killed job left.
    for (const c of calls(p.w)) {
      try {
        process.kill(c.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await killed.done;
    assert.deepEqual(integrations(p.bare), {}, 'nothing integrated by the killed job');
    await step(p.w, 'a/worker', null);

    const first = await runGitlabPipeline(p.w.repo, options);
    assert.equal(first.code, 0, first.output);
    assert.deepEqual(first.jobs, { 'task-a': 'PASS', 'task-b': 'PASS', 'task-c': 'PASS', 'task-d': 'PASS', 'task-e': 'PASS', final: 'PASS' }, first.output);
    // The engine started at once the jobs their needs allow: e before a ended; c and d overlapping.
    const at = (line: RegExp) => first.output.search(line);
    assert.ok(at(/^task-e +starting/m) < at(/^task-a +finished/m), first.output);
    assert.ok(at(/^task-d +starting/m) < at(/^task-c +finished/m) || at(/^task-c +starting/m) < at(/^task-d +finished/m), first.output);
    await assertPass(p);

    const refs = remoteRefs(p.bare);
    const second = await runGitlabPipeline(p.w.repo, options);
    assert.equal(second.code, 0, second.output);
    assert.equal(remoteRefs(p.bare), refs, 'a second run of the whole pipeline changes nothing on the remote');
    assert.deepEqual(integrations(p.bare), ONCE);
  });

  it('GitHub (the test runner): the same DAG, each job in its own clone, to the same end state', async () => {
    const p = await exported('github-actions', '.github/workflows/supervisor.yml');
    const text = readFileSync(join(p.w.repo, p.file), 'utf8');
    const options = { remote: p.bare, ref: 'main', workDir: join(p.dir, 'jobs'), env: jobEnv(p.w), vars: { SUPERVISOR: p.w.box.binary } };
    const first = await runGithubWorkflow(text, options);
    for (const [id, job] of Object.entries(first)) assert.equal(job.status, 'success', `${id}: ${job.output}`);
    await assertPass(p);
  });
});
