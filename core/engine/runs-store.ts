/**
 * Reads the run log back for `supervisor runs list` and `runs show`. A run with a
 * `result.json` is finished; one without is still running (its process is alive) or was
 * cut short (crash, kill -9): what its events say is shown either way.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from '../errors.ts';
import type { RunResult } from './result.ts';
import { isRunId } from './run-id.ts';
import type { RunEvent } from './run-log.ts';
import { statePaths } from './state-dir.ts';
import type { RunStatus } from './status-map.ts';

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
}

export interface RunRecord {
  summary: RunSummary;
  result: RunResult | null;
  events: RunEvent[];
}

export function readEvents(runDir: string): RunEvent[] {
  const file = join(runDir, 'events.jsonl');
  if (!existsSync(file)) return [];
  const events: RunEvent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as RunEvent);
    } catch {
      // a line cut by a crash mid-write: the lines before it still count
    }
  }
  return events;
}

function readResult(runDir: string): RunResult | null {
  try {
    return JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as RunResult;
  } catch {
    return null;
  }
}

/** Whether a process with that pid still exists (EPERM: it does, owned by someone else). */
export function alive(pid: unknown): boolean {
  if (typeof pid !== 'number') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function summarise(runId: string, runDir: string, result: RunResult | null, events: RunEvent[]): RunSummary {
  const started = events.find((e) => e.kind === 'run_started');
  const finished = [...events].reverse().find((e) => e.kind === 'run_finished');
  if (result) {
    const m = result.metrics;
    return {
      run_id: runId, state: 'finished', status: result.status, exit_code: result.exit_code, role: result.role, cli: result.cli,
      attempts: m.attempts, input_tokens: m.input_tokens, output_tokens: m.output_tokens, cost_usd: m.cost_usd, cost_known: m.cost_known,
      duration_ms: m.duration_ms, started_at: result.started_at, run_dir: runDir,
    };
  }
  const state = finished ? 'finished' : alive(started?.pid) ? 'running' : 'incomplete';
  const startedAt = started?.ts ?? null;
  const endTs = (finished ?? events[events.length - 1])?.ts;
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
  };
}

function runIds(repoRoot: string): string[] {
  const dir = statePaths(repoRoot).runs;
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isRunId(entry.name))
    .map((entry) => entry.name)
    .sort()
    .reverse();
}

/** Newest first, at most `limit`; the events are read only for runs without a result. */
export function listRuns(repoRoot: string, limit = Infinity): RunSummary[] {
  const dir = statePaths(repoRoot).runs;
  return runIds(repoRoot)
    .slice(0, limit)
    .map((id) => {
      const runDir = join(dir, id);
      const result = readResult(runDir);
      return summarise(id, runDir, result, result ? [] : readEvents(runDir));
    });
}

/** A full id, a unique prefix, or "last". */
export function resolveRunId(repoRoot: string, query: string): string {
  const ids = runIds(repoRoot);
  if (query === 'last' || query === 'latest') {
    if (!ids[0]) throw errors.runNotFound(query, ids);
    return ids[0];
  }
  if (ids.includes(query)) return query;
  const matches = ids.filter((id) => id.startsWith(query) || id.endsWith(query));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw errors.runAmbiguous(query, matches);
  throw errors.runNotFound(query, ids);
}

export function readRun(repoRoot: string, query: string): RunRecord {
  const id = resolveRunId(repoRoot, query);
  const runDir = join(statePaths(repoRoot).runs, id);
  const result = readResult(runDir);
  const events = readEvents(runDir);
  return { summary: summarise(id, runDir, result, events), result, events };
}
