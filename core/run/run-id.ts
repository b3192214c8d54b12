/**
 * Run ids: `<yyyymmdd>-<hhmmss>-<role>-<hex6>` (UTC). They sort by start time, name the role
 * at a glance, and are safe as folder names and in the branch `supervisor/<run-id>`.
 */

const RUN_ID = /^\d{8}-\d{6}-[a-z0-9][a-z0-9-]*-[0-9a-f]{6}$/;

export function newRunId(role: string, now: Date, randomHex: (n: number) => string): string {
  const iso = now.toISOString(); // 2026-11-22T15:30:12.345Z
  const date = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 19).replaceAll(':', '');
  const slug =
    role
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'role';
  return `${date}-${time}-${slug}-${randomHex(6)}`;
}

/** True for strings shaped like a run id (guards paths built from user input). */
export function isRunId(value: string): boolean {
  return RUN_ID.test(value);
}
