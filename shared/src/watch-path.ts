import { readFileSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposer } from './types.js';

type Watcher = import('chokidar').FSWatcher;

/** Errors that mean the OS ran out of watches or descriptors: polling still works. */
const OUT_OF_WATCHES = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

export interface WatchPathOptions {
  /** For a directory: 0 watches its direct entries; anything else (or none) watches the whole tree. */
  depth?: number;
  /** Recursive watches only: paths to leave out. */
  ignored?: (path: string) => boolean;
  /** Told what could not be watched as asked (out of watches: polled instead) and other errors. */
  onError?: (error: Error) => void;
  /** Poll instead of watching. */
  polling?: boolean;
}

/**
 * Watches one file or directory and calls `changed` on any add, change or unlink in it,
 * including changes made by other processes.
 *
 * A file, or a directory's direct entries (`depth: 0`), costs one OS watch per directory,
 * shared by every subscription in the process (a file is watched through its directory,
 * which also survives the file being replaced by rename): 50 subscriptions to directories
 * of 1,000 files take 50 watches, not 50,000. The process has a watch budget (see
 * processWatchRegistry); past it, or when the OS runs out of watches (ENOSPC) or
 * descriptors, a directory is polled instead (its names, and the files subscribed to
 * by name, every 2 s: changes inside other files of a polled directory are not seen),
 * and `onError` says so.
 *
 * A recursive watch of a directory goes through chokidar, loaded on first use.
 */
export async function watchPath(target: string, changed: (path: string) => void, options: WatchPathOptions = {}): Promise<Disposer> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(target)).isDirectory();
  } catch {
    // Not there (yet): watched through its directory, which must exist.
  }
  if (isDirectory && options.depth !== 0) return watchTree(target, changed, options);
  const registry = processWatchRegistry();
  return isDirectory
    ? registry.watch(target, undefined, changed, options)
    : registry.watch(path.dirname(target), path.basename(target), changed, options);
}

interface Listener {
  /** Only this entry of the directory; undefined: every entry. */
  name: string | undefined;
  changed: (path: string) => void;
  onError?: (error: Error) => void;
}

interface DirectoryWatch {
  dir: string;
  listeners: Set<Listener>;
  native?: FSWatcher;
  poll?: NodeJS.Timeout;
  /** What the last poll saw: entry names, and a stamp for each entry watched by name. */
  seen?: { names: Set<string>; stamps: Map<string, string> };
}

export interface WatchRegistryStats {
  /** Directories watched by the OS (one watch each). */
  watched: number;
  /** Directories polled (past the budget, or the OS refused a watch). */
  polled: number;
  /** Most OS watches this process takes. */
  budget: number;
}

/**
 * The process's directory watches: one per directory however many subscriptions share
 * it, at most `budget` of them, then polling.
 */
export interface WatchRegistry {
  watch(dir: string, name: string | undefined, changed: (path: string) => void, options?: WatchPathOptions & { pollMs?: number }): Promise<Disposer>;
  stats(): WatchRegistryStats;
  /** Changes the budget (tests; a host that knows better). Watches already made stay. */
  setBudget(budget: number): void;
}

const POLL_MS = 2_000;

/** A quarter of the user's inotify limit (shared with every other program), at most 8,192. */
function defaultBudget(): number {
  try {
    const limit = Number(readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim());
    if (Number.isFinite(limit) && limit > 0) return Math.max(16, Math.min(8_192, Math.floor(limit / 4)));
  } catch {
    // not Linux
  }
  return 8_192;
}

export function createWatchRegistry(budget: number = defaultBudget()): WatchRegistry {
  const watches = new Map<string, DirectoryWatch>();
  let native = 0;

  const emit = (entry: DirectoryWatch, name: string | null) => {
    for (const listener of [...entry.listeners]) {
      if (name !== null && listener.name !== undefined && listener.name !== name) continue;
      try {
        listener.changed(name === null ? (listener.name === undefined ? entry.dir : path.join(entry.dir, listener.name)) : path.join(entry.dir, name));
      } catch {
        // a listener's failure is its own
      }
    }
  };

  const tell = (listeners: Iterable<Listener>, error: Error) => {
    for (const listener of listeners) {
      try {
        listener.onError?.(error);
      } catch {
        // that subscriber is gone
      }
    }
  };

  const stampOf = (file: string): string => {
    try {
      const s = statSync(file, { bigint: true });
      return `${s.ino}:${s.size}:${s.mtimeNs}`;
    } catch {
      return 'absent';
    }
  };

  const check = (entry: DirectoryWatch) => {
    let names: Set<string>;
    try {
      names = new Set(readdirSync(entry.dir));
    } catch {
      names = new Set();
    }
    const stamps = new Map<string, string>();
    for (const listener of entry.listeners) if (listener.name !== undefined) stamps.set(listener.name, stampOf(path.join(entry.dir, listener.name)));
    const before = entry.seen;
    entry.seen = { names, stamps };
    if (!before) return;
    for (const name of names) if (!before.names.has(name)) emit(entry, name);
    for (const name of before.names) if (!names.has(name)) emit(entry, name);
    for (const [name, stamp] of stamps) {
      const old = before.stamps.get(name);
      if (old !== undefined && old !== stamp && names.has(name) === before.names.has(name)) emit(entry, name);
    }
  };

  const startPolling = (entry: DirectoryWatch, pollMs: number) => {
    check(entry);
    entry.poll = setInterval(() => check(entry), pollMs);
    entry.poll.unref();
  };

  const close = (entry: DirectoryWatch) => {
    watches.delete(entry.dir);
    if (entry.native) {
      entry.native.close();
      entry.native = undefined;
      native--;
    }
    if (entry.poll) clearInterval(entry.poll);
    entry.poll = undefined;
  };

  return {
    async watch(dir, name, changed, options = {}) {
      const listener: Listener = { name, changed, onError: options.onError };
      const pollMs = options.pollMs ?? POLL_MS;
      let entry = watches.get(dir);
      if (!entry) {
        const created: DirectoryWatch = { dir, listeners: new Set() };
        entry = created;
        let why: string | undefined;
        if (options.polling) why = 'polling was asked for';
        else if (native >= budget) why = `this process already watches ${native} directories, its budget`;
        else {
          try {
            const watcher = watch(dir, { persistent: false }, (_event, file) => emit(created, file === null ? null : String(file)));
            native++;
            created.native = watcher;
            watcher.on('error', (error) => {
              // The directory went away, or the OS withdrew the watch: poll from now on.
              if (created.native !== watcher) return;
              created.native = undefined;
              native--;
              watcher.close();
              tell(created.listeners, new Error(`${error.message} watching ${dir}; polling it every ${pollMs / 1000} s`));
              if (watches.get(dir) === created && !created.poll) startPolling(created, pollMs);
            });
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === undefined || !OUT_OF_WATCHES.has(code)) throw error;
            why = `${code} (the system is out of watches or descriptors)`;
          }
        }
        watches.set(dir, created);
        if (why !== undefined) {
          startPolling(created, pollMs);
          created.listeners.add(listener);
          tell([listener], new Error(`${why}: ${dir} is not watched; polling it every ${pollMs / 1000} s instead (changes inside files not subscribed to by name are not seen)`));
          return async () => release(created, listener);
        }
      } else if (entry.poll && !entry.native) {
        tell([listener], new Error(`${dir} is polled, not watched (out of watches); polling it every ${pollMs / 1000} s (changes inside files not subscribed to by name are not seen)`));
      }
      entry.listeners.add(listener);
      if (entry.poll && name !== undefined && entry.seen) entry.seen.stamps.set(name, stampOf(path.join(dir, name)));
      const held = entry;
      return async () => release(held, listener);
    },
    stats() {
      let polled = 0;
      for (const entry of watches.values()) if (entry.poll) polled++;
      return { watched: native, polled, budget };
    },
    setBudget(value) {
      budget = value;
    },
  };

  function release(entry: DirectoryWatch, listener: Listener): void {
    entry.listeners.delete(listener);
    if (entry.listeners.size === 0 && watches.get(entry.dir) === entry) close(entry);
  }
}

// Process-wide on purpose: the OS's watch limit is per user, not per server instance, so
// every server in the process (and every copy of this module a bundle may hold) shares
// one registry and one budget; it hangs off globalThis rather than this module.
const REGISTRY_KEY = Symbol.for('@mcp-reference/shared/watch-registry');

/** The process's watch registry (made on first use). */
export function processWatchRegistry(): WatchRegistry {
  const holder = globalThis as { [REGISTRY_KEY]?: WatchRegistry };
  return (holder[REGISTRY_KEY] ??= createWatchRegistry());
}

/** A whole tree, recursively, with chokidar (loaded on first use). */
async function watchTree(target: string, changed: (path: string) => void, options: WatchPathOptions): Promise<Disposer> {
  const { watch: chokidarWatch } = await import('chokidar');
  let current: Watcher | undefined;
  let closed = false;

  const start = async (usePolling: boolean): Promise<void> => {
    const watcher = chokidarWatch(target, {
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
