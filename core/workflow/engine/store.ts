/**
 * A workflow's state on disk, `.supervisor/workflows/<id>/`: `plan.json` (the normalised
 * plan), `events.jsonl` (append-only: every task state change with its time, every run id;
 * each line is on disk before the engine goes on, so kill -9 loses nothing already done) and
 * `result.json` (written when the workflow stops, whatever the reason). Resume rebuilds the
 * task states from the events; git (the branches) is the truth for the work itself.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workflow } from '../model.ts';
import { workflowPaths, workflowsDir } from './names.ts';
import type { WorkflowResult } from './result.ts';

export const TASK_STATES = ['pending', 'running', 'integrating', 'integrated', 'gaps', 'error', 'blocked', 'skipped'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** The states a task ends in (it does not run again in this workflow). */
export const FINAL_TASK_STATES: readonly TaskState[] = ['integrated', 'gaps', 'error', 'blocked', 'skipped'];

export interface WorkflowEvent {
  ts: string;
  kind:
    | 'workflow_started'
    | 'workflow_resumed'
    | 'task_state'
    | 'worktree_ready'
    | 'run_started'
    | 'run_finished'
    | 'merged'
    | 'conflict'
    | 'gates_started'
    | 'gates'
    | 'gates_passed'
    | 'quota_pause'
    | 'quota_resumed'
    | 'notice'
    | 'workflow_finished';
  [key: string]: unknown;
}

/**
 * Each workflow's folder is git-ignored by itself (an older `.supervisor/.gitignore` does not
 * name it), while plan files a person keeps in `.supervisor/workflows/` stay visible to git.
 */
const IGNORE_ALL = '# Written by supervisor: workflow state stays out of git.\n*\n';

export class WorkflowStore {
  readonly dir: string;
  readonly eventsFile: string;
  private readonly now: () => Date;

  constructor(repoRoot: string, workflowId: string, now: () => Date = () => new Date()) {
    this.dir = workflowPaths(repoRoot, workflowId).dir;
    this.eventsFile = join(this.dir, 'events.jsonl');
    this.now = now;
  }

  exists(): boolean {
    return existsSync(join(this.dir, 'plan.json'));
  }

  /** Creates the folder and writes the plan (a new workflow). */
  create(workflow: Workflow): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, '.gitignore'), IGNORE_ALL);
    writeFileSync(join(this.dir, 'plan.json'), `${JSON.stringify(workflow, null, 2)}\n`);
  }

  event(kind: WorkflowEvent['kind'], data: Record<string, unknown> = {}): WorkflowEvent {
    const event: WorkflowEvent = { ts: this.now().toISOString(), kind, ...data };
    appendFileSync(this.eventsFile, `${JSON.stringify(event)}\n`);
    return event;
  }

  plan(): Workflow {
    return JSON.parse(readFileSync(join(this.dir, 'plan.json'), 'utf8')) as Workflow;
  }

  events(): WorkflowEvent[] {
    if (!existsSync(this.eventsFile)) return [];
    const events: WorkflowEvent[] = [];
    // A line cut short by kill -9 is skipped, not fatal.
    for (const line of readFileSync(this.eventsFile, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        events.push(JSON.parse(line) as WorkflowEvent);
      } catch {
        continue;
      }
    }
    return events;
  }

  writeResult(result: WorkflowResult): void {
    writeFileSync(join(this.dir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  }

  result(): WorkflowResult | null {
    const file = join(this.dir, 'result.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as WorkflowResult) : null;
  }
}

/** Every workflow recorded in the repository, newest first by its first event. */
export function listWorkflowIds(repoRoot: string): string[] {
  const dir = workflowsDir(repoRoot);
  if (!existsSync(dir)) return [];
  const ids = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'plan.json')))
    .map((e) => e.name);
  const started = (id: string) => {
    const file = join(dir, id, 'events.jsonl');
    return existsSync(file) ? (readFileSync(file, 'utf8').slice(0, 40).match(/"ts":"([^"]+)"/)?.[1] ?? '') : '';
  };
  return ids.map((id) => ({ id, at: started(id) })).sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id)).map((e) => e.id);
}

/** The pid of the process running the workflow now, from its last start or resume event. */
export function ownerPid(events: WorkflowEvent[]): number | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === 'workflow_finished') return null;
    if (e.kind === 'workflow_started' || e.kind === 'workflow_resumed') return typeof e.pid === 'number' ? e.pid : null;
  }
  return null;
}
