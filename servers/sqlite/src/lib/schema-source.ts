import type { Engine } from './engine.js';
import type { QuickReader } from './quick-reader.js';
import type { Schema } from './schema.js';

/**
 * Where the schema comes from. A small one is read in the server process (quick-reader.ts,
 * kept there per schema version). A large one is read by an engine process, off this
 * process's event loop (20,000 tables took 3.3 s of it), and its answer is kept here until
 * the schema version changes, which the server process reads without reading the schema:
 * after the first read, list_tables, describe_table and the completions of such a
 * database answer from memory.
 *
 * Calls that need a large schema while it is being read wait for that read instead of
 * starting their own: 100 concurrent list_tables on 20,000 tables each read it, took every
 * engine process for 30 s, and 46 of them failed waiting for one. The read is stopped when
 * every call that waits for it has been cancelled.
 */
export function createSchemaSource(quick: QuickReader, engine: Engine): (signal?: AbortSignal) => Promise<Schema> {
  let kept: { version: unknown; schema: Schema } | undefined;
  let reading: { version: unknown; read: SharedRead<Schema> } | undefined;
  const readSchema = async (signal?: AbortSignal) => JSON.parse((await engine.call<{ json: string }>('schema', {}, { signal })).json) as Schema;
  return async (signal) => {
    const small = quick.schema() as Schema | undefined;
    if (small !== undefined) return small;
    // Read before the engine reads the schema: if it changes meanwhile, what is kept is newer
    // than its version says, and the next call reads it again.
    const version = quick.schemaVersion();
    if (version === undefined) return readSchema(signal);
    if (kept?.version === version) return kept.schema;
    // (A read every caller left is being stopped: a new caller starts another.)
    if (reading?.version !== version || reading.read.stopped) {
      const read = shareRead(readSchema);
      reading = { version, read };
      read.done.then(
        (schema) => {
          if (reading?.read === read) reading = undefined;
          kept = { version, schema };
        },
        () => {
          if (reading?.read === read) reading = undefined;
        },
      );
    }
    return reading.read.join(signal);
  };
}

interface SharedRead<T> {
  /** Settles with the read (rejected if it failed or every caller left). */
  done: Promise<T>;
  /** True once every caller has left and the read is being stopped. */
  readonly stopped: boolean;
  /** The read's result for one caller, who may leave (its signal aborts) without stopping it for the others. */
  join(signal?: AbortSignal): Promise<T>;
}

/**
 * One run of `read` for every caller that joins while it runs; aborted once all of them have
 * left. The callers go on one a turn of the event loop: each then renders its answer (a page
 * of 5,000 tables takes some 20 ms), and 100 of them at once held the loop for 2.3 s.
 */
function shareRead<T>(read: (signal: AbortSignal) => Promise<T>): SharedRead<T> {
  const stop = new AbortController();
  let callers = 0;
  const done = read(stop.signal);
  done.catch(() => undefined);
  const queue: Array<() => void> = [];
  const goOn = () => {
    queue.shift()?.();
    if (queue.length > 0) setImmediate(goOn);
  };
  void done.then(
    () => setImmediate(goOn),
    () => undefined,
  );
  return {
    done,
    get stopped() {
      return stop.signal.aborted;
    },
    join(signal) {
      signal?.throwIfAborted();
      callers++;
      return new Promise<T>((resolve, reject) => {
        const leave = () => {
          const at = queue.indexOf(go);
          if (at >= 0) queue.splice(at, 1);
          reject(signal!.reason);
          if (--callers === 0) stop.abort(signal!.reason);
        };
        const go = () => {
          signal?.removeEventListener('abort', leave);
          void done.then(resolve);
        };
        signal?.addEventListener('abort', leave, { once: true });
        queue.push(go);
        done.catch((error: unknown) => {
          signal?.removeEventListener('abort', leave);
          reject(error);
        });
      });
    },
  };
}
