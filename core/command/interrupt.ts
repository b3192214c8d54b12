/** Ctrl-C, SIGHUP and SIGTERM reach the running command through one handler, removed when it is done. */
import { onStopSignal, type StopSignal } from '../process/stop-signals.ts';

export function onProcessInterrupt(handler: (signal: StopSignal) => void): () => void {
  return onStopSignal(handler);
}
