/**
 * The run log's use cases (runs list, show, tail): one function each, shared by the command
 * line and MCP, each refusing what it cannot answer before reading anything.
 */
import { errors } from '../errors.ts';
import { parseSince } from '../text/age.ts';
import type { AppDeps } from './deps.ts';

export const RUN_STATUSES = ['pass', 'gaps', 'error', 'running', 'incomplete'] as const;
export type RunStatusFilter = (typeof RUN_STATUSES)[number];

export interface RunsListInput {
  limit?: number;
  role?: string;
  status?: RunStatusFilter;
  /** An age (30m, 12h, 7d, 2w) or a date (2026-11-20). */
  since?: string;
  /** A workflow id, a unique part of one, or last. */
  workflow?: string;
  /** With workflow: only this task's runs. */
  task?: string;
}

export const DEFAULT_RUNS_LIMIT = 50;

/** Runs newest first, filtered; `now` dates a relative --since. */
export async function runsList(input: RunsListInput, deps: AppDeps, now: Date = new Date()) {
  const since = input.since === undefined ? undefined : parseSince(input.since, now);
  if (since === null) throw errors.usage(`--since expects an age (30m, 12h, 7d, 2w) or a date (2026-11-20), got "${input.since}"`);
  if (input.task !== undefined && input.workflow === undefined) throw errors.usage('runs list --task needs --workflow <id>: task ids are per workflow');
  const { listRuns } = await import('../runs/runs-store.ts');
  const { resolveWorkflowId } = await import('../workflow/engine/workflow-id.ts');
  const workflow = input.workflow === undefined ? undefined : resolveWorkflowId(deps.repoRoot, input.workflow);
  return listRuns(deps.repoRoot, {
    limit: input.limit ?? DEFAULT_RUNS_LIMIT,
    ...(workflow ? { workflow } : {}),
    ...(input.task === undefined ? {} : { task: input.task }),
    ...(input.role === undefined ? {} : { role: input.role }),
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(since ? { since } : {}),
    onNotice: (message) => deps.warn(`notice: ${message}`),
  });
}

/** One run: its summary, result and events (an id, a unique part of one, or last). */
export async function runsShow(input: { id: string }, deps: AppDeps) {
  const { readRun } = await import('../runs/runs-store.ts');
  return readRun(deps.repoRoot, input.id, (message) => deps.warn(`notice: ${message}`));
}

/** A run to follow: its record, a follower of its folder, and whether its process still writes. */
export async function runsTail(input: { id: string }, deps: AppDeps) {
  const { readRun, alive } = await import('../runs/runs-store.ts');
  const { RunFollower } = await import('../runs/run-follow.ts');
  const record = readRun(deps.repoRoot, input.id);
  const follower = new RunFollower(record.summary.run_dir);
  const pid = record.events.find((e) => e.kind === 'run_started')?.pid;
  return { record, follower, writing: () => alive(pid) };
}
