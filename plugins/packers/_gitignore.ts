/**
 * A file-system adapter for tinyglobby that filters while it walks, so ignored folders are
 * never entered: first by name (the default ignore list: a set lookup, far cheaper than glob
 * matching every path), then by .gitignore rules — those of the folder and of its parents,
 * plus .git/info/exclude. Deeper .gitignore files override shallower ones, and "!" re-includes,
 * as git does.
 */
import { readdir, type Dirent } from 'node:fs';
import { readFile as readFileAsync } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { FileSystemAdapter } from 'tinyglobby';
import { toPosix } from '../../core/plugin-api/index.ts';

interface Level {
  /** Folder of the .gitignore, relative to the root, "" for the root. */
  base: string;
  rules: Ignore;
}

export interface WalkFilter {
  /** Apply .gitignore files (default true). */
  gitignore?: boolean;
  /** Folder names never entered, wherever they are. */
  skipFolder?: (name: string) => boolean;
  /** File names never returned, wherever they are. */
  skipFile?: (name: string) => boolean;
}

export function createGitignoreFs(root: string, filter: WalkFilter = {}): FileSystemAdapter {
  const useGitignore = filter.gitignore !== false;
  const skipFolder = filter.skipFolder ?? (() => false);
  const skipFile = filter.skipFile ?? (() => false);
  const rulesByDir = new Map<string, Promise<Ignore | null>>();

  function load(dir: string, hasFile: boolean | undefined): Promise<Ignore | null> {
    let found = rulesByDir.get(dir);
    if (!found) {
      found = (async () => {
        const texts: string[] = [];
        if (hasFile !== false) texts.push(await readFileAsync(join(root, dir, '.gitignore'), 'utf8').catch(() => ''));
        if (dir === '') texts.push(await readFileAsync(join(root, '.git', 'info', 'exclude'), 'utf8').catch(() => ''));
        const text = texts.join('\n');
        return text.trim() ? ignore().add(text) : null;
      })();
      rulesByDir.set(dir, found);
    }
    return found;
  }

  async function levelsFor(dir: string, hasFile: boolean): Promise<Level[]> {
    const chain = [''];
    if (dir) dir.split('/').forEach((_, i, parts) => chain.push(parts.slice(0, i + 1).join('/')));
    const loaded = await Promise.all(chain.map((d) => load(d, d === dir ? hasFile : undefined)));
    return loaded.flatMap((rules, i) => (rules ? [{ base: chain[i]!, rules }] : []));
  }

  function ignored(path: string, isDir: boolean, levels: Level[]): boolean {
    let state = false;
    for (const { base, rules } of levels) {
      const local = base ? path.slice(base.length + 1) : path;
      try {
        const result = rules.test(isDir ? `${local}/` : local);
        if (result.ignored) state = true;
        else if (result.unignored) state = false;
      } catch {
        // a name the rules library cannot judge: keep it
      }
    }
    return state;
  }

  const filtered = (path: string, callback: (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void) =>
    (error: NodeJS.ErrnoException | null, all: Dirent[]) => {
      if (error) return callback(error, []);
      // Only folders and regular files (symlinks are tinyglobby's to judge); never FIFOs, sockets, devices.
      const entries = all.filter((e) => (e.isDirectory() ? !skipFolder(e.name) : (e.isFile() || e.isSymbolicLink()) && !skipFile(e.name)));
      if (!useGitignore) return callback(null, entries);
      const dir = toPosix(relative(root, path));
      const hasFile = entries.some((e) => e.name === '.gitignore' && e.isFile());
      levelsFor(dir, hasFile).then(
        (levels) => {
          if (levels.length === 0) return callback(null, entries);
          callback(null, entries.filter((e) => !ignored(dir ? `${dir}/${e.name}` : e.name, e.isDirectory(), levels)));
        },
        () => callback(null, entries),
      );
    };

  return {
    readdir: ((path: string, options: unknown, callback: (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void) =>
      readdir(path, options as { withFileTypes: true }, filtered(path, callback))) as unknown as FileSystemAdapter['readdir'],
  };
}
