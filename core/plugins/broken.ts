/**
 * A registry that knows which plugin files failed to load: asking for a plugin whose name is a
 * broken file's stem throws that file's own error (with its file, line and column) instead of
 * PLUGIN_NOT_FOUND, even when a plugin of that name exists in an earlier layer (the broken file
 * was meant to replace it). Everything else is the plain registry's.
 */
import type { SupervisorError } from '../errors.ts';
import type { PluginKind } from '../plugin-api/contracts.ts';
import type { Registry } from '../registry.ts';
import { pluginStem } from './discover.ts';

/** A plugin file that failed to load, in the layer (folder) it came from. */
export interface BrokenPlugin {
  file: string;
  layer: string;
  error: SupervisorError;
}

export function withBrokenPlugins(registry: Registry, broken: readonly BrokenPlugin[]): Registry {
  if (broken.length === 0) return registry;
  const brokenNamed = (name: string) => broken.find((b) => pluginStem(b.file) === name);
  return Object.freeze({
    ...registry,
    get<K extends PluginKind>(kind: K, name: string) {
      const failed = brokenNamed(name);
      if (failed) throw failed.error;
      return registry.get(kind, name);
    },
  });
}
