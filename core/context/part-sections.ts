/**
 * A part's text as its files, so the budget can keep a part file by file. Parts rendered by
 * the one renderer (file-section.ts: the core's target files and imports, the glob packer's
 * files) are read back into a head, one section per listed file, and a tail; rebuilding with
 * every section gives the text back byte for byte. A part in any other shape (a diff, repomix
 * output) has no sections: the budget can only cut it as a whole text.
 */
import { renderFence } from '../files/file-section.ts';

export interface FileSectionText {
  path: string;
  /** The section as rendered ("### path\n\n```\n…\n```\n", or the <file> element). */
  text: string;
  /** The file's content inside the section; null for a marker section ("[File exceeds size limit]"). */
  content: string | null;
}

export interface PartSections {
  style: 'markdown' | 'xml';
  head: string;
  sections: FileSectionText[];
  tail: string;
}

/** The separator between sections, as renderUnderHeading and renderFiles join them. */
const SEPARATOR = '\n';

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** "### path\n\n```\n…\n```\n" or "### path\n\n[marker]\n" at `at`; null when the text is not that. */
function markdownSection(text: string, at: number, path: string): { end: number; content: string | null } | null {
  const header = `### ${path}\n\n`;
  if (!text.startsWith(header, at)) return null;
  const body = at + header.length;
  const fence = /^`{3,}/.exec(text.slice(body, body + 64))?.[0];
  if (!fence || text[body + fence.length] !== '\n') {
    const lineEnd = text.indexOf('\n', body);
    return lineEnd === -1 ? null : { end: lineEnd + 1, content: null };
  }
  const start = body + fence.length + 1;
  // The fence is longer than any backtick run that starts a content line: its first line-start
  // match closes it. An empty content renders as "```\n\n```".
  const close = text.indexOf(`\n${fence}\n`, start - 1);
  if (close === -1) return null;
  return { end: close + fence.length + 2, content: text.slice(start, Math.max(start, close)) };
}

function readMarkdown(text: string, files: readonly string[]): PartSections | null {
  const first = text.indexOf(`### ${files[0]}\n\n`);
  if (first === -1 || !text.startsWith('## ') || text[first - 1] !== '\n') return null;
  const sections: FileSectionText[] = [];
  let at = first;
  for (const [i, path] of files.entries()) {
    if (i > 0) {
      if (text[at] !== SEPARATOR) return null;
      at += SEPARATOR.length;
    }
    const found = markdownSection(text, at, path);
    if (!found) return null;
    sections.push({ path, text: text.slice(at, found.end), content: found.content });
    at = found.end;
  }
  return { style: 'markdown', head: text.slice(0, first), sections, tail: text.slice(at) };
}

function readXml(text: string, files: readonly string[]): PartSections | null {
  const headEnd = text.indexOf('\n');
  if (headEnd === -1 || !/^<[A-Za-z_][\w-]*>$/.test(text.slice(0, headEnd))) return null;
  const closing = `\n</${text.slice(1, headEnd - 1)}>`;
  if (!text.endsWith(closing)) return null;
  const sections: FileSectionText[] = [];
  let at = headEnd + 1;
  for (const [i, path] of files.entries()) {
    const open = `<file path="${attr(path)}">\n`;
    if (!text.startsWith(open, at)) return null;
    const next = i + 1 < files.length ? `\n</file>\n<file path="${attr(files[i + 1]!)}">\n` : `\n</file>${closing}`;
    const close = i + 1 < files.length ? text.indexOf(next, at + open.length - 1) : text.length - next.length;
    if (close < at + open.length - 1 || !text.startsWith('\n</file>', close)) return null;
    const end = close + '\n</file>'.length;
    sections.push({ path, text: text.slice(at, end), content: text.slice(at + open.length, Math.max(at + open.length, close)) });
    at = end + (i + 1 < files.length ? 1 : 0);
  }
  return at === text.length - closing.length ? { style: 'xml', head: text.slice(0, headEnd + 1), sections, tail: closing } : null;
}

/** The part's file sections, or null when its text is not laid out by the one renderer. */
export function readSections(text: string, files: readonly string[]): PartSections | null {
  if (files.length === 0) return null;
  // Head, sections, separators and tail are consecutive slices of the text, checked one by
  // one as they are read: rebuilt whole, they are the text itself (the tests check it).
  return text.startsWith('<') ? readXml(text, files) : readMarkdown(text, files);
}

/** The part with only these sections (in their order), as the renderer would have made it. */
export function joinSections(part: Pick<PartSections, 'head' | 'tail'>, sections: readonly Pick<FileSectionText, 'text'>[]): string {
  return part.head + sections.map((s) => s.text).join(SEPARATOR) + part.tail;
}

/** A section holding only the first part of a file's content, followed by the marker. */
export function truncatedSection(style: PartSections['style'], path: string, head: string, marker: string): string {
  if (style === 'xml') return `<file path="${attr(path)}">\n${head}\n${marker}\n</file>`;
  return `### ${path}\n\n${renderFence(head)}\n${marker}\n`;
}
