// Go (RE2) regular expressions → JavaScript ones, for gitleaks' rules (see convert-gitleaks.mjs).
// Node 20's RegExp has no inline flags, so a case-insensitive part of a pattern that is not
// case-insensitive as a whole is spelled out: each letter as [aA], each class with both cases.
// What cannot be expressed throws UnsupportedRegex with the reason; the caller lists it.

export class UnsupportedRegex extends Error {}

const POSIX = {
  alnum: 'A-Za-z0-9', alpha: 'A-Za-z', digit: '0-9', xdigit: '0-9A-Fa-f', upper: 'A-Z', lower: 'a-z',
  space: '\\t\\n\\v\\f\\r ', word: '\\w', blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', cntrl: '\\x00-\\x1f\\x7f',
};

const isLetter = (c) => /^[A-Za-z]$/.test(c);
const bothCases = (c) => (isLetter(c) ? `${c.toLowerCase()}${c.toUpperCase()}` : c);

/** A class body's items: literal characters, escapes, ranges, POSIX names. */
function convertClass(src, start, caseless) {
  let i = start + 1;
  let out = '[';
  if (src[i] === '^') { out += '^'; i++; }
  let first = true;
  const extra = [];
  while (i < src.length && (src[i] !== ']' || first)) {
    first = false;
    if (src.startsWith('[:', i)) {
      const end = src.indexOf(':]', i + 2);
      const name = src.slice(i + 2, end);
      if (end < 0 || !(name in POSIX)) throw new UnsupportedRegex(`POSIX class [:${name}:]`);
      out += POSIX[name];
      i = end + 2;
      continue;
    }
    let item;
    if (src[i] === '\\') {
      const e = src[i + 1];
      if ('pPQCz'.includes(e)) throw new UnsupportedRegex(`\\${e} in a class`);
      if (e === 'x' && src[i + 2] === '{') throw new UnsupportedRegex('\\x{...}');
      item = src.slice(i, i + 2);
      if (e === 'x') item = src.slice(i, i + 4);
      i += item.length;
    } else if (src[i] === '[') {
      item = '\\[';
      i++;
    } else {
      item = src[i];
      i++;
    }
    if (src[i] === '-' && src[i + 1] !== ']' && src[i + 1] !== undefined) {
      let hi = src[i + 1];
      let hiLen = 1;
      if (hi === '\\') { hi = src.slice(i + 1, i + 3); hiLen = 2; if (hi === '\\x') { hi = src.slice(i + 1, i + 5); hiLen = 4; } }
      out += `${item}-${hi}`;
      if (caseless && item.length === 1 && hi.length === 1) {
        const [lo, up] = [item.charCodeAt(0), hi.charCodeAt(0)];
        const fold = (a, b, shift) => { const l = Math.max(lo, a), h = Math.min(up, b); if (l <= h) extra.push(`${String.fromCharCode(l + shift)}-${String.fromCharCode(h + shift)}`); };
        fold(97, 122, -32);
        fold(65, 90, 32);
      }
      i += 1 + hiLen;
      continue;
    }
    out += caseless && item.length === 1 ? bothCases(item) : item;
  }
  if (src[i] !== ']') throw new UnsupportedRegex('unterminated class');
  return { text: `${out}${extra.join('')}]`, end: i + 1 };
}

/** Parses "(?flags)" or "(?flags:" at i; returns the flags turned on and off and where it ends. */
function readFlags(src, i) {
  const m = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(src.slice(i));
  if (!m) return undefined;
  for (const f of (m[1] + (m[2] ?? ''))) if (!'is'.includes(f)) throw new UnsupportedRegex(`flag ${f}`);
  return { on: m[1], off: m[2] ?? '', scoped: m[3] === ':', end: i + m[0].length };
}

/**
 * `{ source, flags }` for JavaScript's RegExp, matching what Go's regexp matches for `src`
 * (ASCII case folding only; `.` excludes "\n" only, as Go's does).
 */
export function convertGoRegex(src) {
  let body = src;
  let globalCaseless = false;
  if (body.startsWith('(?i)') && !/\(\?[a-z]*-[a-z]*i/.test(body)) {
    globalCaseless = true;
    body = body.slice(4);
  }
  const stack = [];
  let state = { caseless: globalCaseless, dotall: false };
  let out = '';
  for (let i = 0; i < body.length; ) {
    const c = body[i];
    if (c === '\\') {
      const e = body[i + 1];
      if (e === undefined) throw new UnsupportedRegex('trailing backslash');
      if ('pPQCE'.includes(e)) throw new UnsupportedRegex(`\\${e}`);
      if (e === 'x' && body[i + 2] === '{') throw new UnsupportedRegex('\\x{...}');
      if (e === 'z') out += '(?![\\s\\S])';
      else if (e === 'A') out += '(?<![\\s\\S])';
      else if (/[1-9]/.test(e)) throw new UnsupportedRegex('backreference');
      else out += body.slice(i, e === 'x' ? i + 4 : i + 2);
      i += e === 'x' ? 4 : 2;
    } else if (c === '[') {
      const cls = convertClass(body, i, state.caseless && !globalCaseless);
      out += cls.text;
      i = cls.end;
    } else if (c === '(') {
      if (body.startsWith('(?P<', i) || body.startsWith('(?<', i)) {
        const at = body.indexOf('<', i);
        stack.push(state);
        state = { ...state };
        out += '(?<';
        i = at + 1;
        continue;
      }
      const flags = body[i + 1] === '?' && body[i + 2] !== ':' ? readFlags(body, i) : undefined;
      if (flags) {
        const next = { ...state };
        if (flags.on.includes('i')) next.caseless = true;
        if (flags.off.includes('i')) next.caseless = false;
        if (flags.on.includes('s')) next.dotall = true;
        if (flags.off.includes('s')) next.dotall = false;
        if (globalCaseless && !next.caseless) throw new UnsupportedRegex('(?-i) inside (?i)');
        if (flags.scoped) { stack.push(state); out += '(?:'; }
        state = next;
        i = flags.end;
      } else {
        stack.push(state);
        state = { ...state };
        out += body.startsWith('(?:', i) ? '(?:' : '(';
        i += body.startsWith('(?:', i) ? 3 : 1;
      }
    } else if (c === ')') {
      if (!stack.length) throw new UnsupportedRegex('unbalanced )');
      state = stack.pop();
      out += ')';
      i++;
    } else if (c === '.') {
      out += state.dotall ? '[\\s\\S]' : '[^\\n]';
      i++;
    } else {
      out += state.caseless && !globalCaseless && isLetter(c) ? `[${bothCases(c)}]` : c;
      i++;
    }
  }
  if (stack.length) throw new UnsupportedRegex('unbalanced (');
  const flags = globalCaseless ? 'i' : '';
  try {
    new RegExp(out, flags);
  } catch (error) {
    throw new UnsupportedRegex(`JavaScript refuses it: ${error.message}`);
  }
  return { source: out, flags };
}
