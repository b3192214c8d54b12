/**
 * The binary's CliDeps: the same world as core/cli/deps.ts, plus its own plugin loading and
 * `supervisor/plugin` resolution and the folder beside the executable. The build puts this
 * module in place of core/cli/deps.ts (which imports the plugin loader, and with it every
 * built-in plugin, at start-up): here the loader comes with the registry, on first use.
 * The standard streams are getters so a command that prints only to stdout never pays for
 * opening stdin and stderr.
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { CliDeps } from '../cli/deps.ts';
import { onProcessInterrupt } from '../cli/interrupt.ts';

export async function defaultDeps(): Promise<CliDeps> {
  return {
    cwd: process.cwd(),
    env: process.env,
    homeDir: homedir(),
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    importModule: async (file) => (await import('./import-plugin.ts')).importPluginFile(file),
    besideBinaryDir: dirname(process.execPath),
    // The API given to plugins is the very module instance the binary's own code uses.
    installPluginApi: async () => (await import('./plugin-api-hooks.ts')).installBinaryPluginApi(await import('../plugin/index.ts')),
    onInterrupt: onProcessInterrupt,
  };
}
