/**
 * The run log, one folder per run: `events.jsonl` (one JSON object per line, appended and
 * handed to the OS as each event happens, so a crash or Ctrl-C keeps everything already
 * done), `prompt.md`, `attempt-N.stdout` / `.stderr`, and `result.json`.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../fs/atomic-file.ts';

/** Every kind of event the engine records, in the order a run usually meets them. */
export const EVENT_KINDS = [
  'run_started',
  'workspace_ready',
  'setup',
  'prompt_built',
  'attempt_started',
  'cli_started',
  'cli_exited',
  'cli_failed',
  'parsed',
  'parse_failed',
  'gate_passed',
  'gate_failed',
  'retry',
  'stopped',
  'committed',
  'workspace_removed',
  'refs_created',
  'sandbox_refused',
  'notice',
  'interrupted',
  'run_finished',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface RunEvent {
  ts: string;
  kind: EventKind;
  [key: string]: unknown;
}

/** Runs a file operation; a system error without a path (a failed write on a descriptor) is given the file's. */
function withPath(file: string, operation: () => void): void {
  try {
    operation();
  } catch (error) {
    const errno = error as NodeJS.ErrnoException;
    if (errno instanceof Error && typeof errno.code === 'string' && errno.path === undefined) errno.path = file;
    throw error;
  }
}

/**
 * Creates the run folder. Its parent usually exists: a plain mkdir then reports the true cause
 * of a failure (EROFS), where a recursive one can report ENOENT for a read-only parent.
 */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
  }
}

export class RunLog {
  readonly dir: string;
  readonly eventsFile: string;
  private readonly now: () => Date;
  private readonly listener: ((event: RunEvent) => void) | undefined;

  constructor(dir: string, now: () => Date, listener?: (event: RunEvent) => void) {
    this.dir = dir;
    this.eventsFile = join(dir, 'events.jsonl');
    this.now = now;
    this.listener = listener;
    makeFolder(dir);
  }

  /** Appends one event line; the write is synchronous so it is on disk before we go on. */
  event(kind: EventKind, data: Record<string, unknown> = {}): RunEvent {
    const event: RunEvent = { ts: this.now().toISOString(), kind, ...data };
    withPath(this.eventsFile, () => appendFileSync(this.eventsFile, `${JSON.stringify(event)}\n`));
    this.listener?.(event);
    return event;
  }

  /** Writes a file in the run folder (prompt, raw output); returns its path. */
  write(name: string, content: string): string {
    const file = join(this.dir, name);
    withPath(file, () => writeFileSync(file, content));
    return file;
  }

  /** Writes a state file other commands read back (result.json): whole or not at all, never half. */
  writeJson(name: string, value: unknown): string {
    const file = join(this.dir, name);
    withPath(file, () => writeJsonAtomic(file, value));
    return file;
  }

  /** The path of a file in the run folder (for writers that stream into it). */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** A folder inside the run folder (per-attempt scratch space). */
  folder(name: string): string {
    const dir = join(this.dir, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }
}

/** The events of a run folder, read back; a line cut by a crash is skipped. */
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
