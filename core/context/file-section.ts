/** One file as the seeds render it in the prompt: "### path", then the content in a fence. */

/** A fence longer than any backtick run that starts a line of the content, so it cannot close early. */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/^[ \t]*(`{3,})/gm)) longest = Math.max(longest, match[1]!.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function renderFileSection(path: string, content: string): string {
  const fence = fenceFor(content);
  return `### ${path}\n\n${fence}\n${content}\n${fence}\n`;
}

/** A section that stands in for a file's content ("[File exceeds size limit]", ...). */
export function renderFileMarker(path: string, marker: string): string {
  return `### ${path}\n\n${marker}\n`;
}

/** The seeds' "## Test Output" from "test_output": underscores to spaces, Python's str.title(). */
export function titleOf(key: string): string {
  return key.replaceAll('_', ' ').replace(/[A-Za-z]+/g, (word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase());
}

/** True when the bytes look binary (a NUL in the first 8000 bytes, as git decides). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
