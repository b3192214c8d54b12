/** Ages and points in time as people type them: "90s", "45m", "12h", "7d", "2w", or a date. */

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds of an age such as "7d"; null when the text is not one. */
export function parseAge(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/** A point in time: an age back from `now` ("2h": two hours ago) or a date ("2026-11-20", ISO 8601); null when neither. */
export function parseSince(text: string, now: Date): Date | null {
  const age = parseAge(text);
  if (age !== null) return new Date(now.getTime() - age);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return null;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}
