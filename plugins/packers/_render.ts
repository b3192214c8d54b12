/** How packers lay files out: markdown sections (the seeds' "### path" + fence) or XML. */

export interface FileText {
  path: string;
  content: string;
}

function fenceFor(content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/^[ \t]*(`{3,})/gm)) longest = Math.max(longest, match[1]!.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function renderMarkdownFile(file: FileText): string {
  const fence = fenceFor(file.content);
  return `### ${file.path}\n\n${fence}\n${file.content}\n${fence}\n`;
}

/** The files under a "## heading" (markdown) or in a <tag> element (xml). */
export function renderFiles(files: FileText[], style: 'markdown' | 'xml', heading: string, tag: string): string {
  if (style === 'xml') {
    const body = files.map((f) => `<file path="${attr(f.path)}">\n${f.content}\n</file>`);
    return [`<${tag}>`, ...body, `</${tag}>`].join('\n');
  }
  return [`## ${heading}\n`, ...files.map(renderMarkdownFile)].join('\n');
}
