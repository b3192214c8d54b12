/**
 * Notices for what `PackContext.readFiles` left out. The reading itself is the core's (one
 * safe reader for every file packing reads: path checks on the opened file, caps, `.git/`,
 * secrets); a packer only says what was skipped.
 */
import { MAX_FILE_SIZE, MAX_TOTAL_SIZE, secretNotice, type ReadReport } from '../../core/plugin-api/index.ts';

/** One-line notices for what was left out, naming a few files each, and each file held back for a secret with its rules. */
export function skippedNotices(packer: string, report: ReadReport): string[] {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
  const name = (paths: string[]) => paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, and ${paths.length - 5} more` : '');
  const lines: [string[], string][] = [
    [report.tooLarge, `over the per-file cap of ${mib(MAX_FILE_SIZE)}`],
    [report.overTotal, `past the total cap of ${mib(MAX_TOTAL_SIZE)}`],
    [report.binary, 'binary'],
    [report.outside, 'symlinks leading outside the repository'],
    [report.gitDir, 'inside .git, never packed'],
    [report.unreadable, 'unreadable'],
  ];
  const skipped = lines
    .filter(([paths]) => paths.length > 0)
    .map(([paths, why]) => `${packer}: skipped ${paths.length} file${paths.length === 1 ? '' : 's'} (${why}): ${name(paths)}`);
  return [...skipped, ...report.secrets.map(({ path, rules }) => secretNotice(packer, path, rules))];
}

