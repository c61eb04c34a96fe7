/** Runs `shutdown` once on SIGINT or SIGTERM, with the signal's name; returns a function that removes the hooks. */
export function onShutdownSignal(shutdown: (signal: NodeJS.Signals) => Promise<void> | void): () => void {
  let started = false;
  const handler = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    void Promise.resolve(shutdown(signal));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
