/**
 * Target files (seed `_pack_target_files`): the files being worked on, whole, under
 * "## Target Files" — and the imports part, laid out the same way. A file over the per-file
 * cap or one that cannot be read gets a marker instead of its content. Paths come checked:
 * the targets by packing's first step, the imports by their resolver.
 */
import { MARKERS } from '../files/constants.ts';
import { renderFileMarker, renderFileSection, renderUnderHeading, type FileTextOptions } from '../files/file-section.ts';
import type { TextRead } from './safe-read.ts';

export interface FileListPart {
  /** "" when there was nothing to pack. */
  content: string;
  files: string[];
}

/** A repository-relative file and what reading it gave. */
export interface ReadFile {
  path: string;
  read: TextRead;
}

function renderOne({ path, read }: ReadFile, options?: FileTextOptions): string {
  if (read.kind === 'text') return renderFileSection(path, read.content, options);
  const marker = read.kind === 'tooLarge' ? MARKERS.fileTooLarge : read.kind === 'secret' ? MARKERS.secretLeftOut : MARKERS.couldNotRead;
  return renderFileMarker(path, marker);
}

/** The files under `heading` (default "## Target Files"), each listed once. */
export function renderFileList(files: readonly ReadFile[], heading = '## Target Files', options?: FileTextOptions): FileListPart {
  if (files.length === 0) return { content: '', files: [] };
  return { content: renderUnderHeading(heading, files.map((f) => renderOne(f, options))), files: files.map((f) => f.path) };
}
