/** Whether a process still exists, by pid. */

/** Whether a process with that pid still exists (EPERM: it does, owned by someone else). */
export function alive(pid: unknown): boolean {
  if (typeof pid !== 'number') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
