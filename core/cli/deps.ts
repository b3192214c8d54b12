/** Everything the CLI takes from the outside world, injected so tests can swap it. */
import { homedir } from 'node:os';
import type { ImportModule } from '../plugins/load.ts';
import { onProcessInterrupt } from './interrupt.ts';

export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Width of the terminal, when the stream is one. */
  columns?: number;
}

export interface CliDeps {
  cwd: string;
  env: Record<string, string | undefined>;
  homeDir: string;
  stdin: NodeJS.ReadableStream;
  stdout: OutputStream;
  stderr: OutputStream;
  importModule: ImportModule;
  /** Folder of the executable when running as the single binary (for its plugins/ folder). */
  besideBinaryDir?: string;
  /** Makes `supervisor/plugin` importable by plugin files; differs inside the binary. */
  installPluginApi: () => Promise<void>;
  /** Registers a handler for Ctrl-C, SIGHUP and SIGTERM (it learns which); returns its remover. */
  onInterrupt: (handler: (signal: 'SIGINT' | 'SIGHUP' | 'SIGTERM') => void) => () => void;
}

/**
 * The process's own world, running from source. The plugin loader (and with it every built-in
 * plugin) and the API resolution are imported on first use, so start-up pays for neither; the
 * standard streams are getters, so a command that prints only to stdout never opens stdin and
 * stderr. The single binary swaps the plugin parts (core/binary/deps.ts).
 */
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
    importModule: async (file) => (await import('../plugins/load.ts')).importFromDisk(file),
    installPluginApi: async () => (await import('../plugins/plugin-api-resolution.ts')).installPluginApiResolution(),
    onInterrupt: onProcessInterrupt,
  };
}
