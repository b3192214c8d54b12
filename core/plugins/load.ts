/** Loads plugin files through an injected import function and checks each one's shape. */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { errors, isSupervisorError } from '../errors.ts';
import { checkPluginShape } from '../plugin-api/shape.ts';
import { PLUGIN_KINDS, type Plugin } from '../plugin-api/contracts.ts';
import { createRegistry, type PluginEntry, type Registry } from '../registry.ts';
import { builtinPlugins } from './builtins.ts';
import { withBrokenPlugins, type BrokenPlugin } from './broken.ts';
import { hookLimitMs, removePrototypeAdditions, withTimeLimit } from './call-hook.ts';
import { discoverPluginSources, pluginStem, type DiscoverOptions, type PluginSource } from './discover.ts';

export { pluginStem };
import { pluginErrors } from './errors.ts';
import { loadErrorLocation } from './error-location.ts';

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

/**
 * Loads and checks one plugin file; throws a SupervisorError naming the file. The import runs
 * under the hooks' time limit (a module that awaits forever at import is PLUGIN_TIMEOUT), and
 * the plugin's name must equal its file stem.
 */
export async function loadPluginFile(file: string, importModule: ImportModule = importFromDisk, limitMs = hookLimitMs('import')): Promise<Plugin> {
  let namespace: unknown;
  try {
    namespace = await withTimeLimit(Promise.resolve().then(() => importModule(file)), file, 'import', limitMs);
  } catch (cause) {
    removePrototypeAdditions();
    if (isSupervisorError(cause) && cause.code === 'PLUGIN_TIMEOUT') throw cause;
    throw pluginErrors.importFailed(file, loadErrorLocation(file, cause), cause);
  }
  const added = removePrototypeAdditions();
  if (added.length) throw pluginErrors.pollution(file, 'import', added);
  const checked = checkPluginShape(defaultExport(namespace));
  if (!checked.ok) {
    if (checked.unknownKind) throw errors.pluginUnknownKind(file, checked.kind, PLUGIN_KINDS);
    throw errors.pluginShape(file, checked.problems);
  }
  const stem = pluginStem(file);
  if (checked.plugin.name !== stem) throw pluginErrors.nameMismatch(file, checked.plugin.name, stem);
  return checked.plugin;
}

/** A plugin file that could not be loaded, kept so commands that do not need it go on. */
export type { BrokenPlugin };

async function loadSource(source: PluginSource, importModule: ImportModule, broken: BrokenPlugin[]): Promise<PluginEntry[]> {
  const entries: PluginEntry[] = [];
  const seen = new Map<string, string>();
  for (const file of source.files) {
    let plugin: Plugin;
    try {
      plugin = await loadPluginFile(file, importModule);
    } catch (error) {
      // A path given with --plugin was asked for by name: its failure stops the command.
      if (source.layer === 'cli' || !isSupervisorError(error)) throw error;
      broken.push({ file, layer: source.layer, error });
      continue;
    }
    const key = `${plugin.kind}:${plugin.name}`;
    const other = seen.get(key);
    if (other) {
      const error = errors.pluginDuplicate(file, plugin.kind, plugin.name, other);
      if (source.layer === 'cli') throw error;
      broken.push({ file, layer: source.layer, error });
      continue;
    }
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
  /** Plugin files of the folders that failed to load (reported, and named when a command needs them). */
  broken: BrokenPlugin[];
}

/** Built-ins, then each plugin folder, then --plugin paths; later overrides earlier. */
export async function loadPlugins(options: LoadRegistryOptions): Promise<LoadedPlugins> {
  const entries: PluginEntry[] = builtinEntries();
  const sources = await discoverPluginSources(options);
  // Built-ins need no module resolution hooks: install them only for files from disk.
  if (sources.some((source) => source.files.length > 0)) await options.installPluginApi?.();
  const broken: BrokenPlugin[] = [];
  for (const source of sources) entries.push(...(await loadSource(source, options.importModule ?? importFromDisk, broken)));
  return { registry: withBrokenPlugins(createRegistry(entries), broken), sources, broken };
}

/** The registry alone (scripts and tests that need no discovery report). */
export async function loadRegistry(options: LoadRegistryOptions): Promise<Registry> {
  return (await loadPlugins(options)).registry;
}
