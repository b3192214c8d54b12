/**
 * How the single binary loads a plugin file from disk (.ts .mts .cts .js .mjs .cjs).
 *
 * `require` is the one loader that works from a SEA main script for files on disk: it loads
 * CommonJS, ES modules (require of ESM) and TypeScript (the embedded Node strips types). An ES
 * module with top-level await cannot be required; it goes through an `import()` created at run
 * time with the default loader (the SEA main's own `import()` only reaches built-in modules).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { types } from 'node:util';
import { Script, constants } from 'node:vm';

type DynamicImport = (specifier: string) => Promise<unknown>;
let dynamicImport: DynamicImport | undefined;

/** Node flags the loader constant as experimental; that is ours to know, not the user's to read. */
function withoutLoaderWarning<T>(work: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return work();
  } finally {
    process.emitWarning = emitWarning;
  }
}

function runtimeImport(specifier: string): Promise<unknown> {
  return withoutLoaderWarning(() => {
    dynamicImport ??= new Script('(specifier) => import(specifier)', {
      filename: 'supervisor-plugin-import.js',
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    }).runInThisContext() as DynamicImport;
    return dynamicImport(specifier);
  });
}

/** Loads one plugin file and returns something with the plugin as `default`. */
export async function importPluginFile(file: string): Promise<unknown> {
  let loaded: unknown;
  try {
    loaded = createRequire(file)(file);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
    return runtimeImport(pathToFileURL(file).href);
  }
  // An ES module comes back as its namespace; CommonJS as module.exports, which is the default.
  return types.isModuleNamespaceObject(loaded) ? loaded : { default: loaded };
}
