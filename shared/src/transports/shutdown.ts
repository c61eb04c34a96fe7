/** Runs `shutdown` once on SIGINT or SIGTERM; returns a function that removes the hooks. */
export function onShutdownSignal(shutdown: () => Promise<void> | void): () => void {
  let started = false;
  const handler = () => {
    if (started) return;
    started = true;
    void Promise.resolve(shutdown());
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
