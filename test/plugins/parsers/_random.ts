/** A small seeded PRNG (mulberry32) and text generators for property tests: same seed, same inputs. */
export interface Random {
  next(): number;
  int(max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return { next, int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}

/** Characters that matter to the parsers, weighted towards the troublesome ones. */
const ALPHABET = [...'`````~~~   \t\n\n\r{}[]"\\:,;.-_/*+#abcdefxyz0129', 'json', 'role', 'status', '\u0000', '\ufeff', '\ud800', 'é', '✓', '..'];

export function randomText(random: Random, maxLength: number): string {
  const length = random.int(maxLength);
  let out = '';
  for (let i = 0; i < length; i++) out += random.pick(ALPHABET);
  return out;
}

/** Replaces, inserts or deletes a few characters (or a chunk) of a text. */
export function mutate(random: Random, text: string, edits = 1 + random.int(4)): string {
  let out = text;
  for (let e = 0; e < edits; e++) {
    const at = random.int(out.length + 1);
    const kind = random.int(4);
    if (kind === 0) out = out.slice(0, at) + random.pick(ALPHABET) + out.slice(at + 1);
    else if (kind === 1) out = out.slice(0, at) + random.pick(ALPHABET) + out.slice(at);
    else if (kind === 2) out = out.slice(0, at) + out.slice(at + 1 + random.int(8));
    else out = out.slice(0, at) + out.slice(random.int(out.length + 1)) ;
  }
  return out;
}

/** Runs body with a fresh random source until the budget runs out; returns how many runs. */
export function forAWhile(seed: number, budgetMs: number, maxRuns: number, body: (random: Random, run: number) => void): number {
  const random = seededRandom(seed);
  const end = Date.now() + budgetMs;
  let run = 0;
  while (run < maxRuns && Date.now() < end) body(random, run++);
  return run;
}
