/**
 * Where JSON text goes wrong, for error messages: JSON.parse on Node 20 often says neither
 * where nor why. One iterative pass (no recursion, so deep nesting cannot overflow the stack).
 */

export interface JsonSyntaxError {
  /** Offset into the checked text. */
  offset: number;
  message: string;
}

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Returns the first syntax error of a JSON text (RFC 8259), or null when it is valid JSON. */
export function findJsonSyntaxError(src: string): JsonSyntaxError | null {
  const n = src.length;
  const stack: number[] = []; // '{' or '[' of each open container
  let i = 0;
  const fail = (offset: number, message: string): JsonSyntaxError => ({ offset, message });
  const found = (at: number) => (at >= n ? 'the end of the block' : JSON.stringify(src[at]));
  const skipSpace = () => {
    while (i < n && isSpace(src.charCodeAt(i))) i++;
  };

  const readString = (): JsonSyntaxError | null => {
    const start = i++;
    while (i < n) {
      const c = src.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        return null;
      }
      if (c < 0x20) return fail(i, 'a raw control character (such as a line break) inside a string; escape it');
      if (c === BACKSLASH) {
        const e = src.charCodeAt(i + 1);
        if (e === 117 /* u */) {
          for (let k = 2; k < 6; k++) if (!isHex(src.charCodeAt(i + k))) return fail(i, 'a \\u escape needs 4 hex digits');
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(src[i + 1] ?? 'x')) return fail(i, `invalid escape ${JSON.stringify(src.slice(i, i + 2))} in a string`);
        i += 2;
        continue;
      }
      i++;
    }
    return fail(start, 'a string that is never closed');
  };

  const readNumber = (): JsonSyntaxError | null => {
    const start = i;
    if (src.charCodeAt(i) === 45) i++;
    if (src.charCodeAt(i) === 48) i++;
    else if (isDigit(src.charCodeAt(i))) while (isDigit(src.charCodeAt(i))) i++;
    else return fail(start, 'an invalid number');
    if (src.charCodeAt(i) === 46) {
      i++;
      if (!isDigit(src.charCodeAt(i))) return fail(i, 'a number needs digits after the decimal point');
      while (isDigit(src.charCodeAt(i))) i++;
    }
    if (src.charCodeAt(i) === 101 || src.charCodeAt(i) === 69) {
      i++;
      if (src.charCodeAt(i) === 43 || src.charCodeAt(i) === 45) i++;
      if (!isDigit(src.charCodeAt(i))) return fail(i, 'a number needs digits in its exponent');
      while (isDigit(src.charCodeAt(i))) i++;
    }
    if (isDigit(src.charCodeAt(i))) return fail(start, 'a number with a leading zero');
    return null;
  };

  // Reads a property name and its colon; i is at the name.
  const readKey = (): JsonSyntaxError | null => {
    const c = src.charCodeAt(i);
    if (c !== QUOTE) {
      if (c === 39) return fail(i, 'property names must use double quotes, not single quotes');
      return fail(i, `expected a property name in double quotes, found ${found(i)}`);
    }
    const bad = readString();
    if (bad) return bad;
    skipSpace();
    if (src.charCodeAt(i) !== 58) return fail(i, `expected ':' after the property name, found ${found(i)}`);
    i++;
    return null;
  };

  // Reads one scalar, or opens a container; returns true when a container was opened.
  const readValue = (): JsonSyntaxError | true | null => {
    skipSpace();
    const c = src.charCodeAt(i);
    if (i >= n) return fail(i, 'unexpected end of the block: a value is missing');
    if (c === 123 || c === 91) {
      i++;
      skipSpace();
      if (src.charCodeAt(i) === (c === 123 ? 125 : 93)) {
        i++;
        return null;
      }
      stack.push(c);
      if (c === 123) return readKey() ?? true;
      return true;
    }
    if (c === QUOTE) return readString();
    if (c === 45 || isDigit(c)) return readNumber();
    for (const word of ['true', 'false', 'null']) {
      if (src.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    if (/[A-Za-z]/.test(src[i] ?? '')) {
      const word = /^[A-Za-z]{1,40}/.exec(src.slice(i, i + 40))?.[0] ?? '';
      return fail(i, `unexpected word ${JSON.stringify(word)}: JSON allows only true, false and null`);
    }
    if (c === 39) return fail(i, 'strings must use double quotes, not single quotes');
    if (c === 47) return fail(i, 'comments are not allowed in JSON');
    return fail(i, `unexpected ${found(i)} where a value should be`);
  };

  for (;;) {
    const value = readValue();
    if (value === true) continue; // a container opened: read its first value
    if (value) return value;
    // after a complete value: close containers or move to the next element
    for (;;) {
      skipSpace();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? fail(i, `unexpected ${found(i)} after the end of the JSON value`) : null;
      const close = top === 123 ? 125 : 93;
      const c = src.charCodeAt(i);
      if (c === close) {
        stack.pop();
        i++;
        continue;
      }
      if (c !== 44) return fail(i, `expected ',' or '${String.fromCharCode(close)}', found ${found(i)}`);
      const comma = i++;
      skipSpace();
      if (src.charCodeAt(i) === close) return fail(comma, `a trailing comma before '${String.fromCharCode(close)}'`);
      if (top === 123) {
        const bad = readKey();
        if (bad) return bad;
      }
      break;
    }
  }
}

/** Offset of the first bracket nested deeper than limit, or -1. Strings are skipped. */
export function tooDeepAt(src: string, limit: number): number {
  if (src.length <= limit) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}
