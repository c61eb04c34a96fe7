/**
 * Writes to one path, one at a time, within a process: edit_file reads, edits and
 * renames; two of those interleaved would each read the old file and the second rename
 * would drop the first's change. A server instance holds one of these for all its
 * sessions (no module state), and every write to a path runs inside `run(path, ...)`.
 */
export interface PathLocks {
  /** Runs `task` once every earlier task for `key` has settled; tasks for other keys run freely. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Keys with a task running or waiting (for tests: the map does not grow without bound). */
  size(): number;
}

export function createPathLocks(): PathLocks {
  const tails = new Map<string, Promise<void>>();
  return {
    async run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const done = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => done);
      tails.set(key, tail);
      try {
        await previous;
        return await task();
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
    size: () => tails.size,
  };
}
