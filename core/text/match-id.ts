/**
 * What an id argument names, one rule for run ids and workflow ids: the id itself, else the
 * one id it is a prefix of, else the one id it is any part of. Several: ambiguous (the caller
 * lists them); none: not found.
 */
export type IdMatch = { id: string } | { ambiguous: string[] } | { none: true };

export function matchId(ids: readonly string[], query: string): IdMatch {
  if (ids.includes(query)) return { id: query };
  const prefixed = ids.filter((id) => id.startsWith(query));
  const matches = prefixed.length ? prefixed : ids.filter((id) => id.includes(query));
  if (matches.length === 1) return { id: matches[0]! };
  return matches.length ? { ambiguous: matches } : { none: true };
}
