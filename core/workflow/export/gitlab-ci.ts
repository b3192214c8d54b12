/**
 * A plan as a GitLab CI pipeline (issue 29): one job per task with `needs:` from the plan's
 * dependencies, and a final job. GitLab takes at most 50 `needs` per job: a job with more waits
 * by stages instead (every job in the stage of its dependency depth), and the export says so.
 */
import { headerLines, pipelineJobs, type PipelineJob, type PipelineSpec } from './pipeline-jobs.ts';
import { dependencyLevels, shellLine, yamlBlocks, type PipelineFile } from './pipeline-file.ts';

/** GitLab's limit of `needs` entries per job. */
export const GITLAB_MAX_NEEDS = 50;

/** Task ids are [A-Za-z0-9._-]+: prefixed, never a GitLab keyword nor a hidden (".") job. */
export function gitlabJobName(taskId: string): string {
  return `task-${taskId}`;
}

/** GitLab's duration words, e.g. "90m". */
function gitlabTimeout(minutes: number): string {
  return `${minutes}m`;
}

function jobBody(job: PipelineJob, stage: string | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (stage !== null) body.stage = stage;
  if (stage === null || job.needs.length <= GITLAB_MAX_NEEDS) body.needs = job.needs;
  // The final job reports the workflow's end (pass or gaps) even when a task job failed.
  if (job.task === null) body.when = 'always';
  body.timeout = gitlabTimeout(job.timeoutMinutes);
  body.script = [shellLine(job.command)];
  return body;
}

const RUN_WHEN = '$CI_PIPELINE_SOURCE =~ /^(web|api|trigger|schedule|pipeline|parent_pipeline)$/';

export function renderGitlabCi(spec: PipelineSpec): PipelineFile {
  const jobs = pipelineJobs(spec, gitlabJobName);
  const crowded = jobs.filter((job) => job.needs.length > GITLAB_MAX_NEEDS);
  const notices: string[] = [];
  let stages: Map<string, string> | null = null;
  if (crowded.length) {
    const levels = dependencyLevels(jobs);
    stages = new Map(jobs.map((job) => [job.name, `supervisor-${levels.get(job.name) ?? 0}`]));
    notices.push(
      `GitLab allows at most ${GITLAB_MAX_NEEDS} needs per job: ${crowded.map((j) => j.name).join(', ')} ${crowded.length === 1 ? 'waits' : 'wait'} by stages instead (${new Set(stages.values()).size} stages, one per dependency depth); the other jobs keep their needs`,
    );
  }
  const header = headerLines(spec, [
    '  - for the remote "origin" of the job\'s checkout to take pushes, allow the job token to push',
    '    (Settings > CI/CD > Job token permissions), or set SUPERVISOR_REMOTE to a URL with a token',
    'Runs when started (Run pipeline, API, trigger, schedule), never on a push: each run may spend on model calls.',
    ...notices.map((n) => `Note: ${n}.`),
  ]);
  const top: [string, unknown][] = [
    ['workflow', { rules: [{ if: RUN_WHEN }] }],
    // The integration is rebuilt on the remote's history: every job needs all of it.
    ['variables', { GIT_DEPTH: '0' }],
  ];
  if (stages) top.push(['stages', [...new Set(stages.values())]]);
  for (const job of jobs) top.push([job.name, jobBody(job, stages?.get(job.name) ?? null)]);
  return { text: `${header.join('\n')}\n\n${yamlBlocks(top)}`, jobs, notices };
}
