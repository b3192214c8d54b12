/**
 * Money. Costs are added up in integer micro-dollars so sums carry no float noise
 * (0.1 + 0.0599 is 0.1599, not 0.15990000000000001); JSON shows dollars rounded to the
 * micro-dollar (at most six decimals, exact as written); people see dollars to the cent's
 * hundredth (`$0.1599`).
 */

/** Dollars → integer micro-dollars (rounded to the nearest). */
export function toMicros(usd: number): number {
  return Math.round(usd * 1e6);
}

/** Integer micro-dollars → dollars, exact to six decimals in JSON. */
export function fromMicros(micros: number): number {
  return Math.round(micros) / 1e6;
}

/** Dollars rounded to the micro-dollar: what JSON carries. */
export function roundUsd(usd: number): number {
  return fromMicros(toMicros(usd));
}

/** The sum of dollar amounts, added in micro-dollars. */
export function sumUsd(amounts: Iterable<number>): number {
  let micros = 0;
  for (const amount of amounts) micros += toMicros(amount);
  return fromMicros(micros);
}

/** `$0.1599` for a person: four decimals, the cent's hundredth. */
export function formatUsd(usd: number): string {
  return `$${(Math.round(usd * 1e4) / 1e4).toFixed(4)}`;
}
