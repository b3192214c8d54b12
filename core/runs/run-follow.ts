/**
 * Reads a run folder as it grows, for `supervisor runs tail`: new events, and new lines of each
 * attempt's stdout and stderr (written as they arrive, see runProcess teeFiles). Each call to
 * `poll()` returns only what appeared since the last one.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../run/run-log.ts';

export type FollowItem =
  | { kind: 'event'; event: RunEvent }
  | { kind: 'output'; attempt: number; stream: 'stdout' | 'stderr'; text: string };

const OUTPUT_FILE = /^attempt-(\d+)\.(stdout|stderr)$/;

/** The bytes of a file from `offset` on (files only grow while a run writes them). */
function readFrom(file: string, offset: number): Buffer {
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size <= offset) return Buffer.alloc(0);
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(size - offset);
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

export class RunFollower {
  private readonly dir: string;
  private readonly offsets = new Map<string, number>();
  private readonly partial = new Map<string, Buffer>();
  finished = false;

  constructor(runDir: string) {
    this.dir = runDir;
  }

  /**
   * What appeared since the last call: events, then output, whole lines only unless `flush`. A
   * run's output is all written before it finishes, so output read in the same call as
   * `run_finished` is placed before that event.
   */
  poll(flush = false): FollowItem[] {
    const events = this.events(flush);
    const end = events.findIndex((item) => item.kind === 'event' && item.event.kind === 'run_finished');
    const outputs = this.outputs(flush);
    return end < 0 ? [...events, ...outputs] : [...events.slice(0, end), ...outputs, ...events.slice(end)];
  }

  private events(flush: boolean): FollowItem[] {
    const items: FollowItem[] = [];
    for (const line of this.lines('events.jsonl', flush)) {
      try {
        const event = JSON.parse(line) as RunEvent;
        if (event.kind === 'run_finished') this.finished = true;
        items.push({ kind: 'event', event });
      } catch {
        // a line cut by a crash: skipped, as runs show does
      }
    }
    return items;
  }

  private outputs(flush: boolean): FollowItem[] {
    const items: FollowItem[] = [];
    if (!existsSync(this.dir)) return items;
    const outputs = readdirSync(this.dir)
      .map((name) => ({ name, match: OUTPUT_FILE.exec(name) }))
      .filter((f) => f.match)
      .sort((a, b) => Number(a.match![1]) - Number(b.match![1]) || a.name.localeCompare(b.name));
    for (const { name, match } of outputs) {
      const text = this.lines(name, flush).join('\n');
      if (text) items.push({ kind: 'output', attempt: Number(match![1]), stream: match![2] as 'stdout' | 'stderr', text });
    }
    return items;
  }

  /** New complete lines of a file in the run folder (and the rest when flushing). */
  private lines(name: string, flush: boolean): string[] {
    const file = join(this.dir, name);
    const offset = this.offsets.get(name) ?? 0;
    const fresh = readFrom(file, offset);
    this.offsets.set(name, offset + fresh.length);
    const pending = Buffer.concat([this.partial.get(name) ?? Buffer.alloc(0), fresh]);
    const end = flush ? pending.length : pending.lastIndexOf(0x0a) + 1;
    this.partial.set(name, pending.subarray(end));
    if (end === 0) return [];
    const text = pending.subarray(0, end).toString('utf8');
    return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  }
}
