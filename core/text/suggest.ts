/** "Did you mean" hints for misspelt names (role fields, output schemas, templates). */
import { nameList } from '../text/name-list.ts';

/** Edit distance counting a swap of neighbours as one edit ("reveiw" is one edit from "review"). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** At most this many names are suggested; the rest are counted ("and 1495 more"). */
const SHOWN = 5;

/** '; did you mean "x"?' for the known names close to `given` (closest first), or "" when none is. */
export function suggest(given: string, known: string[]): string {
  const lower = given.toLowerCase();
  // Longer names allow more edits ("max_retry" is three from "max_retries"); short ones few, so "bogus" is not "roles".
  const close = [...new Set(known)]
    .map((name, order) => ({ name, order, d: distance(lower, name) }))
    .filter(({ name, d }) => d <= (name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3))
    .sort((a, b) => a.d - b.d || a.order - b.order)
    .map(({ name }) => `"${name}"`);
  if (!close.length) return '';
  return close.length <= SHOWN ? `; did you mean ${close.join(' or ')}?` : `; did you mean one of ${nameList(close, SHOWN)}?`;
}
