/** Everything the CLI takes from the outside world, injected so tests can swap it. */
import { homedir } from 'node:os';
import { importFromDisk, type ImportModule } from '../plugins/load.ts';
import { onProcessInterrupt } from './interrupt.ts';

export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
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
  /** Registers a Ctrl-C handler; returns its remover. */
  onInterrupt: (handler: () => void) => () => void;
}

export async function defaultDeps(): Promise<CliDeps> {
  return {
    cwd: process.cwd(),
    env: process.env,
    homeDir: homedir(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    importModule: importFromDisk,
    installPluginApi: async () => (await import('../plugins/plugin-api-resolution.ts')).installPluginApiResolution(),
    onInterrupt: onProcessInterrupt,
  };
}
