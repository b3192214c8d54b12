/**
 * A world for workflow tests through the built binary: a sandboxed binary, a real repository,
 * the fake claude in script mode (it really edits and commits; see test/fixtures/bin/README.md)
 * and helpers to read what happened (result, events, the fake's calls, prompts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotCheckout } from '../helpers/checkout.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { makeSandbox, type Sandbox } from './binary.ts';
import { fakeClis } from '../helpers/fake-clis.ts';
import { until } from '../helpers/processes.ts';


export interface WfResult {
  workflow_id: string;
  status: string;
  exit_code: number;
  branch: string;
  git_range: string;
  tasks: { id: string; status: string; rounds: number; branch: string; issues: string[]; why: string | null; runs: { run_id: string; role: string; round: number; status: string; cost_usd: number | null }[] }[];
  gates: { passed: boolean | null; failed: string | null };
  budget: { ceiling_usd: number | null; spent_usd: number; reserved_usd: number; unknown_cost_runs: number; enforced: boolean };
  merge_queue: { gates_on: string | null; candidates: number; waited_ms: number; gates_ms: number };
  stop_reason: string | null;
  retries: { at: string; tasks: string[]; fresh: boolean }[];
  metrics: { cost_usd: number; runs: number };
  notices: string[];
}

export interface WfEvent {
  ts: string;
  kind: string;
  task?: string;
  state?: string;
  role?: string;
  round?: number;
  reason?: string;
  [key: string]: unknown;
}

export interface Call {
  task: string;
  role: string;
  round: number;
  pid: number;
  cwd: string;
  failed?: string;
}

export interface World {
  box: Sandbox;
  repo: string;
  script: string;
  env: Record<string, string>;
  before: ReturnType<typeof snapshotCheckout>;
}

export async function world(files: Record<string, string> = { 'README.md': '# demo\n', 'shared.txt': 'base\n' }): Promise<World> {
  const box = await makeSandbox();
  const fakes = await fakeClis();
  const script = await tempDir('sv-script-');
  const repo = await makeRepo(files);
  const env = { PATH: `${fakes}:${box.path}`, FAKE_CLI_SCRIPT: script, SUPERVISOR_KILL_GRACE_MS: '300', SUPERVISOR_RETRY_BACKOFF_MS: '10' };
  return { box, repo, script, env, before: snapshotCheckout(repo) };
}

export async function step(w: World, name: string, body: Record<string, unknown> | null): Promise<void> {
  const file = join(w.script, `${name}.json`);
  if (body === null) return rm(file, { force: true });
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify(body));
}

export async function plan(w: World, yaml: string): Promise<string> {
  const file = join(w.repo, '..', `${w.repo.split('/').pop()}-plan.yaml`);
  await writeFile(file, yaml);
  return file;
}

export async function wf(w: World, args: string[]): Promise<{ code: number | null; result: WfResult; stderr: string }> {
  const run = await w.box.run(['workflow', ...args, '--json'], { cwd: w.repo, env: w.env });
  let result: WfResult;
  try {
    result = JSON.parse(run.stdout) as WfResult;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
  return { code: run.code, result, stderr: run.stderr };
}

/** `workflow run` in the background, for a kill. */
export function spawnRun(w: World, file: string, args: string[] = []): ChildProcess {
  return spawn(w.box.binary, ['workflow', 'run', file, ...args], { cwd: w.repo, env: w.box.env(w.env), stdio: 'ignore' });
}

export function events(w: World, id: string): WfEvent[] {
  return readFileSync(join(w.repo, '.supervisor', 'workflows', id, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as WfEvent);
}

/** The ids of the workflows the repository holds (their state folders). */
export function workflowIds(w: World): string[] {
  return readdirSync(join(w.repo, '.supervisor', 'workflows'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
}

/**
 * The calls the fake CLIs have recorded so far. Read while they run (tests wait for a count), so
 * only finished lines: a fake appends a line in one write, but the file exists, empty, from its
 * open on, and a read between the two once failed a CI run on an empty line.
 */
export function calls(w: World): Call[] {
  const file = join(w.script, '.calls.jsonl');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Call);
}

export function prompt(w: World, runId: string): string {
  return readFileSync(join(w.repo, '.supervisor', 'runs', runId, 'prompt.md'), 'utf8');
}

/** A result's tasks by id (a workflow result's, or a status's with its own task shape). */
export const byId = <T extends { id: string }>(r: { tasks: T[] }) => Object.fromEntries(r.tasks.map((t) => [t.id, t]));

export interface PlanTask {
  id: string;
  deps?: string[];
  review?: string;
  rounds?: number;
}

export function yamlPlan(tasks: PlanTask[], head = ''): string {
  const body = tasks
    .map((t) => `  - id: ${t.id}\n    title: task ${t.id}\n    task: Do ${t.id}.\n    cli: claude\n${t.deps ? `    depends_on: [${t.deps.join(', ')}]\n` : ''}${t.review ? `    review: ${t.review}\n` : ''}${t.rounds ? `    max_rounds: ${t.rounds}\n` : ''}`)
    .join('');
  return `name: test flow\n${head}tasks:\n${body}`;
}

export const waitFor = (check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> => until(check, ms);

export async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
