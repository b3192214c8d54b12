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
 * A reader that went away (`supervisor runs show last | head`) is not a crash: what is left to
 * print goes nowhere and the command finishes (a run still commits its work). Other stream
 * errors stay errors.
 */
const closedReaderGuard = new WeakSet<NodeJS.WriteStream>();

function tolerateClosedReader(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!closedReaderGuard.has(stream)) {
    closedReaderGuard.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  return stream;
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
      return tolerateClosedReader(process.stdout);
    },
    get stderr() {
      return tolerateClosedReader(process.stderr);
    },
    importModule: async (file) => (await import('../plugins/load.ts')).importFromDisk(file),
    installPluginApi: async () => (await import('../plugins/plugin-api-resolution.ts')).installPluginApiResolution(),
    onInterrupt: onProcessInterrupt,
  };
}
