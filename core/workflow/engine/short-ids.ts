/**
 * Short ids for people (full ids stay in JSON): a run id `20261125-191230-worker-a1b2c3` is
 * shown as `worker-a1b2c3` (its role and random part: unique enough to type, and accepted by
 * every command that takes a run id as a unique part); a commit as its first 7 characters.
 */

export function shortRunId(runId: string): string {
  const match = /^\d{8}-\d{6}-(.+)$/.exec(runId);
  return match ? match[1]! : runId;
}

export function shortCommit(sha: string): string {
  return /^[0-9a-f]{40,64}$/.test(sha) ? sha.slice(0, 7) : sha;
}

export function shortRange(range: string): string {
  return range.split(/(\.\.\.?)/).map((part) => (part.startsWith('..') ? part : shortCommit(part))).join('');
}
