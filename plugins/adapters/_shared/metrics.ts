/** Small helpers for filling Metrics from envelopes: unknown stays null, never a made-up 0. */

/** A finite, non-negative number, or null. */
export function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Sum of the known values; null when none is known. */
export function sum(values: Iterable<number | null | undefined>): number | null {
  let total: number | null = null;
  for (const value of values) if (typeof value === 'number') total = (total ?? 0) + value;
  return total;
}

/** A non-empty string, or null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
