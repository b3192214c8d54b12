/**
 * A small stand-in for GitHub's runners, for the exported workflow's tests: runs a workflow
 * file's jobs in dependency order (each as soon as its `needs` are done, so in parallel where
 * they allow), each in its own full clone of a bare repository (what actions/checkout with
 * fetch-depth 0 gives), its `run:` steps in bash as GitHub runs them (-eo pipefail), with the
 * workflow's and job's `env`. Knows only the expressions the export writes (vars, secrets, the
 * literal `${{`, `!cancelled()`): anything else is an error, not a guess.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  name?: string;
}

interface Job {
  needs?: string | string[];
  if?: string;
  env?: Record<string, string>;
  'timeout-minutes'?: number;
  steps: Step[];
}

interface WorkflowFile {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

export interface GithubRunOptions {
  /** The bare repository every job clones (its `origin`). */
  remote: string;
  /** The commit or branch the run is for (default: the remote's HEAD). */
  ref?: string;
  /** Where the jobs' clones go (one folder per job). */
  workDir: string;
  /** The environment every step starts from (PATH, HOME, ...). */
  env: Record<string, string>;
  vars?: Record<string, string>;
  secrets?: Record<string, string>;
}

export interface JobResult {
  status: 'success' | 'failure' | 'skipped';
  code: number | null;
  output: string;
}

type Context = Pick<GithubRunOptions, 'vars' | 'secrets'>;

/** One expression of the few the export writes. */
function evaluate(expression: string, ctx: Context): string {
  const e = expression.trim();
  const literal = /^'((?:[^']|'')*)'$/.exec(e);
  if (literal) return literal[1]!.replaceAll("''", "'");
  const ref = /^(vars|secrets)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(e);
  if (ref) return (ref[1] === 'vars' ? ctx.vars : ctx.secrets)?.[ref[2]!] ?? '';
  const fallback = /^vars\.([A-Za-z_][A-Za-z0-9_]*) \|\| '([^']*)'$/.exec(e);
  if (fallback) return ctx.vars?.[fallback[1]!] || fallback[2]!;
  throw new Error(`the test runner does not know the expression \${{ ${e} }}`);
}

/** `${{ ... }}` in a value replaced by its value. */
export function substitute(text: string, ctx: Context): string {
  return text.replace(/\$\{\{(.+?)\}\}/g, (_, inner: string) => evaluate(inner, ctx));
}

const needsOf = (job: Job) => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);

/** Whether the job runs, given its needs' ends: `!cancelled()` always (nothing is cancelled here); default: all needs succeeded. */
function runs(job: Job, needs: JobResult[]): boolean {
  if (job.if === undefined) return needs.every((n) => n.status === 'success');
  const condition = job.if.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
  if (condition === '!cancelled()' || condition === 'always()') return true;
  throw new Error(`the test runner does not know the condition ${job.if}`);
}

function bash(script: string, cwd: string, env: Record<string, string>, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** actions/checkout with fetch-depth 0: every branch and tag, the run's commit checked out (detached). */
function checkout(step: Step, options: GithubRunOptions, dir: string): void {
  if (step.uses !== 'actions/checkout@v4') throw new Error(`the test runner does not know the action ${step.uses}`);
  if (step.with?.['fetch-depth'] !== 0) throw new Error('the export checks out the whole history (fetch-depth: 0)');
  execFileSync('git', ['clone', '-q', '--no-checkout', options.remote, dir]);
  const commit = execFileSync('git', ['rev-parse', '--verify', `${options.ref ?? 'HEAD'}^{commit}`], { cwd: dir, encoding: 'utf8' }).trim();
  execFileSync('git', ['checkout', '-q', '--detach', commit], { cwd: dir });
}

async function runJob(id: string, job: Job, file: WorkflowFile, options: GithubRunOptions): Promise<JobResult> {
  const dir = join(options.workDir, id);
  mkdirSync(options.workDir, { recursive: true });
  const values = (env: Record<string, string> | undefined) => Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, substitute(String(v), options)]));
  const env = { ...options.env, ...values(file.env), ...values(job.env), CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_JOB: id, GITHUB_WORKSPACE: dir };
  let output = '';
  for (const step of job.steps) {
    if (step.uses !== undefined) {
      checkout(step, options, dir);
      continue;
    }
    const ran = await bash(substitute(step.run ?? '', options), dir, env, (job['timeout-minutes'] ?? 360) * 60_000);
    output += ran.output;
    if (ran.code !== 0) return { status: 'failure', code: ran.code, output };
  }
  return { status: 'success', code: 0, output };
}

/** Runs every job of the workflow file; resolves with each job's end once all have ended. */
export async function runGithubWorkflow(text: string, options: GithubRunOptions): Promise<Record<string, JobResult>> {
  const file = parse(text) as WorkflowFile;
  const ended = new Map<string, Promise<JobResult>>();
  const start = (id: string): Promise<JobResult> => {
    let promise = ended.get(id);
    if (promise) return promise;
    const job = file.jobs[id];
    if (!job) throw new Error(`a job needs ${id}, which the file does not have`);
    promise = Promise.all(needsOf(job).map(start)).then((needs) => (runs(job, needs) ? runJob(id, job, file, options) : { status: 'skipped' as const, code: null, output: '' }));
    ended.set(id, promise);
    return promise;
  };
  const ids = Object.keys(file.jobs);
  const results = await Promise.all(ids.map(start));
  return Object.fromEntries(ids.map((id, i) => [id, results[i]!]));
}
