/**
 * `supervisor __bridge` in the single binary, started alone: scripts/pkg/sea-main.cjs runs this
 * chunk instead of the app's bundle, since every sandboxed attempt in `allow` mode starts one
 * bridge and the bundle's compile and module set-up are most of a start (see core/sandbox/bridge.ts).
 * Does what core/cli/main.ts does for `__bridge` from source: runs it, renders its error.
 */
import { renderError } from '../command/render-error.ts';
import { runBridge } from '../sandbox/bridge.ts';

export function bridgeMain(argv: string[]): void {
  runBridge(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.exitCode = renderError(error, process.stderr, { json: false, debug: false });
    },
  );
}
