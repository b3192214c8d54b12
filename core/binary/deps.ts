/**
 * The binary's CliDeps: the source's (core/command/deps.ts) with its own plugin loading, its own
 * `supervisor/plugin` resolution, and the folder beside the executable.
 */
import { dirname } from 'node:path';
import { defaultDeps, type CliDeps } from '../command/deps.ts';

export async function binaryDeps(): Promise<CliDeps> {
  // Assigned, not spread: spreading would read (and so open) the standard-stream getters.
  return Object.assign(await defaultDeps(), {
    importModule: async (file: string) => (await import('./import-plugin.ts')).importPluginFile(file),
    besideBinaryDir: dirname(process.execPath),
    // The API given to plugins is the very module instance the binary's own code uses.
    installPluginApi: async () => (await import('./plugin-api-hooks.ts')).installBinaryPluginApi(await import('../plugin-api/index.ts')),
  } satisfies Partial<CliDeps>);
}
