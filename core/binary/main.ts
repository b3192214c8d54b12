/**
 * Entry of the single binary (bundled by scripts/build.mjs, packed by pkg in SEA mode, started
 * by scripts/pkg/sea-main.cjs). Hands over the inlined built-in assets, which also mark the
 * process as the binary, and runs the CLI with the binary's deps (see deps.ts).
 */
import { main } from '../cli/main.ts';
import { renderError } from '../cli/render-error.ts';
import { binaryDeps } from './deps.ts';

/** roles/, prompts/ and schemas/ by relative path; an object literal the build puts in front. */
declare const SUPERVISOR_INLINED_ASSETS: Record<string, string>;

// Inlined assets also mark the process as the binary (core/self-command.ts).
(globalThis as { __SUPERVISOR_ASSETS__?: Record<string, string> }).__SUPERVISOR_ASSETS__ = SUPERVISOR_INLINED_ASSETS;

binaryDeps()
  .then((deps) => main(process.argv.slice(2), deps))
  .then(
    (code) => (process.exitCode = code),
    (error: unknown) => (process.exitCode = renderError(error, process.stderr, { json: process.argv.includes('--json'), debug: true })),
  );
