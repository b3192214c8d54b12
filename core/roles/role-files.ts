/**
 * Where role files live and how they are read: the search layers (highest precedence first:
 * an explicitly given file's own folder, <repo>/.supervisor/roles, ~/.supervisor/roles, the
 * built-ins) and one RoleFile per `<name>.yaml` / `<name>.yml`.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { listAssets, readAsset } from '../assets.ts';
import { errors } from '../errors.ts';
import { roleErrors } from './errors.ts';

/** Role files larger than this are refused before parsing (a role is a page, not a corpus). */
export const MAX_ROLE_FILE_BYTES = 256 * 1024;

export type LayerName = 'dir' | 'repo' | 'user' | 'builtin';

export interface SearchLayer {
  name: LayerName;
  /** Folder of role files; null for the built-in assets. */
  dir: string | null;
  /** How to name the layer in messages. */
  label: string;
}

export interface RoleFile {
  /** The role name the file answers to: its file name without .yaml/.yml. */
  name: string;
  /** What to show users: an absolute path, or "<builtin>/roles/x.yaml" inside the binary. */
  path: string;
  /** Index of its layer in the search order (0 = highest precedence). */
  layer: number;
  layerName: LayerName;
  /** Asset name ("roles/x.yaml") for built-ins. */
  asset?: string;
}

const ROLE_FILE = /\.ya?ml$/;

/** `withoutRepo`: only the user's own folders and the built-ins (what the user chose, without the repository's roles). */
export function searchLayers(opts: { repoRoot: string; homeDir: string; withoutRepo?: boolean }): SearchLayer[] {
  const repo = resolve(opts.repoRoot, '.supervisor', 'roles');
  const user = resolve(opts.homeDir, '.supervisor', 'roles');
  const layers: SearchLayer[] = opts.withoutRepo ? [] : [{ name: 'repo', dir: repo, label: repo }];
  // A repository at the home folder would otherwise be searched twice.
  if (user !== repo || opts.withoutRepo) layers.push({ name: 'user', dir: user, label: user });
  layers.push({ name: 'builtin', dir: null, label: 'built-in roles' });
  return layers;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

/** The role file of `name` in one layer, if there is one. */
export async function findInLayer(layers: SearchLayer[], index: number, name: string): Promise<RoleFile | undefined> {
  const layer = layers[index]!;
  if (layer.dir === null) {
    for (const ext of ['.yaml', '.yml']) {
      const asset = readAsset(`roles/${name}${ext}`);
      if (asset) return { name, path: asset.displayPath, layer: index, layerName: layer.name, asset: asset.name };
    }
    return undefined;
  }
  const yaml = join(layer.dir, `${name}.yaml`);
  const yml = join(layer.dir, `${name}.yml`);
  const [hasYaml, hasYml] = await Promise.all([isFile(yaml), isFile(yml)]);
  if (hasYaml && hasYml) throw roleErrors.ambiguous(name, layer.dir);
  if (!hasYaml && !hasYml) return undefined;
  return { name, path: hasYaml ? yaml : yml, layer: index, layerName: layer.name };
}

/** The highest-precedence role file of `name`, searching layers from `from` down. */
export async function findRoleFile(layers: SearchLayer[], name: string, from = 0): Promise<RoleFile | undefined> {
  for (let i = from; i < layers.length; i++) {
    const found = await findInLayer(layers, i, name);
    if (found) return found;
  }
  return undefined;
}

/** Every role file of one layer, sorted by name. */
export async function listLayer(layers: SearchLayer[], index: number): Promise<RoleFile[]> {
  const layer = layers[index]!;
  if (layer.dir === null) {
    return listAssets('roles')
      .filter((asset) => ROLE_FILE.test(asset))
      .map((asset) => ({
        name: basename(asset).replace(ROLE_FILE, ''),
        path: readAsset(asset)?.displayPath ?? `<builtin>/${asset}`,
        layer: index,
        layerName: layer.name,
        asset,
      }));
  }
  const dir = layer.dir;
  const entries = await readdir(dir).catch(() => [] as string[]);
  const files: RoleFile[] = [];
  for (const entry of entries.filter((e) => ROLE_FILE.test(e)).sort()) {
    const path = join(dir, entry);
    if (await isFile(path)) files.push({ name: entry.replace(ROLE_FILE, ''), path, layer: index, layerName: layer.name });
  }
  return files;
}

/**
 * The layers for loading one given file: its own folder's layer when it sits in a search folder,
 * else a `dir` layer for that folder in front, so roles beside it can be its parents.
 */
export function layersForFile(path: string, base: SearchLayer[]): { layers: SearchLayer[]; file: RoleFile } {
  const name = basename(path).replace(ROLE_FILE, '');
  if (path.startsWith('<builtin>/')) {
    const index = base.findIndex((l) => l.dir === null);
    return { layers: base, file: { name, path, layer: index, layerName: 'builtin', asset: path.slice('<builtin>/'.length) } };
  }
  const dir = dirname(path);
  const index = base.findIndex((l) => l.dir === dir);
  if (index >= 0) return { layers: base, file: { name, path, layer: index, layerName: base[index]!.name } };
  return { layers: [{ name: 'dir', dir, label: dir }, ...base], file: { name, path, layer: 0, layerName: 'dir' } };
}

/** The text of a role file, refusing files over MAX_ROLE_FILE_BYTES before reading them. */
export async function readRoleText(file: RoleFile): Promise<string> {
  if (file.asset) {
    const asset = readAsset(file.asset);
    if (!asset) throw errors.fileRead(file.path, 'no such built-in role file');
    if (Buffer.byteLength(asset.content) > MAX_ROLE_FILE_BYTES) throw roleErrors.tooLarge(file.path, Buffer.byteLength(asset.content), MAX_ROLE_FILE_BYTES);
    return asset.content;
  }
  const info = await stat(file.path).catch((cause: unknown) => {
    throw errors.fileRead(file.path, (cause as { code?: string }).code === 'ENOENT' ? 'no such file' : cause);
  });
  if (!info.isFile()) throw errors.fileRead(file.path, 'not a file');
  if (info.size > MAX_ROLE_FILE_BYTES) throw roleErrors.tooLarge(file.path, info.size, MAX_ROLE_FILE_BYTES);
  return readFile(file.path, 'utf8');
}
