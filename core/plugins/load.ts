/** Loads plugin files through an injected import function and checks each one's shape. */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { errors } from '../errors.ts';
import { checkPluginShape } from '../plugin/shape.ts';
import type { Plugin } from '../plugin/contracts.ts';
import { createRegistry, type PluginEntry, type Registry } from '../registry.ts';
import { builtinPlugins } from './builtins.ts';
import { discoverPluginSources, type DiscoverOptions, type PluginSource } from './discover.ts';

/** Imports a module by absolute path and returns its namespace. Swapped inside the binary. */
export type ImportModule = (file: string) => Promise<unknown>;

/** CommonJS plugins go through require so they share the API instance in require's cache. */
export const importFromDisk: ImportModule = async (file) => {
  if (/\.c[jt]s$/.test(file)) return { default: createRequire(file)(file) as unknown };
  return import(pathToFileURL(file).href);
};

/** A CommonJS or transpiled module may nest the default export once more. */
function defaultExport(namespace: unknown): unknown {
  let value = (namespace as { default?: unknown } | null)?.default;
  if (value && typeof value === 'object' && !('kind' in value) && 'default' in value) {
    value = (value as { default: unknown }).default;
  }
  return value;
}

/** Loads and checks one plugin file; throws a SupervisorError naming the file. */
export async function loadPluginFile(file: string, importModule: ImportModule = importFromDisk): Promise<Plugin> {
  let namespace: unknown;
  try {
    namespace = await importModule(file);
  } catch (cause) {
    throw errors.pluginImport(file, cause);
  }
  const checked = checkPluginShape(defaultExport(namespace));
  if (checked.ok) return checked.plugin;
  if (checked.unknownKind) throw errors.pluginUnknownKind(file, checked.kind);
  throw errors.pluginShape(file, checked.problems);
}

async function loadSource(source: PluginSource, importModule: ImportModule): Promise<PluginEntry[]> {
  const entries: PluginEntry[] = [];
  const seen = new Map<string, string>();
  for (const file of source.files) {
    const plugin = await loadPluginFile(file, importModule);
    const key = `${plugin.kind}:${plugin.name}`;
    const other = seen.get(key);
    if (other) throw errors.pluginDuplicate(file, plugin.kind, plugin.name, other);
    seen.set(key, file);
    entries.push({ plugin, source: file, layer: source.layer });
  }
  return entries;
}

export function builtinEntries(): PluginEntry[] {
  return builtinPlugins.map(({ file, plugin }) => ({ plugin, source: `builtin:${file}`, layer: 'builtin' }));
}

export interface LoadRegistryOptions extends DiscoverOptions {
  importModule?: ImportModule;
  /** Makes `supervisor/plugin` importable; called only when there are plugin files to load. */
  installPluginApi?: () => Promise<void>;
}

export interface LoadedPlugins {
  registry: Registry;
  /** What discovery found in each plugin folder and --plugin path, in load order. */
  sources: PluginSource[];
}

/** Built-ins, then each plugin folder, then --plugin paths; later overrides earlier. */
export async function loadPlugins(options: LoadRegistryOptions): Promise<LoadedPlugins> {
  const entries: PluginEntry[] = builtinEntries();
  const sources = await discoverPluginSources(options);
  // Built-ins need no module resolution hooks: install them only for files from disk.
  if (sources.some((source) => source.files.length > 0)) await options.installPluginApi?.();
  for (const source of sources) entries.push(...(await loadSource(source, options.importModule ?? importFromDisk)));
  return { registry: createRegistry(entries), sources };
}

/** The registry alone (scripts and tests that need no discovery report). */
export async function loadRegistry(options: LoadRegistryOptions): Promise<Registry> {
  return (await loadPlugins(options)).registry;
}
