/** The command line that starts supervisor again: the binary itself, or node + the source entry. */
import { fileURLToPath } from 'node:url';

export function selfCommand(): { bin: string; args: string[] } {
  // Only the binary inlines its assets (core/binary/main.ts sets them, core/assets.ts reads them).
  const binary = (globalThis as { __SUPERVISOR_ASSETS__?: unknown }).__SUPERVISOR_ASSETS__ !== undefined;
  if (binary) return { bin: process.execPath, args: [] };
  return { bin: process.execPath, args: [fileURLToPath(new URL('../bin/supervisor.mjs', import.meta.url))] };
}
