/**
 * The loop behind `runs tail -f` and `workflow logs -f`: every `pollMs`, prints what a follower
 * read since its last poll, until what it follows ends or Ctrl-C.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { EXIT } from '../errors.ts';
import type { CliDeps } from '../command/deps.ts';

/** Something read as it grows: each poll returns only what appeared since the last one. */
export interface Followed<T> {
  /** New whole lines' items; with `flush`, the partial last lines too. */
  poll(flush?: boolean): T[];
}

export interface FollowOptions<T> {
  pollMs: number;
  /** Ctrl-C (and SIGHUP, SIGTERM) stop the following: the command's `ctx.deps.onInterrupt`. */
  onInterrupt: CliDeps['onInterrupt'];
  print: (items: T[]) => void;
  /**
   * Whether the writer may still write. Read before each poll: what it wrote before it stopped
   * is then read by that poll, so nothing written last is missed.
   */
  writing: () => boolean;
  /** Whether what was read so far shows the end (a `run_finished` event); read after each poll. */
  ended?: () => boolean;
}

/**
 * Follows `source` until it ends (EXIT.ok) or Ctrl-C (EXIT.interrupted). Either way what is left,
 * partial lines included, is printed before returning.
 */
export async function followUntilEnd<T>(source: Followed<T>, options: FollowOptions<T>): Promise<number> {
  const stop = new AbortController();
  const stopListening = options.onInterrupt(() => stop.abort());
  try {
    for (;;) {
      const writing = options.writing();
      options.print(source.poll());
      if (options.ended?.() || !writing) {
        options.print(source.poll(true));
        return EXIT.ok;
      }
      await sleep(options.pollMs, undefined, { signal: stop.signal }).catch(() => {});
      if (stop.signal.aborted) {
        options.print(source.poll(true));
        return EXIT.interrupted;
      }
    }
  } finally {
    stopListening();
  }
}
