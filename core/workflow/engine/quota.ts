/**
 * Quota and rate limits pause the workflow; they do not fail its tasks. When a run ends on one
 * (HTTP 429, a CLI's quota or usage-limit message) after `run`'s own retries, no new run starts
 * until the reset time the CLI printed (retry-after, "try again in ...") or else an exponential
 * backoff; the run is then tried again. Past the quota wait (--quota-wait) the workflow ends
 * `stopped` with the reason, resumable.
 */
import { systemClock } from './clock.ts';
import type { RunResult } from '../../run/run-role.ts';

export const DEFAULT_QUOTA_WAIT_MS = 5 * 60 * 1000;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;

export interface QuotaPause {
  /** No run starts before this time (epoch ms); 0: not paused. */
  until: number;
  /** When the current streak of quota failures began (epoch ms); null: none. */
  since: number | null;
  /** Waits in the current streak (for the backoff). */
  waits: number;
  /** What the CLI said, for the notices and the stop reason. */
  detail: string;
}

export function noPause(): QuotaPause {
  return { until: 0, since: null, waits: 0, detail: '' };
}

const QUOTA_TEXT = /\b429\b|rate[ -]?limit|quota|usage limit|too many requests|resource[_ ]exhausted/i;

/** True when the run ended on a quota or rate limit. */
export function isQuotaFailure(result: RunResult): boolean {
  const failure = result.failure;
  if (!failure) return false;
  if (failure.http_status === 429) return true;
  return (failure.class === 'api_error' || failure.class === 'nonzero_exit') && QUOTA_TEXT.test(failure.detail);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, second: 1000, seconds: 1000, m: 60_000, min: 60_000, minute: 60_000, minutes: 60_000, h: 3_600_000, hour: 3_600_000, hours: 3_600_000 };

/**
 * The wait the CLI asked for, in ms from `now`: `retry-after: 30`, `retry after 2 minutes`,
 * `try again in 5m`, or claude's `usage limit reached|<reset, epoch seconds>`; null when it says none.
 */
export function learnedWaitMs(detail: string, now: number = systemClock.now()): number | null {
  const reset = detail.match(/limit reached\|(\d{10})\b/i);
  if (reset) return Math.max(0, Number(reset[1]) * 1000 - now);
  const match = detail.match(/(?:retry[- ]after|try again in)[:\s]+(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?|h|hours?)?\b/i);
  if (!match) return null;
  return Math.round(Number(match[1]) * (UNIT_MS[(match[2] ?? 's').toLowerCase()] ?? 1000));
}

/**
 * The pause after a quota failure at `now`: until the learned reset, else the next backoff.
 * Null when that would go past the quota wait: the workflow stops instead.
 */
export function nextPause(pause: QuotaPause, detail: string, now: number, quotaWaitMs: number): QuotaPause | null {
  const since = pause.since ?? now;
  // The backoff is a floor: a CLI saying `retry-after: 0` would otherwise have us call it in a tight loop.
  const floor = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** pause.waits);
  const wait = Math.max(floor, learnedWaitMs(detail, now) ?? 0);
  const until = Math.max(pause.until, now + wait);
  if (until - since > quotaWaitMs) return null;
  return { until, since, waits: pause.waits + 1, detail };
}

/** Parses `--quota-wait`: `90`, `90s`, `5m`, `1h`, `500ms`. */
export function parseDuration(text: string): number | null {
  const match = text.trim().match(/^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/i);
  if (!match) return null;
  return Math.round(Number(match[1]) * (UNIT_MS[(match[2] ?? 's').toLowerCase()] ?? 1000));
}
