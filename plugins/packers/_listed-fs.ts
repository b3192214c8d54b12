/**
 * A file-system adapter for tinyglobby that serves a list of files (git's, core/git/git-files.ts)
 * as folders and files, so the globs are matched exactly as on the walk: same patterns, same
 * matcher, no readdir.
 */
import type { Dirent } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { FileSystemAdapter } from 'tinyglobby';

/** The part of a Dirent tinyglobby's crawler reads. */
function entry(name: string, folder: boolean): Dirent {
  return { name, isFile: () => !folder, isDirectory: () => folder, isSymbolicLink: () => false } as Dirent;
}

/** Folder (repository-relative, "" for the root) → its entries, from repository-relative file paths. */
function foldersOf(files: readonly string[]): Map<string, Dirent[]> {
  const folders = new Map<string, Dirent[]>([['', []]]);
  for (const file of files) {
    let slash = file.lastIndexOf('/');
    let name = file.slice(slash + 1);
    let folder = slash === -1 ? '' : file.slice(0, slash);
    let isFolder = false;
    // Adds the file to its folder, then each new folder to its parent, up to one known already.
    for (;;) {
      let entries = folders.get(folder);
      const known = entries !== undefined;
      if (!entries) folders.set(folder, (entries = []));
      entries.push(entry(name, isFolder));
      if (known || folder === '') break;
      slash = folder.lastIndexOf('/');
      name = folder.slice(slash + 1);
      folder = slash === -1 ? '' : folder.slice(0, slash);
      isFolder = true;
    }
  }
  return folders;
}

export function createListedFs(root: string, files: readonly string[]): FileSystemAdapter {
  const folders = foldersOf(files);
  const top = resolve(root);
  const readdir = (path: string, _options: unknown, callback: (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void) => {
    const entries = folders.get(relative(top, path).replaceAll('\\', '/'));
    process.nextTick(() => (entries ? callback(null, entries) : callback(Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' }), [])));
  };
  return { readdir: readdir as unknown as FileSystemAdapter['readdir'] };
}
