/**
 * `always_include` (seed `_pack_always_include`): files the role always needs, under
 * "## Required Context". Protected from pruning, so capped on its own (2 MiB) with a warning
 * when the cap bites. Exact paths outside the repository are refused; glob matches that are
 * symlinks leading outside are skipped with a notice. Unreadable files are skipped silently.
 */
import { glob, isDynamicPattern } from 'tinyglobby';
import { MARKERS, MAX_ALWAYS_INCLUDE_SIZE } from './constants.ts';
import { renderFileMarker, renderFileSection, renderUnderHeading } from './file-section.ts';
import { checkPattern, type PathGuard } from './path-safety.ts';
import { readText } from './read-text.ts';
import { isSupervisorError } from '../errors.ts';

export interface AlwaysIncludePart {
  content: string;
  files: string[];
  warnings: string[];
  notices: string[];
}

interface Match {
  path: string;
  absolute: string;
}

async function expand(guard: PathGuard, pattern: string, notices: string[]): Promise<Match[]> {
  checkPattern(pattern);
  if (!isDynamicPattern(pattern)) {
    const path = guard.normalise(pattern);
    return [{ path, absolute: await guard.resolve(path) }];
  }
  const found = (await glob(pattern, { cwd: guard.root, dot: true, followSymbolicLinks: false, ignore: ['**/.git/**'] })).sort();
  const matches: Match[] = [];
  for (const path of found) {
    try {
      matches.push({ path, absolute: await guard.resolve(path) });
    } catch (error) {
      if (!isSupervisorError(error)) throw error;
      notices.push(`always_include: skipped ${path}: ${error.message}`);
    }
  }
  return matches;
}

export async function packAlwaysInclude(guard: PathGuard, patterns: string[]): Promise<AlwaysIncludePart> {
  const sections: string[] = [];
  const files: string[] = [];
  const notices: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  let capped = false;
  for (const pattern of patterns) {
    for (const { path, absolute } of await expand(guard, pattern, notices)) {
      if (seen.has(path)) continue;
      seen.add(path);
      const read = await readText(absolute, MAX_ALWAYS_INCLUDE_SIZE - total);
      if (read.kind === 'text') {
        sections.push(renderFileSection(path, read.content));
        files.push(path);
        total += read.bytes;
      } else if (read.kind === 'tooLarge') {
        sections.push(renderFileMarker(path, MARKERS.fileTooLarge));
      } else if (read.kind === 'overRoom') {
        sections.push(renderFileMarker(path, MARKERS.skippedTotalCap));
        capped = true;
      } // not a file, binary, unreadable: skipped silently, as the seed does
    }
  }
  const warnings: string[] = [];
  // Only when something was left out: exactly the cap packed, with nothing over, is no warning.
  if (capped) {
    sections.push(`\n${MARKERS.alwaysIncludeCapped(MAX_ALWAYS_INCLUDE_SIZE)}`);
    warnings.push(`always_include is capped at ${MAX_ALWAYS_INCLUDE_SIZE / 1024} KB; some files were left out`);
  }
  return { content: sections.length ? renderUnderHeading('## Required Context', sections) : '', files, warnings, notices };
}
