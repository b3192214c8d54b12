/**
 * Review levels as seed 003's plans name them (`**review:** full | spec-only | none`), and the
 * reviewer roles each means. Plan readers map a level to `reviewers`; the default is `full`.
 */
export const REVIEW_LEVELS = {
  full: ['spec-reviewer', 'code-quality-reviewer'],
  'spec-only': ['spec-reviewer'],
  none: [],
} as const satisfies Record<string, readonly string[]>;

export type ReviewLevel = keyof typeof REVIEW_LEVELS;

export function isReviewLevel(value: string): value is ReviewLevel {
  return Object.hasOwn(REVIEW_LEVELS, value);
}

/** The reviewer roles of a level, in the order they run. */
export function reviewersForLevel(level: ReviewLevel): string[] {
  return [...REVIEW_LEVELS[level]];
}
