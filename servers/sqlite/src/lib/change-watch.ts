// Notices changes to watched tables, whoever made them. While something is watched, it
// stats the database and its -wal file (another process's commit changes one of them) and,
// when they moved or this server wrote, asks for fingerprints of the watched tables only
// and of the schema. Nothing runs while nothing is watched.
import { stat } from 'node:fs/promises';

export interface Fingerprints {
  schema: string;
  tables: Record<string, string>;
}

export interface ChangeWatchOptions {
  dbPath: string;
  fingerprint(tables: string[]): Promise<Fingerprints>;
  /** How often the files are checked while something is watched. */
  intervalMs?: number;
  onError?(error: unknown): void;
}

export interface ChangeWatch {
  /** Calls `changed` when `table` changes (undefined: when the schema changes). Returns how to stop. */
  watch(table: string | undefined, changed: () => void): Promise<() => void>;
  /** This server wrote: check at the next tick, whatever the files say. */
  poke(): void;
  close(): void;
}

export function createChangeWatch(options: ChangeWatchOptions): ChangeWatch {
  type Watcher = { table: string | undefined; changed: () => void; print?: string };
  const watchers = new Set<Watcher>();
  let timer: NodeJS.Timeout | undefined;
  let stamp = '';
  let dirty = false;
  let checking = false;

  const fileStamp = async () => {
    const parts = await Promise.all(
      [options.dbPath, `${options.dbPath}-wal`].map((file) =>
        stat(file, { bigint: true }).then((s) => `${s.ino}:${s.size}:${s.mtimeNs}`, () => '-'),
      ),
    );
    return parts.join('|');
  };
  const printOf = (prints: Fingerprints, table: string | undefined) => (table === undefined ? prints.schema : (prints.tables[table] ?? 'missing'));
  const tables = () => [...new Set([...watchers].map((w) => w.table).filter((t): t is string => t !== undefined))];

  const check = async () => {
    if (checking || watchers.size === 0) return;
    checking = true;
    try {
      const now = await fileStamp();
      if (now === stamp && !dirty) return;
      stamp = now;
      dirty = false;
      const prints = await options.fingerprint(tables());
      for (const watcher of watchers) {
        const print = printOf(prints, watcher.table);
        if (watcher.print !== undefined && watcher.print !== print) watcher.changed();
        watcher.print = print;
      }
    } catch (error) {
      options.onError?.(error);
    } finally {
      checking = false;
    }
  };

  return {
    async watch(table, changed) {
      const watcher: Watcher = { table, changed };
      watchers.add(watcher);
      if (!timer) {
        stamp = await fileStamp();
        timer = setInterval(() => void check(), options.intervalMs ?? 250);
        timer.unref();
      }
      try {
        watcher.print = printOf(await options.fingerprint(table === undefined ? [] : [table]), table);
      } catch (error) {
        options.onError?.(error);
      }
      return () => {
        watchers.delete(watcher);
        if (watchers.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    poke() {
      dirty = true;
      void check();
    },
    close() {
      watchers.clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
