/**
 * Helpers every template can call by name (the Jinja2 filters of seed 000): they are plain
 * functions of their arguments, so user text passed through them stays data.
 */

/** Keeps the first `maxLines` lines; adds "[Truncated N lines]" when it cut any. */
export function truncateLines(text: string, maxLines: number): string {
  if (typeof text !== 'string') throw new TypeError(`truncateLines expects text, got ${typeof text}`);
  if (!Number.isInteger(maxLines) || maxLines < 0) throw new TypeError(`truncateLines expects a whole number of lines, got ${String(maxLines)}`);
  const lines = text.split('\n');
  if (lines.length <= maxLines) return text;
  return `${lines.slice(0, maxLines).join('\n')}\n\n[Truncated ${lines.length - maxLines} lines]`;
}

/**
 * Wraps a git diff in a ```diff fence for the prompt. The fence is made longer than any run of
 * backticks inside the diff (CommonMark), so a diff of a markdown file cannot close it early.
 */
export function formatDiff(diff: string): string {
  if (typeof diff !== 'string') throw new TypeError(`formatDiff expects text, got ${typeof diff}`);
  const body = diff.replace(/\n+$/, '');
  const longest = Math.max(0, ...[...body.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}diff\n${body}\n${fence}`;
}

/** The helpers as templates see them. */
export const templateHelpers = { truncateLines, formatDiff } as const;
