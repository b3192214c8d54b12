/**
 * A worker's change is what git says, not what its answer claims: a round that passes with no
 * change of its own (no commit of the CLI's, nothing for the engine to commit) is a gaps round,
 * and the files the answer lists in `files_changed` are compared with the files git saw.
 */
import type { RunResult } from '../../run/run-role.ts';
import { nameList } from '../../text/name-list.ts';

export const EMPTY_CHANGE = 'your change is empty: this round made no commit and left nothing to commit; make the change the task asks for and commit it';

/** "./src/a.ts" and "src/a.ts" name one file. */
const normalise = (path: string) => path.trim().replace(/^(\.\/)+/, '');

/** The answer's `files_changed` (a comma-separated header or a list); null when it says nothing. */
function claimedFiles(output: Record<string, unknown> | null): string[] | null {
  const value = output?.files_changed;
  if (typeof value === 'string') return value.split(',').map(normalise).filter(Boolean);
  if (Array.isArray(value)) return value.filter((p): p is string => typeof p === 'string').map(normalise).filter(Boolean);
  return null;
}

/** True when the worker's run changed nothing (the engine's range is null). */
export function emptyChange(result: RunResult): boolean {
  return result.git_range === null;
}

/**
 * What the answer's `files_changed` and git disagree on, as one sentence; null when they agree
 * or the answer names no files.
 */
export function claimedFilesMismatch(result: RunResult): string | null {
  const claimed = claimedFiles(result.output);
  if (claimed === null || result.files_changed === null) return null;
  const seen = new Set(result.files_changed.map(normalise));
  const claimedSet = new Set(claimed);
  const notSeen = [...claimedSet].filter((path) => !seen.has(path));
  const notClaimed = [...seen].filter((path) => !claimedSet.has(path));
  const parts: string[] = [];
  if (notSeen.length) parts.push(`the worker's answer lists ${nameList(notSeen, 10)} in files_changed, but git shows no change to ${notSeen.length === 1 ? 'it' : 'them'}`);
  if (notClaimed.length) parts.push(`git shows changes to ${nameList(notClaimed, 10)} that the worker's files_changed does not mention`);
  return parts.length ? parts.join('; ') : null;
}
