import type { Disposer } from './types.js';

/**
 * Watches one file or directory (recursively) with chokidar and calls `changed` on any
 * add, change or unlink under it, including changes made by other processes. chokidar is
 * loaded on the first subscription, so servers that are never subscribed to never pay
 * for it at start-up.
 */
export async function watchPath(
  target: string,
  changed: (path: string) => void,
  options: { depth?: number; ignored?: (path: string) => boolean } = {},
): Promise<Disposer> {
  const { watch } = await import('chokidar');
  const watcher = watch(target, {
    ignoreInitial: true,
    depth: options.depth,
    ignored: options.ignored,
    // Atomic writes (temp + rename) show up as unlink + add; chokidar folds them.
    atomic: true,
    awaitWriteFinish: false,
  });
  watcher.on('all', (_event, path) => changed(path));
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', resolve);
    watcher.once('error', reject);
  });
  return () => watcher.close();
}
