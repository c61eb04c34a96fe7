// CPU-heavy work (a regex over a long line, a glob, a diff, parsing a page) must never run
// on the event loop: a ping and every other session would wait for it, and nothing could
// stop it (ARCHITECTURE.md section 2, "Limits"). A worker thread can be terminated at any
// instruction, so cancellation, session end and a time limit really stop the work.
//
// This module has no MCP in it, so servers' domain code (`lib/`) may use it.
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
}

type Reply = { kind: 'message'; message: unknown } | { kind: 'done'; value: unknown } | { kind: 'error'; name: string; message: string };

function workerSource(task: string): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
const task = (${task});
const post = (message) => parentPort.postMessage({ kind: 'message', message });
Promise.resolve()
  .then(() => task(workerData, post, require))
  .then(
    (value) => parentPort.postMessage({ kind: 'done', value }),
    (error) => parentPort.postMessage({
      kind: 'error',
      name: (error && error.name) || 'Error',
      message: String((error && error.message) || error),
    }),
  );
`;
}

/** Runs `task(input)` in a fresh worker thread and resolves with what it returns. */
export function runInWorker<I, O>(task: WorkerTask<I, O>, input: I, options: RunInWorkerOptions = {}): Promise<O> {
  const { signal, timeoutMs, maxHeapMb, onMessage } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<O>((resolve, reject) => {
    const worker = new Worker(workerSource(task.toString()), {
      eval: true,
      workerData: input,
      ...(maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } } : {}),
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      outcome();
      // Nothing is waiting for the worker any more; an idle one would keep the process alive.
      void worker.terminate().catch(() => undefined);
    };
    const onAbort = () => finish(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => finish(() => reject(new ToolError(options.timeoutMessage ?? `The work took longer than ${timeoutMs} ms and was stopped.`))),
            timeoutMs,
          );
    worker.on('message', (reply: Reply) => {
      if (reply.kind === 'message') onMessage?.(reply.message);
      else if (reply.kind === 'done') finish(() => resolve(reply.value as O));
      else {
        const error = reply.name === 'ToolError' ? new ToolError(reply.message) : new Error(reply.message);
        if (reply.name !== 'ToolError') error.name = reply.name;
        finish(() => reject(error));
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(() =>
        reject(outOfMemory ? new ToolError('The work needed more memory than allowed and was stopped; ask for less.') : error),
      );
    });
    worker.on('exit', (code) => finish(() => reject(new Error(`worker exited with code ${code} before answering`))));
  });
}
