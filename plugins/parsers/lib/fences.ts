/**
 * Finds fenced code blocks by CommonMark's rules, in one pass over the lines (linear time, no
 * regular expressions that can backtrack): an opening fence is up to 3 spaces, then 3 or more
 * backticks or tildes, then an info string (no backticks in it for a backtick fence); the block
 * ends at a line of up to 3 spaces, at least as many of the same character and only blanks
 * after, or at the end of the text. Lines end in "\n" or "\r\n". Container blocks (lists,
 * block quotes) are not modelled: a fence indented 4 spaces or more is not a fence.
 */

export interface FencedBlock {
  /** First word of the info string, e.g. "json" (may be ""). */
  lang: string;
  /** Offset of the first content character (the line after the opening fence). */
  contentStart: number;
  /** Offset just past the content (the start of the closing fence line, or the text's end). */
  contentEnd: number;
  /** 1-based line number of the opening fence. */
  openLine: number;
  /** False when the text ended before a closing fence. */
  closed: boolean;
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const BACKTICK = 96;
const TILDE = 126;

interface OpenFence {
  char: number;
  length: number;
  lang: string;
  contentStart: number;
  openLine: number;
}

/** Index after up to 3 leading spaces, or -1 when the line is indented 4 or more. */
function afterIndent(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && i - start < 4 && text.charCodeAt(i) === SPACE) i++;
  return i - start > 3 ? -1 : i;
}

function runEnd(text: string, start: number, end: number, char: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === char) i++;
  return i;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** The opening fence on this line, if it is one; the info string is read without copying the line. */
function openingFence(text: string, start: number, end: number, line: number, next: number): OpenFence | undefined {
  const i = afterIndent(text, start, end);
  if (i < 0) return undefined;
  const char = text.charCodeAt(i);
  if (char !== BACKTICK && char !== TILDE) return undefined;
  const j = runEnd(text, i, end, char);
  if (j - i < 3) return undefined;
  if (char === BACKTICK) {
    for (let k = j; k < end; k++) if (text.charCodeAt(k) === BACKTICK) return undefined;
  }
  let langStart = j;
  while (langStart < end && isBlank(text.charCodeAt(langStart))) langStart++;
  let langEnd = langStart;
  while (langEnd < end && !isBlank(text.charCodeAt(langEnd))) langEnd++;
  return { char, length: j - i, lang: text.slice(langStart, langEnd), contentStart: next, openLine: line };
}

function isClosingFence(text: string, start: number, end: number, open: OpenFence): boolean {
  const i = afterIndent(text, start, end);
  if (i < 0 || text.charCodeAt(i) !== open.char) return false;
  let j = runEnd(text, i, end, open.char);
  if (j - i < open.length) return false;
  while (j < end && isBlank(text.charCodeAt(j))) j++;
  return j === end;
}

/** Calls visit for every fenced block of the text, in order. */
export function scanFencedBlocks(text: string, visit: (block: FencedBlock) => void): void {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let open: OpenFence | undefined;
  for (;;) {
    const newline = text.indexOf('\n', pos);
    const end = newline < 0 ? text.length : newline;
    const lineEnd = end > pos && text.charCodeAt(end - 1) === CR ? end - 1 : end;
    if (open) {
      if (isClosingFence(text, pos, lineEnd, open)) {
        visit({ lang: open.lang, contentStart: open.contentStart, contentEnd: pos, openLine: open.openLine, closed: true });
        open = undefined;
      }
    } else {
      open = openingFence(text, pos, lineEnd, line, newline < 0 ? text.length : newline + 1);
    }
    if (newline < 0) break;
    pos = newline + 1;
    line++;
  }
  if (open) visit({ lang: open.lang, contentStart: open.contentStart, contentEnd: text.length, openLine: open.openLine, closed: false });
}
