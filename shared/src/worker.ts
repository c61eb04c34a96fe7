// CPU-heavy work (a regex over a long line, a glob, a diff, parsing a page) must never run
// on the event loop: a ping and every other session would wait for it, and nothing could
// stop it (ARCHITECTURE.md section 2, "Limits"). A worker thread can be terminated at any
// instruction, so cancellation, session end and a time limit really stop the work.
//
// Workers come from one pool per process, sized to the cores: 64 concurrent calls run on
// that many threads, the rest wait in a queue, instead of 64 threads and their heaps.
//
// This module has no MCP in it, so servers' domain code (`lib/`) may use it.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { ToolError } from './errors.js';

/**
 * A function run in a worker. It is sent as source text, so it must be self-contained: a
 * function expression or arrow function that uses only its arguments, never variables or
 * imports of the module that defines it. Load modules with its third argument, `load`
 * (Node built-ins, or absolute paths passed in `input`), not with a bare `require`: a
 * bundler may rename a bare `require` to a helper the worker does not have. `post` sends
 * a message (progress, say) to `onMessage`. To fail with a message for the model, throw an
 * Error whose `name` is 'ToolError'.
 */
export type WorkerTask<I, O> = (input: I, post: (message: unknown) => void, load: (id: string) => any) => O | Promise<O>;

export interface RunInWorkerOptions {
  /** Aborting terminates the worker at once; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Terminates the worker after this long; the promise rejects with a ToolError. */
  timeoutMs?: number;
  /** The ToolError message on timeout: say what to ask for instead. */
  timeoutMessage?: string;
  /** Heap ceiling of the worker, so a runaway result cannot exhaust the process. */
  maxHeapMb?: number;
  /** Receives what the task posts. */
  onMessage?: (message: unknown) => void;
  /** Reject with WorkerPoolBusyError instead of waiting when no worker is free now. */
  onlyIfIdle?: boolean;
}

type Reply =
  | { id: number; kind: 'message'; message: unknown }
  | { id: number; kind: 'done'; value: unknown }
  | { id: number; kind: 'error'; name: string; message: string };

/**
 * A pooled worker: it runs one job at a time, each a task sent as source text (compiled
 * once per worker and kept), so a worker boots once and serves many calls.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const tasks = new Map();
parentPort.on('message', (job) => {
  let task = tasks.get(job.source);
  if (task === undefined) {
    task = eval('(' + job.source + ')');
    tasks.set(job.source, task);
  }
  const post = (message) => parentPort.postMessage({ id: job.id, kind: 'message', message });
  Promise.resolve()
    .then(() => task(job.input, post, require))
    .then(
      (value) => parentPort.postMessage({ id: job.id, kind: 'done', value }),
      (error) => parentPort.postMessage({
        id: job.id,
        kind: 'error',
        name: (error && error.name) || 'Error',
        message: String((error && error.message) || error),
      }),
    );
});
`;

/** Thrown (rejected) by `onlyIfIdle` work when every worker of the pool is busy. */
export class WorkerPoolBusyError extends Error {
  override readonly name = 'WorkerPoolBusyError';
  constructor() {
    super('every worker thread is busy');
  }
}

export interface WorkerPoolOptions {
  /** Most worker threads at once. Default: the number of cores. */
  size?: number;
  /** An idle worker ends after this long. Default 30 s. */
  idleMs?: number;
}

export interface WorkerPoolStats {
  /** Worker threads alive. */
  workers: number;
  /** Of those, running a task. */
  busy: number;
  /** Tasks waiting for a worker. */
  queued: number;
  /** Worker threads started since the pool was made (terminated ones are replaced). */
  started: number;
}

/**
 * A fixed number of worker threads and a queue. Work waits for a free worker (first come,
 * first served); aborting work that waits removes it from the queue; aborting (or timing
 * out) work that runs terminates its worker, which is replaced when next needed. Idle
 * workers do not keep the process alive.
 */
export interface WorkerPool {
  readonly size: number;
  run<I, O>(task: WorkerTask<I, O>, input: I, options?: RunInWorkerOptions): Promise<O>;
  stats(): WorkerPoolStats;
  /** Terminates every worker and rejects every task, running or queued. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  source: string;
  input: unknown;
  heapMb: number | undefined;
  onMessage?: (message: unknown) => void;
  slot?: Slot;
  settle(outcome: { value: unknown } | { error: unknown }): void;
}

interface Slot {
  worker: Worker;
  heapMb: number | undefined;
  job?: Job;
  idleTimer?: NodeJS.Timeout;
}

export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
  const idleMs = options.idleMs ?? 30_000;
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 0;
  let started = 0;
  let closed = false;

  const retire = (slot: Slot) => {
    slots.delete(slot);
    clearTimeout(slot.idleTimer);
    void slot.worker.terminate().catch(() => undefined);
  };

  const spawn = (heapMb: number | undefined): Slot => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      ...(heapMb ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {}),
      stdout: false,
      stderr: false,
    });
    started++;
    const slot: Slot = { worker, heapMb };
    slots.add(slot);
    worker.on('message', (reply: Reply) => {
      const job = slot.job;
      if (!job || reply.id !== job.id) return;
      if (reply.kind === 'message') {
        job.onMessage?.(reply.message);
        return;
      }
      slot.job = undefined;
      job.slot = undefined;
      if (reply.kind === 'done') job.settle({ value: reply.value });
      else {
        const error = reply.name === 'ToolError' ? new ToolError(reply.message) : new Error(reply.message);
        if (reply.name !== 'ToolError') error.name = reply.name;
        job.settle({ error });
      }
      idle(slot);
      dispatch();
    });
    const lost = (error: Error) => {
      if (!slots.has(slot)) return;
      retire(slot);
      const job = slot.job;
      slot.job = undefined;
      if (job) {
        job.slot = undefined;
        job.settle({ error });
      }
      dispatch();
    };
    worker.on('error', (error: Error & { code?: string }) =>
      lost(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ToolError('The work needed more memory than allowed and was stopped; ask for less.') : error),
    );
    worker.on('exit', (code) => lost(new Error(`worker exited with code ${code} before answering`)));
    return slot;
  };

  const idle = (slot: Slot) => {
    slot.worker.unref();
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (!slot.job) retire(slot);
    }, idleMs);
    slot.idleTimer.unref();
  };

  const start = (slot: Slot, job: Job) => {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    job.slot = slot;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, source: job.source, input: job.input });
  };

  /** A worker for `job` now, or undefined when all are busy. */
  const acquire = (job: Job): Slot | undefined => {
    let other: Slot | undefined;
    for (const slot of slots) {
      if (slot.job) continue;
      if (slot.heapMb === job.heapMb) return slot;
      other = slot;
    }
    if (slots.size < size) return spawn(job.heapMb);
    // An idle worker with another heap ceiling makes way for one with the right one.
    if (other) {
      retire(other);
      return spawn(job.heapMb);
    }
    return undefined;
  };

  const dispatch = () => {
    while (queue.length > 0) {
      const slot = acquire(queue[0]);
      if (!slot) return;
      start(slot, queue.shift()!);
    }
  };

  return {
    size,
    run<I, O>(task: WorkerTask<I, O>, input: I, runOptions: RunInWorkerOptions = {}): Promise<O> {
      const { signal, timeoutMs, maxHeapMb, onMessage, onlyIfIdle } = runOptions;
      if (closed) return Promise.reject(new Error('the worker pool is closed'));
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<O>((resolve, reject) => {
        let settled = false;
        const job: Job = {
          id: nextId++,
          source: task.toString(),
          input,
          heapMb: maxHeapMb,
          onMessage,
          settle(outcome) {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            if ('value' in outcome) resolve(outcome.value as O);
            else reject(outcome.error);
          },
        };
        // Stopping work: a queued task leaves the queue; a running one's worker is
        // terminated (the only way to stop a synchronous loop) and replaced when needed.
        const stop = (error: unknown) => {
          const slot = job.slot;
          if (slot) {
            slot.job = undefined;
            job.slot = undefined;
            retire(slot);
          } else {
            const at = queue.indexOf(job);
            if (at !== -1) queue.splice(at, 1);
          }
          job.settle({ error });
          dispatch();
        };
        const onAbort = () => stop(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        const timer =
          timeoutMs === undefined
            ? undefined
            : setTimeout(() => stop(new ToolError(runOptions.timeoutMessage ?? `The work took longer than ${timeoutMs} ms and was stopped.`)), timeoutMs);
        const slot = queue.length === 0 ? acquire(job) : undefined;
        if (slot) start(slot, job);
        else if (onlyIfIdle) job.settle({ error: new WorkerPoolBusyError() });
        else queue.push(job);
      });
    },
    stats() {
      let busy = 0;
      for (const slot of slots) if (slot.job) busy++;
      return { workers: slots.size, busy, queued: queue.length, started };
    },
    async close() {
      closed = true;
      const error = new Error('the worker pool is closed');
      for (const job of queue.splice(0)) job.settle({ error });
      for (const slot of [...slots]) {
        const job = slot.job;
        slot.job = undefined;
        retire(slot);
        job?.settle({ error });
      }
    },
  };
}

function availableParallelism(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

// The one pool of the process. Process-wide on purpose: the cores belong to the process,
// not to a server instance, and every server in it (and every copy of this module a
// bundle may hold) must share them, so it hangs off globalThis rather than this module.
const POOL_KEY = Symbol.for('@mcp-reference/shared/worker-pool');

/** The process's worker pool (made on first use, sized to the cores). */
export function sharedWorkerPool(): WorkerPool {
  const holder = globalThis as { [POOL_KEY]?: WorkerPool };
  return (holder[POOL_KEY] ??= createWorkerPool());
}

/**
 * Runs `task(input)` on a worker thread of the process's pool and resolves with what it
 * returns. Waits for a free worker when all are busy (aborting the signal meanwhile
 * removes the task from the queue); `timeoutMs` counts from the call.
 */
export function runInWorker<I, O>(task: WorkerTask<I, O>, input: I, options: RunInWorkerOptions = {}): Promise<O> {
  return sharedWorkerPool().run(task, input, options);
}
