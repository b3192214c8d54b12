/**
 * Inside the single binary, makes `supervisor/plugin` importable by plugin files on disk, for
 * both `import` and `require`, as a virtual module whose exports are read from a global handle
 * holding the binary's own API namespace. Plugins therefore share the binary's classes
 * (SupervisorError, ...) and helpers instead of a second copy.
 *
 * Uses module.registerHooks (Node >= 22.15, always present in the embedded Node 24). Running
 * from source uses core/plugins/plugin-api-resolution.ts instead.
 */
import * as nodeModule from 'node:module';
import { PLUGIN_API_SPECIFIER } from '../plugins/plugin-api-specifier.ts';

const VIRTUAL_URL = 'supervisor:plugin';
const HANDLE = Symbol.for('supervisor.pluginApi');

type ResolveResult = { url: string; format?: string; shortCircuit?: boolean };
type LoadResult = { format: string; source?: string | Uint8Array; shortCircuit?: boolean };
type RegisterHooks = (hooks: {
  resolve?: (specifier: string, context: unknown, next: (specifier: string, context?: unknown) => ResolveResult) => ResolveResult;
  load?: (url: string, context: unknown, next: (url: string, context?: unknown) => LoadResult) => LoadResult;
}) => unknown;

let installed = false;

/** The ES module source of the virtual module: one named export per API member. */
export function renderApiModuleSource(names: string[]): string {
  const valid = names.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
  return [
    `const api = globalThis[Symbol.for('supervisor.pluginApi')];`,
    `export const { ${valid.join(', ')} } = api;`,
    `export default api;`,
    '',
  ].join('\n');
}

/** Installs the resolution once; later calls do nothing. */
export function installBinaryPluginApi(api: object): void {
  if (installed) return;
  const registerHooks = (nodeModule as unknown as { registerHooks?: RegisterHooks }).registerHooks;
  if (typeof registerHooks !== 'function') {
    throw new Error(`This Node (${process.version}) lacks module.registerHooks; the binary needs Node >= 22.15.`);
  }
  (globalThis as Record<symbol, unknown>)[HANDLE] = api;
  const source = renderApiModuleSource(Object.keys(api));
  registerHooks({
    resolve(specifier, context, next) {
      if (specifier === PLUGIN_API_SPECIFIER) return { url: VIRTUAL_URL, format: 'module', shortCircuit: true };
      return next(specifier, context);
    },
    load(url, context, next) {
      if (url === VIRTUAL_URL) return { format: 'module', source, shortCircuit: true };
      return next(url, context);
    },
  });
  installed = true;
}
