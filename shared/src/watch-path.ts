import type { Disposer } from './types.js';

type Watcher = import('chokidar').FSWatcher;

/** Errors that mean the OS ran out of watches or descriptors: polling still works. */
const OUT_OF_WATCHES = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

/**
 * Watches one file or directory (recursively) with chokidar and calls `changed` on any
 * add, change or unlink under it, including changes made by other processes. chokidar is
 * loaded on the first subscription, so servers that are never subscribed to never pay
 * for it at start-up.
 *
 * Every watcher keeps an error listener for its whole life: when inotify runs out of
 * watches (ENOSPC) or descriptors (EMFILE), the watch degrades to polling instead of
 * crashing the process; any other error is reported to `onError` and the watch goes on.
 */
export async function watchPath(
  target: string,
  changed: (path: string) => void,
  options: { depth?: number; ignored?: (path: string) => boolean; onError?: (error: Error) => void; polling?: boolean } = {},
): Promise<Disposer> {
  const { watch } = await import('chokidar');
  let current: Watcher | undefined;
  let closed = false;

  const start = async (usePolling: boolean): Promise<void> => {
    const watcher = watch(target, {
      ignoreInitial: true,
      depth: options.depth,
      ignored: options.ignored,
      // Atomic writes (temp + rename) show up as unlink + add; chokidar folds them.
      atomic: true,
      awaitWriteFinish: false,
      usePolling,
      ...(usePolling ? { interval: 1_000, binaryInterval: 2_000 } : {}),
    });
    current = watcher;
    watcher.on('all', (_event, path) => changed(path));
    let ready = false;
    await new Promise<void>((resolve, reject) => {
      watcher.on('error', (raw) => {
        const error = raw instanceof Error ? raw : new Error(String(raw));
        const code = (error as NodeJS.ErrnoException).code;
        if (!usePolling && code !== undefined && OUT_OF_WATCHES.has(code) && !closed && current === watcher) {
          options.onError?.(new Error(`${code} watching ${target}; falling back to polling`));
          current = undefined;
          void watcher.close().catch(() => undefined);
          start(true).then(resolve, reject);
          return;
        }
        if (!ready) reject(error);
        else options.onError?.(error);
      });
      watcher.once('ready', () => {
        ready = true;
        resolve();
      });
    });
  };

  try {
    await start(options.polling ?? false);
  } catch (error) {
    await current?.close().catch(() => undefined);
    throw error;
  }
  return async () => {
    closed = true;
    await current?.close().catch(() => undefined);
  };
}
