/**
 * What the answer says it changed against what git saw: a run's result must not claim changes
 * that did not happen, nor hide ones that did. Each difference becomes a notice.
 */
import { nameList } from '../text/name-list.ts';

/** "./src/a.ts" and "src/a.ts" name one file. */
const normalise = (path: string) => path.trim().replace(/^(\.\/)+/, '');

/** The files the answer lists in files_modified and files_created, when it lists any. */
function claimedFiles(output: Record<string, unknown> | null): string[] | null {
  if (!output) return null;
  const fields = ['files_modified', 'files_created'].map((key) => output[key]).filter((value) => value !== undefined && value !== null);
  if (fields.length === 0) return null;
  return fields.flatMap((value) => (Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string').map(normalise) : []));
}

export interface ChangeCheck {
  /** The validated answer (null when there is none). */
  output: Record<string, unknown> | null;
  /** Files git saw changed in the worktree (null: unknown, e.g. in place). */
  filesChanged: string[] | null;
  /** The role may change files (config.allow_edits). */
  allowEdits: boolean;
  role: string;
  branch: string | null;
}

export function changeNotices(check: ChangeCheck): string[] {
  if (check.filesChanged === null) return [];
  const notices: string[] = [];
  const seen = new Set(check.filesChanged.map(normalise));
  if (!check.allowEdits && seen.size > 0) {
    notices.push(
      `role ${check.role} may not edit files (config.allow_edits is not true), yet its CLI changed ${seen.size} file(s): ${nameList([...seen], 10)}${check.branch ? `; they are on ${check.branch}` : ''}`,
    );
  }
  const claimed = claimedFiles(check.output);
  if (claimed === null) return notices;
  const claimedSet = new Set(claimed);
  const notSeen = [...claimedSet].filter((path) => !seen.has(path));
  const notClaimed = [...seen].filter((path) => !claimedSet.has(path));
  if (notSeen.length) notices.push(`the answer lists ${nameList(notSeen, 10)} in files_modified/files_created, but git saw no change to ${notSeen.length === 1 ? 'it' : 'them'}`);
  if (notClaimed.length) notices.push(`git saw changes to ${nameList(notClaimed, 10)} that the answer's files_modified/files_created do not mention`);
  return notices;
}
