/**
 * How packed files look in the prompt — one renderer for the core and the packer plugins
 * (which get it through the plugin API): markdown as the seeds give it ("## heading", then
 * "### path" and the content in a fence), or XML.
 */

/** A file's repository-relative path and its text. */
export interface FileText {
  path: string;
  content: string;
}

/**
 * A path on one line: control characters (a newline could start a forged "## Task" heading)
 * are written as visible escapes. Paths are data in the prompt, never structure.
 */
export function inlinePath(path: string): string {
  return path.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** A fence longer than any backtick run that starts a line of the content, so it cannot close early. */
function fenceFor(content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/^[ \t]*(`{3,})/gm)) longest = Math.max(longest, match[1]!.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The content in a fence that it cannot close, with an info string such as "diff". */
export function renderFence(content: string, info = ''): string {
  const fence = fenceFor(content);
  return `${fence}${info}\n${content}\n${fence}`;
}

/** How a file's text is shown: with line numbers ("  12 | code") for roles that cite file:line (context.line_numbers). */
export interface FileTextOptions {
  lineNumbers?: boolean;
}

/** Each line prefixed with its 1-based number, right-aligned: what a reviewer cites as file:line. */
export function numberLines(content: string): string {
  const lines = content.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const width = String(lines.length).length;
  return lines.map((line, i) => `${String(i + 1).padStart(width)} |${line ? ` ${line}` : ''}`).join('\n');
}

const shown = (content: string, options?: FileTextOptions) => (options?.lineNumbers ? numberLines(content) : content);

export function renderFileSection(path: string, content: string, options?: FileTextOptions): string {
  return `### ${inlinePath(path)}\n\n${renderFence(shown(content, options))}\n`;
}

/** A section that stands in for a file's content ("[File exceeds size limit]", ...). */
export function renderFileMarker(path: string, marker: string): string {
  return `### ${inlinePath(path)}\n\n${marker}\n`;
}

/** Sections under a heading line such as "## Target Files", joined as the seeds join them. */
export function renderUnderHeading(heading: string, sections: string[]): string {
  return [`${heading}\n`, ...sections].join('\n');
}

const attr = (value: string) => inlinePath(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A file's content inside its <file> element: a "<" that would open or close a <file> or the
 * part's own element is written as "&lt;", so content cannot end its element and forge another.
 * Everything else stays as written (code keeps its "<" and "&").
 */
function xmlContent(content: string, tag: string): string {
  return content.replace(elementOpeners(tag), '&lt;');
}

/** The pattern xmlContent replaces, made once per part tag: it runs on every packed file. */
const openers = new Map<string, RegExp>();
function elementOpeners(tag: string): RegExp {
  let pattern = openers.get(tag);
  if (!pattern) {
    const names = [...new Set(['file', tag])].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    openers.set(tag, (pattern = new RegExp(`<(?=\\/?\\s*(?:${names})(?![\\w-]))`, 'gi')));
  }
  return pattern;
}

/** Files under "## {heading}" (markdown), or as <file path="..."> elements in a <{tag}> element (xml). */
export function renderFiles(files: readonly FileText[], style: 'markdown' | 'xml', heading: string, tag: string, options?: FileTextOptions): string {
  if (style === 'xml') {
    const body = files.map((f) => `<file path="${attr(f.path)}">\n${xmlContent(shown(f.content, options), tag)}\n</file>`);
    return [`<${tag}>`, ...body, `</${tag}>`].join('\n');
  }
  return renderUnderHeading(`## ${heading}`, files.map((f) => renderFileSection(f.path, f.content, options)));
}

/** The seeds' "## Test Output" from "test_output": underscores to spaces, Python's str.title(). */
export function titleOf(key: string): string {
  return key.replaceAll('_', ' ').replace(/[A-Za-z]+/g, (word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase());
}

/** True when the bytes look binary (a NUL in the first 8000 bytes, as git decides). */
export function looksBinary(bytes: Uint8Array): boolean {
  // On a Buffer, subarray and indexOf are native (memchr): this runs for every packed file.
  return bytes.subarray(0, 8000).indexOf(0) !== -1;
}
