/**
 * Entry of the single binary (bundled by scripts/build.mjs, packed by pkg in SEA mode, started
 * by scripts/pkg/sea-main.cjs). Marks the process as the binary, hands over the inlined
 * built-in assets, and runs the CLI with the binary's deps (see deps.ts).
 */
import { main } from '../cli/main.ts';
import { renderError } from '../cli/render-error.ts';
import { defaultDeps } from './deps.ts';

/** roles/, prompts/ and schemas/ by relative path; an object literal the build puts in front. */
declare const SUPERVISOR_INLINED_ASSETS: Record<string, string>;

const state = globalThis as { __SUPERVISOR_BINARY__?: boolean; __SUPERVISOR_ASSETS__?: Record<string, string> };
state.__SUPERVISOR_BINARY__ = true;
state.__SUPERVISOR_ASSETS__ = SUPERVISOR_INLINED_ASSETS;

defaultDeps()
  .then((deps) => main(process.argv.slice(2), deps))
  .then(
    (code) => (process.exitCode = code),
    (error: unknown) => (process.exitCode = renderError(error, process.stderr, { json: process.argv.includes('--json'), debug: true })),
  );
