/**
 * The binary's CliDeps: the same world as core/cli/deps.ts, plus its own plugin loading and
 * `supervisor/plugin` resolution and the folder beside the executable. The standard streams
 * are getters so a command that prints only to stdout never pays for opening stdin and stderr.
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { CliDeps } from '../cli/deps.ts';

export function binaryDeps(pluginApi: object): CliDeps {
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
    // Loaded on first use: start-up of commands without plugins stays free of node:vm and hooks.
    importModule: async (file) => (await import('./import-plugin.ts')).importPluginFile(file),
    besideBinaryDir: dirname(process.execPath),
    installPluginApi: async () => (await import('./plugin-api-hooks.ts')).installBinaryPluginApi(pluginApi),
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}
