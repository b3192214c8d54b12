/**
 * A notice that repeats across runs (the same packing notice for every reviewer run) is printed
 * once, with a count at the end. Notices are compared without the `task (role, round N): `
 * prefix a workflow puts before a run's notice.
 */
const RUN_PREFIX = /^[\w.-]+ \([\w.-]+, round \d+\): /;

export interface NoticeOnce {
  note(message: string): void;
  /** Lines saying how often the repeated notices came again (empty when none did). */
  summary(): string[];
}

export function createNoticeOnce(print: (message: string) => void): NoticeOnce {
  const counts = new Map<string, number>();
  return {
    note(message) {
      const key = message.replace(RUN_PREFIX, '');
      const seen = counts.get(key) ?? 0;
      counts.set(key, seen + 1);
      if (seen === 0) print(message);
    },
    summary() {
      return [...counts].filter(([, n]) => n > 1).map(([key, n]) => `notice: repeated ${n - 1} more time${n === 2 ? '' : 's'}: ${key.length > 100 ? `${key.slice(0, 100)}...` : key}`);
    },
  };
}
