/**
 * Entry of the single binary (bundled by scripts/build.mjs, packed by pkg in SEA mode).
 * Marks the process as the binary, hands over the inlined built-in assets, swaps in the
 * binary's plugin loading and `supervisor/plugin` resolution (see deps.ts), and runs the CLI.
 */
import * as pluginApi from '../plugin/index.ts';
import { main } from '../cli/main.ts';
import { renderError } from '../cli/render-error.ts';
import { binaryDeps } from './deps.ts';

/** roles/, prompts/ and schemas/ by relative path; an object literal the build puts in front. */
declare const SUPERVISOR_INLINED_ASSETS: Record<string, string>;

const state = globalThis as { __SUPERVISOR_BINARY__?: boolean; __SUPERVISOR_ASSETS__?: Record<string, string> };
state.__SUPERVISOR_BINARY__ = true;
state.__SUPERVISOR_ASSETS__ = SUPERVISOR_INLINED_ASSETS;

main(process.argv.slice(2), binaryDeps(pluginApi)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => (process.exitCode = renderError(error, process.stderr, { json: process.argv.includes('--json'), debug: true })),
);
