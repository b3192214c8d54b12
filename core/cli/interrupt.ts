/** Ctrl-C (and TERM) reach the running command through one handler, removed when it is done. */
export function onProcessInterrupt(handler: () => void): () => void {
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
