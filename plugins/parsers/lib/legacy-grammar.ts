/**
 * The legacy free-text grammar (seed 003): results written without v2 headers, read by
 * deterministic rules only. The verdict comes from the phrases below (the most severe one found
 * wins, so "approved" next to "issues found" is gaps), the range from `<hash>..<hash>`, the
 * issues from bullet or numbered lists. Nothing here guesses beyond these tables.
 */
import type { V2Status } from './v2-contract.ts';

/** Phrases matched case-insensitively, whole words; a longer phrase wins over one inside it. */
const LEGACY_PHRASES: ReadonlyArray<readonly [string, V2Status]> = [
  ['review passed', 'pass'],
  ['spec compliant', 'pass'],
  ['implementation complete', 'pass'],
  ['task complete', 'pass'],
  ['all requirements met', 'pass'],
  ['not approved', 'gaps'],
  ['not spec compliant', 'gaps'],
  ["isn't spec compliant", 'gaps'],
  ['not compliant', 'gaps'],
  ['issues found', 'gaps'],
  ['review failed', 'gaps'],
  ['changes requested', 'gaps'],
  ['task blocked', 'gaps'],
  ['blocked on', 'gaps'],
  ['review loop exceeded', 'error'],
  ['could not complete', 'error'],
  ['unable to complete', 'error'],
  ['timed out', 'error'],
];

/** Verdict words matched only in capitals, as reviewers write a verdict ("Assessment: APPROVED"). */
const LEGACY_WORDS: ReadonlyArray<readonly [string, V2Status]> = [
  ['APPROVED', 'pass'],
  ['PASSED', 'pass'],
  ['FAILED', 'gaps'],
  ['REJECTED', 'gaps'],
  ['CHANGES_REQUESTED', 'gaps'],
];

const SEVERITY: Record<V2Status, number> = { pass: 0, gaps: 1, error: 2 };

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function alternation(table: ReadonlyArray<readonly [string, V2Status]>): string {
  return [...table]
    .map(([phrase]) => phrase)
    .sort((a, b) => b.length - a.length)
    .map((phrase) => escape(phrase).replaceAll(' ', '[ \\t]+'))
    .join('|');
}

const PHRASES = new RegExp(`(?<![A-Za-z0-9_'])(?:${alternation(LEGACY_PHRASES)})(?![A-Za-z0-9_])`, 'gi');
const WORDS = new RegExp(`(?<![A-Za-z0-9_])(?:${alternation(LEGACY_WORDS)})(?![A-Za-z0-9_])`, 'g');
const RANGE = /(?<![0-9A-Za-z])[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}(?![0-9A-Za-z])/g;
const BULLET = /^[ \t]{0,6}(?:[-*+•]|\d{1,3}[.)])[ \t]+(\S.*)$/;
const ISSUES_HEADING = /\b(?:issues?|problems?|findings?|gaps)\b/i;

/** The most severe verdict phrase in the text, or undefined when there is none. */
export function legacyVerdict(text: string): V2Status | undefined {
  let verdict: V2Status | undefined;
  const consider = (found: V2Status | undefined) => {
    if (found && (verdict === undefined || SEVERITY[found] > SEVERITY[verdict])) verdict = found;
  };
  const lookup = (table: ReadonlyArray<readonly [string, V2Status]>, match: string, fold: boolean) =>
    table.find(([phrase]) => (fold ? phrase.toLowerCase() : phrase) === (fold ? match.toLowerCase().replace(/[ \t]+/g, ' ') : match))?.[1];
  for (const match of text.matchAll(PHRASES)) consider(lookup(LEGACY_PHRASES, match[0], true));
  for (const match of text.matchAll(WORDS)) consider(lookup(LEGACY_WORDS, match[0], false));
  return verdict;
}

/** The last `<hash>..<hash>` in the text. */
export function legacyGitRange(text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(RANGE)) last = match[0];
  return last;
}

/**
 * Issues from bullet or numbered lists: the list under a heading that names issues (or
 * problems, findings, gaps) when there is one, else every list item in the text.
 */
export function legacyIssues(text: string): string[] {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const all: string[] = [];
  let underHeading: string[] | undefined;
  let collecting = false;
  for (const line of lines) {
    const item = BULLET.exec(line)?.[1]?.trim();
    if (item) {
      all.push(item);
      if (collecting) (underHeading ??= []).push(item);
      continue;
    }
    if (line.trim() === '' && collecting && !underHeading) continue; // blank between heading and list
    collecting = !underHeading && line.length < 200 && ISSUES_HEADING.test(line) && /[:#*]/.test(line);
  }
  return underHeading ?? all;
}
