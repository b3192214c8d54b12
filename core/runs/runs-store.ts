/**
 * Reads the run log back for `supervisor runs list` and `runs show`. A run with a
 * `result.json` is finished; one without is still running (its process is alive) or was
 * cut short (crash, kill -9): what its events say is shown either way.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from '../errors.ts';
import { matchId } from '../text/match-id.ts';
import type { RunResult } from '../run/result.ts';
import { checkResult } from './result-shape.ts';
import { isRunId } from '../run/run-id.ts';
import { readEvents, type RunEvent } from '../run/run-log.ts';
import { alive } from '../process/alive.ts';
import { statePaths } from '../state-dir.ts';

export { alive, readEvents };
import type { RunStatus } from '../run/status-map.ts';

export interface RunSummary {
  run_id: string;
  state: 'finished' | 'running' | 'incomplete';
  status: RunStatus | null;
  exit_code: number | null;
  role: string | null;
  cli: string | null;
  attempts: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  cost_known: boolean;
  duration_ms: number | null;
  started_at: string | null;
  run_dir: string;
  /** The workflow and task the run belongs to (null outside a workflow). */
  workflow_id: string | null;
  task_id: string | null;
}

export interface RunRecord {
  summary: RunSummary;
  result: RunResult | null;
  events: RunEvent[];
}

/** Called with one line for each run folder that cannot be read as it should. */
export type RunNotice = (message: string) => void;

/**
 * The run's result, or null when it has none (still running, or cut short). A result.json that
 * is not JSON or lacks what a result holds is reported and read as absent: the run is shown
 * from its events, never a crash.
 */
function readResult(runDir: string, onNotice?: RunNotice): RunResult | null {
  const file = join(runDir, 'result.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    onNotice?.(`${file} is not valid JSON (${(error as Error).message}); the run is shown from its events`);
    return null;
  }
  const checked = checkResult(value);
  if (checked.ok) return checked.result;
  onNotice?.(`${file} is malformed (${checked.problem}); the run is shown from its events`);
  return null;
}

/** When the run started: its first event (ms precision; the run id has seconds only). */
function startTime(runDir: string): string {
  try {
    const first = readFileSync(join(runDir, 'events.jsonl'), 'utf8').split('\n', 1)[0]!;
    const ts = (JSON.parse(first) as { ts?: unknown }).ts;
    return typeof ts === 'string' ? ts : '';
  } catch {
    return '';
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function summarise(runId: string, runDir: string, result: RunResult | null, events: RunEvent[]): RunSummary {
  const started = events.find((e) => e.kind === 'run_started');
  const finished = [...events].reverse().find((e) => e.kind === 'run_finished');
  if (result) {
    const m = result.metrics;
    return {
      run_id: runId, state: 'finished', status: result.status, exit_code: result.exit_code, role: result.role, cli: result.cli,
      attempts: m.attempts, input_tokens: m.input_tokens, output_tokens: m.output_tokens, cost_usd: m.cost_usd, cost_known: m.cost_known,
      duration_ms: m.duration_ms, started_at: result.started_at, run_dir: runDir,
      workflow_id: result.workflow_id ?? text(started?.workflow_id), task_id: result.task_id ?? text(started?.task_id),
    };
  }
  const state = finished ? 'finished' : alive(started?.pid) ? 'running' : 'incomplete';
  const startedAt = started?.ts ?? null;
  // Only a finished run has a duration; a running or cut-short one has none to show.
  const endTs = finished?.ts;
  return {
    run_id: runId,
    state,
    status: finished ? ((finished.status as RunStatus | undefined) ?? 'error') : null,
    exit_code: typeof finished?.exit_code === 'number' ? finished.exit_code : null,
    role: typeof started?.role === 'string' ? started.role : null,
    cli: typeof started?.cli === 'string' ? started.cli : null,
    attempts: events.filter((e) => e.kind === 'attempt_started').length,
    input_tokens: null,
    output_tokens: null,
    cost_usd: null,
    cost_known: false,
    duration_ms: startedAt && endTs ? Date.parse(endTs) - Date.parse(startedAt) : null,
    started_at: startedAt,
    run_dir: runDir,
    workflow_id: text(started?.workflow_id),
    task_id: text(started?.task_id),
  };
}

/**
 * Run ids, newest first. The id orders runs by the second they started; runs that started in
 * the same second are ordered by their first event (the id's random suffix says nothing).
 */
function runIds(repoRoot: string): string[] {
  const dir = statePaths(repoRoot).runs;
  if (!existsSync(dir)) return [];
  const ids = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isRunId(entry.name))
    .map((entry) => entry.name);
  const second = (id: string) => id.slice(0, 15); // yyyymmdd-hhmmss
  const perSecond = new Map<string, number>();
  for (const id of ids) perSecond.set(second(id), (perSecond.get(second(id)) ?? 0) + 1);
  const starts = new Map<string, string>();
  const start = (id: string) => {
    if (!starts.has(id)) starts.set(id, startTime(join(dir, id)));
    return starts.get(id)!;
  };
  return ids.sort((a, b) => {
    if (second(a) !== second(b)) return second(a) < second(b) ? 1 : -1;
    const [sa, sb] = [start(a), start(b)];
    return sa === sb ? (a < b ? 1 : -1) : sa < sb ? 1 : -1;
  });
}

/** Which runs `runs list` shows. */
export interface RunFilter {
  limit?: number;
  role?: string;
  /** A run status (pass, gaps, error) or state (running, incomplete). */
  status?: string;
  /** Only runs that started at or after this time. */
  since?: Date;
  /** Only the runs of this workflow (full id), and of this task of it. */
  workflow?: string;
  task?: string;
  onNotice?: RunNotice;
}

function matches(summary: RunSummary, filter: RunFilter): boolean {
  if (filter.role !== undefined && summary.role !== filter.role) return false;
  if (filter.status !== undefined && summary.status !== filter.status && summary.state !== filter.status) return false;
  if (filter.workflow !== undefined && summary.workflow_id !== filter.workflow) return false;
  if (filter.task !== undefined && summary.task_id !== filter.task) return false;
  if (filter.since && !(summary.started_at && Date.parse(summary.started_at) >= filter.since.getTime())) return false;
  return true;
}

/** Newest first, at most `limit` of those that match; events are read only for runs without a result. */
export function listRuns(repoRoot: string, filter: RunFilter | number = {}): RunSummary[] {
  const { limit = Infinity, ...rest } = typeof filter === 'number' ? { limit: filter } : filter;
  const dir = statePaths(repoRoot).runs;
  const out: RunSummary[] = [];
  for (const id of runIds(repoRoot)) {
    if (out.length >= limit) break;
    const runDir = join(dir, id);
    const result = readResult(runDir, rest.onNotice);
    const summary = summarise(id, runDir, result, result ? [] : readEvents(runDir));
    if (matches(summary, rest)) out.push(summary);
  }
  return out;
}

/** A full id, a unique prefix (else any unique part), or "last". */
export function resolveRunId(repoRoot: string, query: string): string {
  const ids = runIds(repoRoot);
  if (query === 'last' || query === 'latest') {
    if (!ids[0]) throw errors.runNotFound(query, ids);
    return ids[0];
  }
  const match = matchId(ids, query);
  if ('id' in match) return match.id;
  if ('ambiguous' in match) throw errors.runAmbiguous(query, match.ambiguous);
  throw errors.runNotFound(query, ids);
}

export function readRun(repoRoot: string, query: string, onNotice?: RunNotice): RunRecord {
  const id = resolveRunId(repoRoot, query);
  const runDir = join(statePaths(repoRoot).runs, id);
  const result = readResult(runDir, onNotice);
  const events = readEvents(runDir);
  return { summary: summarise(id, runDir, result, events), result, events };
}
