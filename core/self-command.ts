/** The command line that starts supervisor again: the binary itself, or node + the source entry. */
import { fileURLToPath } from 'node:url';

export function selfCommand(): { bin: string; args: string[] } {
  const binary = (globalThis as { __SUPERVISOR_BINARY__?: boolean }).__SUPERVISOR_BINARY__ === true;
  if (binary) return { bin: process.execPath, args: [] };
  return { bin: process.execPath, args: [fileURLToPath(new URL('../bin/supervisor.mjs', import.meta.url))] };
}
