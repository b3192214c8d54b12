/**
 * A unified diff split by file, so that one file's part can be left out (an excluded file, a
 * secret) while the rest is kept. Each file's part starts with `diff --git a/<old> b/<new>`
 * (C-quoted when a path holds odd bytes); when the two paths are the same the header alone
 * names the file, for a rename or copy the `rename from/to` (`copy from/to`) lines do.
 */

export interface DiffFile {
  /** The file's path after the change ("" when it cannot be read). */
  path: string;
  /** Its path before, when it was renamed or copied. */
  from?: string;
  /** The file's part of the diff, from its `diff --git` line up to the next one. */
  text: string;
}

const OCTAL = /^[0-7]{3}/;
const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Git's C-style quoted path (without the quotes) back to the path. */
function unquote(quoted: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < quoted.length; i++) {
    const c = quoted[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const rest = quoted.slice(i + 1);
    if (OCTAL.test(rest)) {
      bytes.push(parseInt(rest.slice(0, 3), 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[rest[0] ?? ''] ?? rest.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path in a `diff --git` header line, or undefined when it cannot be read. */
export function headerPath(line: string): string | undefined {
  const quoted = /^diff --git "a\/(?:[^"\\]|\\.)*" "b\/((?:[^"\\]|\\.)*)"$/.exec(line);
  if (quoted) return unquote(quoted[1]!);
  const rest = line.slice('diff --git a/'.length);
  if (!line.startsWith('diff --git a/') || rest.length < 3 || (rest.length - 3) % 2 !== 0) return undefined;
  const path = rest.slice(0, (rest.length - 3) / 2);
  return rest === `${path} b/${path}` ? path : undefined;
}

/** A path as a `rename to` line or a `+++ b/` line gives it: plain, or C-quoted. */
function linePath(value: string): string {
  return value.startsWith('"') && value.endsWith('"') ? unquote(value.slice(1, -1)) : value;
}

/** The file a part is about: from its header, else from its rename or copy lines. */
function describe(header: string, text: string): Pick<DiffFile, 'path' | 'from'> {
  const same = headerPath(header);
  if (same !== undefined) return { path: same };
  const to = /^(?:rename|copy) to (.+)$/m.exec(text);
  const from = /^(?:rename|copy) from (.+)$/m.exec(text);
  if (to && from) return { path: linePath(to[1]!), from: linePath(from[1]!) };
  return { path: '' };
}

/**
 * The diff by file. Text before the first header (none, from git) and a part whose file cannot
 * be read make a part with the path "" — the caller cannot judge it, so it should leave it out.
 */
export function splitDiff(diff: string): DiffFile[] {
  const files: DiffFile[] = [];
  const starts = [...diff.matchAll(/^diff --git .*$/gm)];
  if (starts.length === 0) return diff.trim() ? [{ path: '', text: diff }] : [];
  if (starts[0]!.index! > 0 && diff.slice(0, starts[0]!.index).trim()) files.push({ path: '', text: diff.slice(0, starts[0]!.index) });
  starts.forEach((match, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index! : diff.length;
    const text = diff.slice(match.index!, end);
    files.push({ ...describe(match[0], text), text });
  });
  return files;
}

/**
 * What to scan for one file's diff: the diff as it is, and its changed and context lines
 * without their "+", "-" or " " column, so a secret spread over lines (a private key) or held
 * in a file's structure (a JSON key file) reads as it does in the file.
 */
export function scanTexts(file: DiffFile): [string, string] {
  const lines = file.text.split('\n').filter((l) => /^[-+ ]/.test(l) && !l.startsWith('+++ ') && !l.startsWith('--- '));
  return [file.text, lines.map((l) => l.slice(1)).join('\n')];
}
