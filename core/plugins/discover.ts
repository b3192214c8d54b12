/** Where plugin files are looked for, in load order (later overrides earlier). */
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { errors } from '../errors.ts';

export const PLUGIN_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'] as const;

export interface PluginSource {
  /** builtin, beside-binary, user, repo, cli */
  layer: string;
  /** The folder (or, for --plugin, the file or folder) the files came from. */
  origin: string;
  /** False for a plugin folder that does not exist (it then holds no files). */
  exists: boolean;
  files: string[];
  /** Plugin files left unloaded because the repository is not trusted (layer repo only). */
  untrusted?: string[];
}

export interface DiscoverOptions {
  repoRoot: string;
  homeDir: string;
  /** Folder holding the executable when running as the single binary. */
  besideBinaryDir?: string;
  /** --plugin paths, files or folders, relative to cwd. */
  extraPaths: string[];
  cwd: string;
  /** false with --no-user-plugins: only built-ins. */
  userPlugins: boolean;
  /** The repository may run its own code (core/trust): only then are <repo>/.supervisor/plugins loaded. Default: not trusted. */
  trustedRepo?: boolean;
}

/** A plugin's file name without folder and extension: what its `name` must be. */
export function pluginStem(file: string): string {
  return basename(file).replace(/\.[^.]+$/, '');
}

export function isPluginFile(file: string): boolean {
  const base = file.split(/[\\/]/).pop() ?? '';
  if (base.startsWith('.') || base.startsWith('_') || /\.d\.[cm]?ts$/.test(base)) return false;
  return (PLUGIN_EXTENSIONS as readonly string[]).includes(extname(base));
}

/** Whether `file` is a plugin file on disk: a regular file with a plugin name and extension. */
export async function isPluginFileOnDisk(file: string): Promise<boolean> {
  return isPluginFile(file) && (await stat(file).catch(() => undefined))?.isFile() === true;
}

/** Plugin files directly inside a folder, sorted; a missing folder holds none. */
async function readPluginFolder(dir: string): Promise<{ exists: boolean; files: string[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { exists: false, files: [] };
  }
  const files: string[] = [];
  for (const name of names.sort()) if (await isPluginFileOnDisk(join(dir, name))) files.push(join(dir, name));
  return { exists: true, files };
}

/** The plugin folders of each layer, in load order. */
export function pluginFolders(options: Omit<DiscoverOptions, 'extraPaths' | 'cwd'>): { layer: string; dir: string }[] {
  if (!options.userPlugins) return [];
  const folders: { layer: string; dir: string }[] = [];
  if (options.besideBinaryDir) folders.push({ layer: 'beside-binary', dir: join(options.besideBinaryDir, 'plugins') });
  folders.push({ layer: 'user', dir: join(options.homeDir, '.supervisor', 'plugins') });
  folders.push({ layer: 'repo', dir: join(options.repoRoot, '.supervisor', 'plugins') });
  return folders;
}

export async function discoverPluginSources(options: DiscoverOptions): Promise<PluginSource[]> {
  const sources: PluginSource[] = [];
  for (const { layer, dir } of pluginFolders(options)) {
    const found = await readPluginFolder(dir);
    // A cloned repository's plugins are its code: listed, never imported, until it is trusted.
    if (layer === 'repo' && options.trustedRepo !== true && found.files.length) sources.push({ layer, origin: dir, exists: true, files: [], untrusted: found.files });
    else sources.push({ layer, origin: dir, ...found });
  }
  for (const path of options.extraPaths) {
    const absolute = resolve(options.cwd, path);
    if (await isPluginFileOnDisk(absolute)) sources.push({ layer: 'cli', origin: absolute, exists: true, files: [absolute] });
    else if ((await stat(absolute).catch(() => undefined))?.isDirectory()) sources.push({ layer: 'cli', origin: absolute, ...(await readPluginFolder(absolute)) });
    else throw errors.pluginPath(path);
  }
  return sources;
}
