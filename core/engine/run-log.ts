/**
 * The run log, one folder per run: `events.jsonl` (one JSON object per line, appended and
 * handed to the OS as each event happens, so a crash or Ctrl-C keeps everything already
 * done), `prompt.md`, `attempt-N.stdout` / `.stderr`, and `result.json`.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every kind of event the engine records, in the order a run usually meets them. */
export const EVENT_KINDS = [
  'run_started',
  'workspace_ready',
  'prompt_built',
  'attempt_started',
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
    mkdirSync(dir, { recursive: true });
  }

  /** Appends one event line; the write is synchronous so it is on disk before we go on. */
  event(kind: EventKind, data: Record<string, unknown> = {}): RunEvent {
    const event: RunEvent = { ts: this.now().toISOString(), kind, ...data };
    appendFileSync(this.eventsFile, `${JSON.stringify(event)}\n`);
    this.listener?.(event);
    return event;
  }

  /** Writes a file in the run folder (prompt, raw output); returns its path. */
  write(name: string, content: string): string {
    const file = join(this.dir, name);
    writeFileSync(file, content);
    return file;
  }

  /** A folder inside the run folder (per-attempt scratch space). */
  folder(name: string): string {
    const dir = join(this.dir, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }
}
