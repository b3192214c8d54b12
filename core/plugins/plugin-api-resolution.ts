/**
 * Makes `supervisor/plugin` resolve for plugin files anywhere on disk when running from source.
 * (The single binary installs its own resolution: core/binary/plugin-api-hooks.ts.) Idempotent.
 *
 * ESM plugins go through a resolve hook to the API module. CommonJS plugins get the very same
 * module instance through require's cache, so classes such as SupervisorError are shared.
 */
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { PLUGIN_API_SPECIFIER } from './plugin-api-specifier.ts';

const API_URL = new URL('../plugin-api/index.ts', import.meta.url);
let installed: Promise<void> | undefined;

type ModuleInternals = {
  _resolveFilename: (request: string, ...rest: unknown[]) => string;
  _cache: Record<string, unknown>;
};

/** Puts an already-loaded namespace into require's cache under the specifier. */
export function exposeToRequire(specifier: string, namespace: object, id: string): void {
  const internals = Module as unknown as ModuleInternals;
  const entry = new Module(id);
  Object.assign(entry, { filename: id, loaded: true, exports: namespace });
  internals._cache[id] = entry;
  const original = internals._resolveFilename;
  internals._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === specifier ? id : original.call(this, request, ...rest);
  };
}

export function installPluginApiResolution(): Promise<void> {
  installed ??= (async () => {
    register(new URL('./resolve-hooks.mjs', import.meta.url), { data: { specifier: PLUGIN_API_SPECIFIER, apiUrl: API_URL.href } });
    const api = await import('../plugin-api/index.ts');
    exposeToRequire(PLUGIN_API_SPECIFIER, api, `${fileURLToPath(API_URL)}#commonjs`);
  })();
  return installed;
}
