/**
 * Entry of the single binary (bundled by scripts/build.mjs, packed by pkg in SEA mode, started
 * by scripts/pkg/sea-main.cjs). Hands over the inlined built-in assets, which also mark the
 * process as the binary, and runs the CLI with the binary's deps (see deps.ts).
 */
import { runEntry } from '../cli/entry.ts';
import { main } from '../cli/main.ts';
import { binaryDeps } from './deps.ts';

/** roles/, prompts/ and schemas/ by relative path; an object literal the build puts in front. */
declare const SUPERVISOR_INLINED_ASSETS: Record<string, string>;

// Inlined assets also mark the process as the binary (core/self-command.ts).
(globalThis as { __SUPERVISOR_ASSETS__?: Record<string, string> }).__SUPERVISOR_ASSETS__ = SUPERVISOR_INLINED_ASSETS;

const argv = process.argv.slice(2);
runEntry(argv, async () => main(argv, await binaryDeps()));
