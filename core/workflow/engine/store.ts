/**
 * A workflow's state on disk, `.supervisor/workflows/<id>/`: `plan.json` (the normalised
 * plan), `events.jsonl` (append-only: every task state change with its time, every run id;
 * each line is on disk before the engine goes on, so kill -9 loses nothing already done),
 * `result.json` (written when the workflow stops, whatever the reason) and `lock` (the process
 * running it now: lock.ts). Plan and result are written atomically and every file is checked
 * when read back: a file that is not what the engine wrote is WORKFLOW_CORRUPT for this
 * workflow alone. Resume rebuilds the task states from the events; git (the branches) is the
 * truth for the work itself.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic, writeJsonAtomic } from '../../fs/atomic-file.ts';
import type { Workflow } from '../../plugin-api/workflow-model.ts';
import { engineErrors } from './errors.ts';
import { acquireWorkflowLock, lockOwner, type LockOwner, type WorkflowLock } from './lock.ts';
import { workflowPaths, workflowsDir } from './names.ts';
import type { WorkflowResult } from './result.ts';
import { describeIssue, planShape, resultShape } from './state-shapes.ts';
import { systemNow } from './clock.ts';
import { EVENT_SCHEMAS, parseEvent, type EventData, type EventKind, type EventOf, type TaskState, type WorkflowEvent } from './events.ts';

export { TASK_STATES, type TaskState, type WorkflowEvent } from './events.ts';

/** The states a task ends in (it does not run again in this workflow). */
export const FINAL_TASK_STATES: readonly TaskState[] = ['integrated', 'gaps', 'error', 'blocked', 'skipped'];

/**
 * Each workflow's folder is git-ignored by itself (an older `.supervisor/.gitignore` does not
 * name it), while plan files a person keeps in `.supervisor/workflows/` stay visible to git.
 */
const IGNORE_ALL = '# Written by supervisor: workflow state stays out of git.\n*\n';

/** Everything a workflow's folder holds, read and checked at once. */
export interface WorkflowState {
  plan: Workflow;
  events: WorkflowEvent[];
  result: WorkflowResult | null;
}

export class WorkflowStore {
  readonly id: string;
  readonly dir: string;
  readonly eventsFile: string;
  private readonly now: () => Date;
  /** Told of every event once it is on disk (the --on-event hooks); must not throw or block. */
  onEvent: ((event: WorkflowEvent) => void) | null = null;
  /** Whether this process has checked the events file's tail before its first append. */
  private tailChecked = false;

  constructor(repoRoot: string, workflowId: string, now: () => Date = systemNow) {
    this.id = workflowId;
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
    writeFileAtomic(join(this.dir, '.gitignore'), IGNORE_ALL);
    writeJsonAtomic(join(this.dir, 'plan.json'), workflow);
  }

  /** Told of every event once it is on disk, before onEvent: the engine's reducer (state.ts). */
  onApplied: ((event: WorkflowEvent) => void) | null = null;

  /** The one way an event is written: checked against its kind's schema, on disk, then told. */
  append<K extends EventKind>(kind: K, data: EventData<K>): EventOf<K> {
    const written = v.safeParse(EVENT_SCHEMAS[kind], { ts: this.now().toISOString(), kind, ...data });
    if (!written.success) throw engineErrors.badEvent(this.id, `${kind}: ${describeIssue(written.issues)}`);
    const event = written.output as EventOf<K>;
    if (!this.tailChecked) {
      dropCutTail(this.eventsFile);
      this.tailChecked = true;
    }
    appendFileSync(this.eventsFile, `${JSON.stringify(event)}\n`);
    this.onApplied?.(event);
    this.onEvent?.(event);
    return event;
  }

  /** The plan as the workflow started with it; WORKFLOW_CORRUPT when plan.json cannot be read back. */
  plan(): Workflow {
    return this.readJson('plan.json', planShape) as unknown as Workflow;
  }

  /**
   * The events in order; WORKFLOW_CORRUPT when a line is not an event or the start is missing
   * (an empty file would otherwise make every task look pending and run again). A last line
   * cut short by kill -9 (no newline after it) is skipped, not fatal.
   */
  events(): WorkflowEvent[] {
    const file = this.eventsFile;
    const text = this.readText(file) ?? '';
    const lines = text.split('\n');
    const events: WorkflowEvent[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line.trim()) continue;
      const cut = i === lines.length - 1;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        if (cut) continue;
        throw engineErrors.corrupt(this.id, file, `line ${i + 1} is not JSON (${(error as Error).message})`);
      }
      const parsed = parseEvent(value);
      if (!parsed.ok) throw engineErrors.corrupt(this.id, file, `line ${i + 1} is not an event the engine writes (${parsed.problem})`);
      events.push(parsed.event);
    }
    if (!events.some((e) => e.kind === 'workflow_started')) throw engineErrors.corrupt(this.id, file, text.trim() ? 'no workflow_started event' : 'empty or missing: the record of the workflow\'s start is gone');
    return events;
  }

  writeResult(result: WorkflowResult): void {
    writeJsonAtomic(join(this.dir, 'result.json'), result);
  }

  /** The result of the last run or resume, or null; WORKFLOW_CORRUPT when result.json cannot be read back. */
  result(): WorkflowResult | null {
    if (!existsSync(join(this.dir, 'result.json'))) return null;
    return this.readJson('result.json', resultShape) as unknown as WorkflowResult;
  }

  /** Plan, events and result, each checked: the first problem found is WORKFLOW_CORRUPT. */
  read(): WorkflowState {
    return { plan: this.plan(), events: this.events(), result: this.result() };
  }

  /** Takes this workflow's lock (one owner at a time), or throws WORKFLOW_BUSY naming its owner. */
  lock(): WorkflowLock {
    return acquireWorkflowLock(this.dir, this.id, this.now);
  }

  /** The live process holding this workflow's lock, or null. */
  owner(): LockOwner | null {
    return lockOwner(this.dir);
  }

  /** The file's text, null when it is missing; WORKFLOW_CORRUPT when it cannot be read (a folder, no permission). */
  private readText(file: string): string | null {
    try {
      return readOrNull(file);
    } catch (error) {
      throw engineErrors.corrupt(this.id, file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }

  private readJson(name: string, shape: v.GenericSchema): unknown {
    const file = join(this.dir, name);
    const text = this.readText(file);
    if (text === null) throw engineErrors.corrupt(this.id, file, 'missing');
    if (!text.trim()) throw engineErrors.corrupt(this.id, file, 'empty (written only in part?)');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw engineErrors.corrupt(this.id, file, `not JSON (${(error as Error).message})`);
    }
    const parsed = v.safeParse(shape, value);
    if (!parsed.success) throw engineErrors.corrupt(this.id, file, `not what the engine wrote (${describeIssue(parsed.issues)})`);
    return parsed.output;
  }
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A line cut short by a kill (no newline after it) is dropped before the next append, which
 * would otherwise run on from it and spoil both lines.
 */
function dropCutTail(file: string): void {
  const text = readOrNull(file);
  if (!text || text.endsWith('\n')) return;
  const kept = text.slice(0, text.lastIndexOf('\n') + 1);
  if (isJson(text.slice(kept.length))) appendFileSync(file, '\n');
  else truncateSync(file, Buffer.byteLength(kept));
}

/** Every workflow recorded in the repository, newest first by its first event. */
export function listWorkflowIds(repoRoot: string): string[] {
  const dir = workflowsDir(repoRoot);
  if (!existsSync(dir)) return [];
  const ids = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'plan.json')))
    .map((e) => e.name);
  const started = (id: string) => {
    try {
      return readOrNull(join(dir, id, 'events.jsonl'))?.slice(0, 40).match(/"ts":"([^"]+)"/)?.[1] ?? '';
    } catch {
      return ''; // unreadable: `workflow list` shows it as corrupt
    }
  };
  return ids.map((id) => ({ id, at: started(id) })).sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id)).map((e) => e.id);
}
