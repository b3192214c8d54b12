/**
 * gitlab-ci-local (devDependency) runs a GitLab pipeline file on this machine: the shell
 * executor (no image, no Docker), each job in its own copy of the repository (--shell-isolation,
 * copied with rsync). The pipeline tests of `workflow export` run the exported file with it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GITLAB_CI_LOCAL = fileURLToPath(new URL('../../node_modules/.bin/gitlab-ci-local', import.meta.url));

/** Why gitlab-ci-local cannot run here, or undefined. */
export function missingGitlabCiLocal(): string | undefined {
  if (!existsSync(GITLAB_CI_LOCAL)) return 'gitlab-ci-local is not installed: npm ci (it is a devDependency)';
  if (spawnSync('rsync', ['--version']).error) return 'rsync is not installed (gitlab-ci-local copies each job\'s folder with it): apt-get install -y rsync';
  return undefined;
}

export interface PipelineRun {
  code: number | null;
  output: string;
  /** Each job's end as gitlab-ci-local reports it: PASS, FAIL, or absent when it did not run. */
  jobs: Record<string, 'PASS' | 'FAIL' | 'WARN'>;
}

export interface PipelineOptions {
  /** The whole environment of gitlab-ci-local and so of the jobs (the shell executor passes it on). */
  env: Record<string, string>;
  /** Pipeline variables (--variable NAME=value). */
  variables?: Record<string, string>;
  /** Only these jobs (with --needs: and what they need). */
  jobs?: string[];
  /** Check the file against GitLab's JSON schema first (slow: several seconds). */
  schema?: boolean;
}

/** Runs the pipeline of `repo`/.gitlab-ci.yml as if started by hand (CI_PIPELINE_SOURCE=web). */
export function runGitlabPipeline(repo: string, options: PipelineOptions): Promise<PipelineRun> {
  return startGitlabPipeline(repo, options).done;
}

/**
 * The same, started: `child` leads its own process group (gitlab-ci-local, the jobs' shells and
 * what they run), so a test can kill a pipeline mid-job with `process.kill(-child.pid, 'SIGKILL')`.
 */
export function startGitlabPipeline(repo: string, options: PipelineOptions): { child: ChildProcess; done: Promise<PipelineRun> } {
  const variables = { CI_PIPELINE_SOURCE: 'web', ...options.variables };
  const args = [
    '--shell-executor-no-image',
    '--shell-isolation',
    '--no-color',
    '--ignore-predefined-vars', 'CI_PIPELINE_SOURCE',
    options.schema ? '--json-schema-validation' : '--no-json-schema-validation',
    ...Object.entries(variables).flatMap(([name, value]) => ['--variable', `${name}=${value}`]),
    ...(options.jobs?.length ? [...options.jobs, '--needs'] : []),
  ];
  const child = spawn(GITLAB_CI_LOCAL, args, { cwd: repo, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const done = new Promise<PipelineRun>((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const jobs: PipelineRun['jobs'] = {};
      for (const match of output.matchAll(/^ (PASS|FAIL|WARN) {2}(\S+)/gm)) jobs[match[2]!] = match[1] as 'PASS' | 'FAIL' | 'WARN';
      resolve({ code, output, jobs });
    });
  });
  return { child, done };
}

export interface ListedJob {
  name: string;
  stage: string;
  when: string;
  /** The names of the jobs it needs (gitlab-ci-local lists them as objects); null: none given (it waits by stages). */
  needs: string[] | null;
}

/** The jobs as gitlab-ci-local reads the file (stage, when, needs), after checking it against GitLab's JSON schema; runs nothing. */
export function listGitlabJobs(repo: string, env: Record<string, string>): { code: number | null; jobs: ListedJob[]; output: string } {
  const run = spawnSync(GITLAB_CI_LOCAL, ['--list-json', '--json-schema-validation', '--no-color'], { cwd: repo, env, encoding: 'utf8' });
  let jobs: ListedJob[] = [];
  try {
    const listed = JSON.parse(run.stdout) as (Omit<ListedJob, 'needs'> & { needs?: { job: string }[] | null })[];
    jobs = listed.map((j) => ({ name: j.name, stage: j.stage, when: j.when, needs: j.needs == null ? null : j.needs.map((n) => n.job) }));
  } catch {
    // The caller asserts on code and output.
  }
  return { code: run.status, jobs, output: `${run.stdout}${run.stderr}` };
}

/** gitlab-ci-local's own folder in the repository (state, each job's copy): not part of the project. */
export const STATE_DIR = '.gitlab-ci-local';
export const jobFolder = (repo: string, job: string) => join(repo, STATE_DIR, 'builds', job);
