/**
 * The v2 header grammar: the first line is `role: <one of V2_ROLES>`,
 * then `key: value` lines up to the first blank line, then a free-form body. A line that is not
 * `key: value` before any blank line also starts the body (a model that forgets the blank line
 * still gets its headers read).
 */
import { V2_ROLES, type Violation } from './v2-contract.ts';

const FIRST_LINE = new RegExp(`^role:[ \\t]*(?:${V2_ROLES.join('|')})[ \\t]*$`);
const HEADER_LINE = /^([A-Za-z][A-Za-z0-9_-]*)[ \t]*:[ \t]*(.*)$/;
const EMPTY_LIST = new Set(['', 'none', 'n/a', '-']);
const KNOWN = new Set(['role', 'task_id', 'status', 'git_range', 'files_changed', 'issues', 'confidence']);

/** Text from pos to the end of its line (without "\r\n"), and where the next line starts. */
function lineAt(text: string, pos: number): { line: string; next: number } {
  const nl = text.indexOf('\n', pos);
  const end = nl < 0 ? text.length : nl;
  const line = text.slice(pos, end);
  return { line: line.endsWith('\r') ? line.slice(0, -1) : line, next: nl < 0 ? -1 : nl + 1 };
}

/** Offset of the first line that is not blank (a leading BOM skipped). */
function firstContentLine(text: string): number {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    const { line, next } = lineAt(text, pos);
    if (line.trim() !== '' || next < 0) return pos;
    pos = next;
  }
}

/** True when the text's first non-blank line is a v2 `role:` header. */
export function looksLikeV2(text: string): boolean {
  return FIRST_LINE.test(lineAt(text, firstContentLine(text)).line);
}

function splitList(value: string, separator: string): string[] {
  if (EMPTY_LIST.has(value.trim().toLowerCase())) return [];
  return value.split(separator).map((item) => item.trim()).filter((item) => item !== '');
}

function normalise(key: string, value: string): unknown {
  switch (key) {
    case 'files_changed':
      return splitList(value, ',');
    case 'issues':
      return splitList(value, ';');
    case 'status':
    case 'confidence':
      return value.toLowerCase();
    default:
      return value;
  }
}

/** Reads the headers and body of a text that looksLikeV2(); duplicate headers are violations. */
export function readV2Result(text: string): { result: Record<string, unknown>; violations: Violation[] } {
  const result: Record<string, unknown> = {};
  const extra: Record<string, string> = {};
  const violations: Violation[] = [];
  const seen = new Set<string>();
  let pos = firstContentLine(text);
  let bodyStart = -1;
  while (pos >= 0) {
    const { line, next } = lineAt(text, pos);
    if (line.trim() === '') {
      bodyStart = next;
      break;
    }
    const header = HEADER_LINE.exec(line);
    if (!header) {
      bodyStart = pos;
      break;
    }
    const key = header[1]!.toLowerCase().replaceAll('-', '_');
    const value = header[2]!.trim();
    if (seen.has(key)) violations.push({ pointer: `/${key}`, keyword: 'duplicate', message: `the header ${key} is given more than once` });
    seen.add(key);
    if (!KNOWN.has(key)) extra[key] = value;
    else if (value !== '') result[key] = normalise(key, value);
    pos = next;
  }
  if (Object.keys(extra).length) result.extra_headers = extra;
  result.body = bodyStart < 0 ? '' : text.slice(bodyStart).trim();
  result.grammar = 'v2';
  return { result, violations };
}
