/**
 * Entry of the single binary (bundled by scripts/build.mjs, packed by pkg in SEA mode).
 * Marks the process as the binary, hands over the inlined built-in assets, swaps in the
 * binary's plugin loading and `supervisor/plugin` resolution, and runs the CLI.
 */
import { dirname } from 'node:path';
import * as pluginApi from '../plugin/index.ts';
import { main } from '../cli/main.ts';
import { defaultDeps } from '../cli/deps.ts';
import { renderError } from '../cli/render-error.ts';
import { importPluginFile } from './import-plugin.ts';
import { installBinaryPluginApi } from './plugin-api-hooks.ts';

/** roles/, prompts/ and schemas/ by relative path; replaced with an object literal by the build. */
declare const SUPERVISOR_INLINED_ASSETS: Record<string, string>;

const state = globalThis as { __SUPERVISOR_BINARY__?: boolean; __SUPERVISOR_ASSETS__?: Record<string, string> };
state.__SUPERVISOR_BINARY__ = true;
state.__SUPERVISOR_ASSETS__ = SUPERVISOR_INLINED_ASSETS;

async function start(): Promise<void> {
  const deps = {
    ...(await defaultDeps()),
    importModule: importPluginFile,
    besideBinaryDir: dirname(process.execPath),
    installPluginApi: async () => installBinaryPluginApi(pluginApi),
  };
  process.exitCode = await main(process.argv.slice(2), deps);
}

start().catch((error: unknown) => {
  process.exitCode = renderError(error, process.stderr, { json: process.argv.includes('--json'), debug: true });
});
