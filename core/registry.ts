/** The typed plugin registry: validated at registration, frozen, looked up by (kind, name). */
import { errors } from './errors.ts';
import type { Plugin, PluginKind } from './plugin-api/contracts.ts';

/** Where a plugin came from, and what it replaced. */
export interface PluginEntry<K extends PluginKind = PluginKind> {
  plugin: Plugin<K>;
  /** "builtin" or the absolute path of the plugin file. */
  source: string;
  /** Which layer it came from: builtin, beside-binary, user, repo, cli. */
  layer: string;
  /** The source of the plugin this one overrides, if any. */
  overrides?: string;
}

export interface Registry {
  /** The plugin of that kind and name; throws PLUGIN_NOT_FOUND listing the known names. */
  get<K extends PluginKind>(kind: K, name: string): Plugin<K>;
  has(kind: PluginKind, name: string): boolean;
  /** Names of one kind, sorted. */
  names(kind: PluginKind): string[];
  /** Every entry, sorted by kind then name. */
  list(): readonly PluginEntry[];
  entry(kind: PluginKind, name: string): PluginEntry | undefined;
}

/** Lower-case letters, digits and "-": the names of every built-in plugin and kind. */
const PLAIN = /^[a-z0-9-]*$/;

/**
 * localeCompare's order without its cost where it is the same: on plain names it equals the
 * order of code points, and the first localeCompare of a process sets up ICU's collator
 * (~13 ms, on every command's start). Any other name is compared by localeCompare as before.
 */
export function compareNames(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}

/**
 * Builds a registry from entries in load order: a later entry with the same kind and name
 * overrides an earlier one and records which it replaced.
 */
export function createRegistry(entries: Iterable<Omit<PluginEntry, 'overrides'>>): Registry {
  const byKey = new Map<string, PluginEntry>();
  for (const entry of entries) {
    const key = `${entry.plugin.kind}:${entry.plugin.name}`;
    const previous = byKey.get(key);
    byKey.set(key, Object.freeze(previous ? { ...entry, overrides: previous.source } : { ...entry }));
  }
  const sorted = Object.freeze(
    [...byKey.values()].sort((a, b) =>
      a.plugin.kind === b.plugin.kind ? compareNames(a.plugin.name, b.plugin.name) : compareNames(a.plugin.kind, b.plugin.kind),
    ),
  );
  const names = (kind: PluginKind) => sorted.filter((e) => e.plugin.kind === kind).map((e) => e.plugin.name);

  return Object.freeze({
    get<K extends PluginKind>(kind: K, name: string): Plugin<K> {
      const found = byKey.get(`${kind}:${name}`);
      if (!found) throw errors.pluginNotFound(kind, name, names(kind));
      return found.plugin as Plugin<K>;
    },
    has: (kind: PluginKind, name: string) => byKey.has(`${kind}:${name}`),
    names,
    list: () => sorted,
    entry: (kind: PluginKind, name: string) => byKey.get(`${kind}:${name}`),
  });
}
