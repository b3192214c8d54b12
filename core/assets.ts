/**
 * Built-in assets (roles/, prompts/, schemas/). From source they are read from the project
 * folder; inside the single binary the build inlines them and sets globalThis.__SUPERVISOR_ASSETS__.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  /** Path relative to the project root, e.g. "roles/planner.yaml". */
  name: string;
  /** What to show users as the file: an absolute path from source, "<builtin>/roles/x.yaml" in the binary. */
  displayPath: string;
  content: string;
}

type InlinedAssets = Record<string, string>;

function inlined(): InlinedAssets | undefined {
  return (globalThis as { __SUPERVISOR_ASSETS__?: InlinedAssets }).__SUPERVISOR_ASSETS__;
}

/** The project root when running from source. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Names of the assets directly inside a folder ("roles"), sorted. */
export function listAssets(folder: string): string[] {
  const bundle = inlined();
  if (bundle) return Object.keys(bundle).filter((name) => name.startsWith(`${folder}/`) && !name.slice(folder.length + 1).includes('/')).sort();
  try {
    return readdirSync(join(PROJECT_ROOT, folder), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `${folder}/${entry.name}`)
      .sort();
  } catch {
    return [];
  }
}

/** One asset by name, or undefined when it does not exist. */
export function readAsset(name: string): Asset | undefined {
  if (name.includes('..') || name.startsWith('/')) return undefined;
  const bundle = inlined();
  if (bundle) {
    const content = bundle[name];
    return content === undefined ? undefined : { name, displayPath: `<builtin>/${name}`, content };
  }
  try {
    const path = join(PROJECT_ROOT, name);
    return { name, displayPath: path, content: readFileSync(path, 'utf8') };
  } catch {
    return undefined;
  }
}

/** The folders whose files are inlined into the binary. */
export const ASSET_FOLDERS = ['roles', 'prompts', 'schemas'] as const;
