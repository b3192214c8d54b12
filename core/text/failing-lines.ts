/**
 * What a failing command's output shows a person: its first error line (where a lint or test
 * run says what broke first) and its last lines (the summary), whole lines only, within a size.
 * Not the last N characters: those start mid-line and are often warnings alone.
 */
const ERROR_LINE = /\b(error|errors|failed|failure|fail|not ok|assert(ion)?|exception|panic|traceback)\b|✗|✖/i;

export const FAILING_LINES_CHARS = 2000;
const LAST_LINES = 20;

export function failingLines(output: string, maxChars: number = FAILING_LINES_CHARS): string {
  const lines = output.replace(/\s+$/, '').split('\n');
  const last = fitFromEnd(lines.slice(-LAST_LINES), maxChars);
  const firstError = lines.findIndex((line) => ERROR_LINE.test(line));
  const lastStart = lines.length - last.length;
  if (firstError === -1 || firstError >= lastStart) return withCut(lines.length - last.length, last);
  const head = clipLine(lines[firstError]!, Math.floor(maxChars / 4));
  const room = maxChars - head.length - 40;
  const tail = fitFromEnd(last, room);
  const skipped = lines.length - tail.length - 1;
  return [head, `[... ${skipped} line(s) ...]`, ...tail].join('\n');
}

/** The last lines whose joined length fits `chars` (at least the last one, clipped). */
function fitFromEnd(lines: string[], chars: number): string[] {
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (kept.length && size + line.length + 1 > chars) break;
    kept.unshift(kept.length ? line : clipLine(line, chars));
    size += line.length + 1;
  }
  return kept;
}

function clipLine(line: string, chars: number): string {
  return line.length <= chars ? line : `${line.slice(0, Math.max(0, chars - 3))}...`;
}

function withCut(skipped: number, lines: string[]): string {
  return skipped > 0 ? [`[... ${skipped} line(s) ...]`, ...lines].join('\n') : lines.join('\n');
}
