/** Reading JSON out of CLI output: one document, JSON Lines, or the last {...} block in noise. */

/** Parses JSON, or returns undefined. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every line of `text` that is a JSON object, in order; other lines are skipped. */
export function jsonLines(text: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    const value = parseJson(trimmed);
    if (isObject(value)) out.push(value);
  }
  return out;
}

/**
 * The last balanced `{...}` block of `text` that parses as a JSON object. Gemini prints its
 * fatal error as pretty-printed JSON on stderr among warnings and stack traces.
 *
 * Linear in the length of `text` (stderr may be tens of MiB of hostile noise): one backward
 * pass pairs each `}` with its `{` through a stack, then blocks are tried from the last `}` on,
 * and JSON.parse work stops after a few times the text's length.
 */
export function lastJsonBlock(text: string): JsonObject | undefined {
  const openOf = new Map<number, number>();
  const closes: number[] = [];
  for (let i = text.length - 1; i >= 0; i--) {
    const ch = text.charCodeAt(i);
    if (ch === 0x7d /* } */) closes.push(i);
    else if (ch === 0x7b /* { */ && closes.length) openOf.set(closes.pop()!, i);
  }
  let budget = 4 * text.length + 1024;
  const opensObject = /\{\s*["}]/y;
  for (const end of [...openOf.keys()].sort((a, b) => b - a)) {
    const start = openOf.get(end)!;
    // Only `{` then a key or `}` can open an object: skips most noise without parsing it.
    opensObject.lastIndex = start;
    if (!opensObject.test(text)) continue;
    budget -= end - start + 1;
    if (budget < 0) break;
    const value = parseJson(text.slice(start, end + 1));
    if (isObject(value)) return value;
  }
  return undefined;
}

/**
 * The line worth showing a person: the last one that mentions an error, else the last one;
 * never blank, a stack frame or a whole JSON line; at most 300 characters.
 */
export function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trim())
    // Stack frames, lone braces and whole JSON lines are not messages for a person.
    .filter((l) => l && !/^at\s/.test(l) && !/^[[{].*[}\]]$/.test(l) && l !== '}' && l !== '{');
  const line = lines.filter((l) => /\berror\b/i.test(l)).pop() ?? lines[lines.length - 1] ?? '';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** Collapses whitespace and cuts a message to one readable line. */
export function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
