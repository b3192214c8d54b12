/**
 * A plan as a GitHub Actions workflow (issue 29): one job per task with `needs:` from the plan's
 * dependencies, and a final job. The jobs push the integration branch and state refs, so the
 * workflow asks for `contents: write`; it sets no `concurrency` (whose default cancels pending
 * runs): compare-and-swap on the remote makes concurrent runs safe. Checkouts fetch the whole
 * history. Started by hand (workflow_dispatch): each run may spend on model calls.
 */
import { createHash } from 'node:crypto';
import { headerLines, pipelineJobs, type PipelineJob, type PipelineSpec } from './pipeline-jobs.ts';
import { shellLine, yamlBlocks, type PipelineFile } from './pipeline-file.ts';

/** The checkout action the jobs start with (full history: the integration is rebuilt on the remote's). */
export const CHECKOUT_ACTION = 'actions/checkout@v4';

/**
 * Job ids allow [A-Za-z0-9_-] only: a task id with "." gets "_" and a short hash of the id,
 * so `a.b` and `a_b` stay two jobs.
 */
export function githubJobId(taskId: string): string {
  const plain = taskId.replace(/[^A-Za-z0-9_-]/g, '_');
  if (plain === taskId) return `task-${taskId}`;
  return `task-${plain}-${createHash('sha256').update(taskId).digest('hex').slice(0, 6)}`;
}

/** Text GitHub must not read as an expression: `${{` written as the expression of that literal. */
function literal(text: string): string {
  return text.replaceAll('${{', "${{ '${{' }}");
}

function secretEnv(names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `\${{ secrets.${name} }}`]));
}

function jobBody(job: PipelineJob): Record<string, unknown> {
  const body: Record<string, unknown> = { name: job.task ?? 'final: gates and result' };
  if (job.needs.length) body.needs = job.needs;
  // The final job reports the workflow's end (pass or gaps) even when a task job failed.
  if (job.task === null) body.if = '${{ !cancelled() }}';
  body['runs-on'] = "${{ vars.SUPERVISOR_RUNS_ON || 'ubuntu-latest' }}";
  body['timeout-minutes'] = job.timeoutMinutes;
  if (job.secrets.length) body.env = secretEnv(job.secrets);
  body.steps = [
    { uses: CHECKOUT_ACTION, with: { 'fetch-depth': 0 } },
    { name: job.task === null ? 'final gates and result' : `task ${job.task}`, run: shellLine(literal(job.command)) },
  ];
  return body;
}

export function renderGithubActions(spec: PipelineSpec): PipelineFile {
  const jobs = pipelineJobs(spec, githubJobId);
  const header = headerLines(spec, [
    '  - runs-on: the variable SUPERVISOR_RUNS_ON (default ubuntu-latest): a runner with the above, or add set-up steps',
    'Started by hand (Actions > Run workflow): each run may spend on model calls.',
    'No concurrency group: its default cancels pending runs; compare-and-swap on the remote makes runs safe.',
  ]);
  const top: [string, unknown][] = [
    ['name', `supervisor ${spec.workflow.id}`],
    ['on', { workflow_dispatch: {} }],
    // The jobs push the integration branch and refs/supervisor/*.
    ['permissions', { contents: 'write' }],
    ['env', { SUPERVISOR: '${{ vars.SUPERVISOR }}', SUPERVISOR_REMOTE: '${{ vars.SUPERVISOR_REMOTE }}' }],
    ['jobs', Object.fromEntries(jobs.map((job) => [job.name, jobBody(job)]))],
  ];
  return { text: `${header.join('\n')}\n\n${yamlBlocks(top)}`, jobs, notices: [] };
}
