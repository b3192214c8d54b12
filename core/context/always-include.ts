/**
 * `always_include` (seed `_pack_always_include`): files the role always needs, under
 * "## Required Context". Protected from pruning, so capped on its own (2 MiB) with a warning
 * when the cap bites. Exact paths outside the repository are refused. Glob matches honour the
 * glob packer's exclusions (the default ignore list, .gitignore, `.git/`): `always_include:
 * ["*"]` packs no `.env` and no gitignored file. Every file is read by the safe reader, so a
 * match that leads outside the repository, lies in `.git/` or looks like it holds a secret is
 * left out with a notice. Unreadable files are skipped silently.
 */
import { glob, isDynamicPattern } from 'tinyglobby';
import { MARKERS, MAX_ALWAYS_INCLUDE_SIZE } from '../files/constants.ts';
import { isDefaultIgnored } from '../files/default-ignores.ts';
import { renderFileMarker, renderFileSection, renderUnderHeading } from '../files/file-section.ts';
import { gitignoredAmong } from './gitignored.ts';
import { checkPattern, type PathGuard } from './path-safety.ts';
import type { SafeReader } from './safe-read.ts';
import { secretNotice } from '../secrets/secret-scan.ts';
import { isSupervisorError } from '../errors.ts';

export interface AlwaysIncludePart {
  content: string;
  files: string[];
  warnings: string[];
  notices: string[];
}

export interface AlwaysIncludeSource {
  guard: PathGuard;
  reader: SafeReader;
  /** The role's context: `default_ignores: false` and `gitignore: false` turn those exclusions off. */
  context: Readonly<Record<string, unknown>>;
  env: Record<string, string | undefined>;
  /** Number the lines of the files (context.line_numbers). */
  lineNumbers?: boolean;
}

async function expand(source: AlwaysIncludeSource, pattern: string, notices: string[]): Promise<string[]> {
  const { guard, context } = source;
  checkPattern(pattern);
  if (!isDynamicPattern(pattern)) {
    const path = guard.normalise(pattern);
    await guard.resolve(path); // an exact path outside the repository is an error, not a notice
    return [path];
  }
  const defaults = context.default_ignores !== false;
  const found = (await glob(pattern, { cwd: guard.root, dot: true, followSymbolicLinks: false, ignore: ['**/.git/**', '.git'] })).sort();
  const ignored = context.gitignore === false ? new Set<string>() : await gitignoredAmong(guard.root, found, source.env);
  const kept = found.filter((path) => !(defaults && isDefaultIgnored(path)) && !ignored.has(path));
  const matches: string[] = [];
  for (const path of kept) {
    try {
      await guard.resolve(path);
      matches.push(path);
    } catch (error) {
      if (!isSupervisorError(error)) throw error;
      notices.push(`always_include: skipped ${path}: ${error.message}`);
    }
  }
  return matches;
}

export async function packAlwaysInclude(source: AlwaysIncludeSource, patterns: string[]): Promise<AlwaysIncludePart> {
  const sections: string[] = [];
  const files: string[] = [];
  const notices: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  let capped = false;
  for (const pattern of patterns) {
    for (const path of await expand(source, pattern, notices)) {
      if (seen.has(path)) continue;
      seen.add(path);
      const read = await source.reader.read(path, MAX_ALWAYS_INCLUDE_SIZE - total);
      if (read.kind === 'text') {
        sections.push(renderFileSection(path, read.content, { lineNumbers: source.lineNumbers === true }));
        files.push(path);
        total += read.bytes;
      } else if (read.kind === 'tooLarge') {
        sections.push(renderFileMarker(path, MARKERS.fileTooLarge));
      } else if (read.kind === 'overRoom') {
        sections.push(renderFileMarker(path, MARKERS.skippedTotalCap));
        capped = true;
      } else if (read.kind === 'secret') {
        notices.push(secretNotice('always_include', path, read.rules));
      } else if (read.kind === 'outside') {
        notices.push(`always_include: skipped ${path}: it leads outside the repository`);
      } else if (read.kind === 'gitDir') {
        notices.push(`always_include: skipped ${path}: files inside .git are never packed`);
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
