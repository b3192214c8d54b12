/**
 * Target files (seed `_pack_target_files`): the files being worked on, whole, under
 * "## Target Files". A file over the per-file cap or one that cannot be read gets a marker
 * instead of its content; a path outside the repository is refused before anything is read.
 */
import { readFile, stat } from 'node:fs/promises';
import { MARKERS, MAX_FILE_SIZE } from './constants.ts';
import { looksBinary, renderFileMarker, renderFileSection, renderUnderHeading } from './file-section.ts';
import type { PathGuard } from './path-safety.ts';

export interface FileListPart {
  /** "" when there was nothing to pack. */
  content: string;
  files: string[];
}

async function renderOne(guard: PathGuard, path: string): Promise<string> {
  const absolute = await guard.resolve(path); // throws PATH_OUTSIDE_REPO: never read
  try {
    const info = await stat(absolute);
    if (!info.isFile()) return renderFileMarker(path, MARKERS.couldNotRead);
    if (info.size > MAX_FILE_SIZE) return renderFileMarker(path, MARKERS.fileTooLarge);
    const bytes = await readFile(absolute);
    if (looksBinary(bytes)) return renderFileMarker(path, MARKERS.couldNotRead);
    return renderFileSection(path, bytes.toString('utf8'));
  } catch {
    return renderFileMarker(path, MARKERS.couldNotRead);
  }
}

/** Packs the given repository-relative files under `heading` (default "## Target Files"). */
export async function packTargetFiles(guard: PathGuard, paths: string[], heading = '## Target Files'): Promise<FileListPart> {
  const files = [...new Set(paths.map((p) => guard.normalise(p)))];
  if (files.length === 0) return { content: '', files: [] };
  const sections = await Promise.all(files.map((path) => renderOne(guard, path)));
  return { content: renderUnderHeading(heading, sections), files };
}
