import os from 'node:os';

/**
 * At most `size` pieces of work at once (fetches, child processes); the rest wait their
 * turn, first come first served, and one cancelled while it waits leaves the queue without
 * starting anything.
 */
export interface Slots {
  /** Waits for a free slot (rejecting with the signal's reason if it aborts first) and returns the function that gives it back. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  stats(): { running: number; waiting: number; size: number };
}

interface Waiter {
  grant: () => void;
  onAbort?: () => void;
}

export function createSlots(size: number): Slots {
  let running = 0;
  const queue: Waiter[] = [];
  const release = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      const next = queue.shift();
      if (next) next.grant();
    };
  };
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
      if (running < size) {
        running++;
        return Promise.resolve(release());
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          grant: () => {
            if (waiter.onAbort) signal?.removeEventListener('abort', waiter.onAbort);
            running++;
            resolve(release());
          },
        };
        if (signal) {
          waiter.onAbort = () => {
            const at = queue.indexOf(waiter);
            if (at >= 0) queue.splice(at, 1);
            reject(signal.reason ?? new Error('aborted'));
          };
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        queue.push(waiter);
      });
    },
    stats: () => ({ running, waiting: queue.length, size }),
  };
}

/**
 * How many short-lived child processes (a `git log`, a `git grep`) run at once: four a core,
 * at least eight. A client that sends hundreds of calls together started a process for
 * each: 300 concurrent `git_grep` calls ran 300 git processes, held 1.1 GB and left pings
 * waiting 2 s. Long-lived processes a server keeps (a `git cat-file --batch`, a paused
 * `git log` behind a cursor) take no slot: they would hold one for as long as they live.
 */
export function defaultProcessSlotCount(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(8, 4 * cores);
}

// Process-wide on purpose, like the worker pool: the cores and memory belong to the
// process, and every server in it (and every copy of this module a bundle may hold)
// must share them, so the slots hang off globalThis rather than this module.
const SLOTS_KEY = Symbol.for('@mcp-reference/shared/child-process-slots');

/** The process's slots for short-lived child processes (made on first use). */
export function childProcessSlots(): Slots {
  const holder = globalThis as { [SLOTS_KEY]?: Slots };
  return (holder[SLOTS_KEY] ??= createSlots(defaultProcessSlotCount()));
}
