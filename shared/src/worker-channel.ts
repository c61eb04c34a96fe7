import { BroadcastChannel } from 'node:worker_threads';
import { runInWorker } from './worker.js';
import { nodeCrypto } from './lazy-builtins.js';
import { re2jsSource, type RE2JSClass } from './re2js.js';

/**
 * A worker thread (from the process's pool) held for one call, answering requests, for CPU-heavy
 * matching (regular expressions, globs) that must not run on the event loop: the main
 * thread keeps walking directories asynchronously and hands the worker batches; the
 * worker can be terminated at any instruction, so cancellation, session end and the
 * time limit stop a catastrophic pattern at once (runInWorker does the terminating).
 *
 * `makeHandler` is sent as source text, like a runInWorker task: it must be
 * self-contained (only its argument and `process.getBuiltinModule()`; not `require`,
 * which the bundler rewrites to a helper the worker does not have). It receives
 * `init` once, and re2js's RE2JS class when the channel was opened with `re2js: true`, and
 * returns the function that answers each request, synchronously.
 */
export interface WorkerChannel<Req, Rep> {
  request(request: Req): Promise<Rep>;
  /** Ends the worker (idempotent). */
  close(): void;
}

export interface WorkerChannelOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  timeoutMessage?: string;
  maxHeapMb?: number;
  /** Fail (WorkerPoolBusyError) instead of waiting when the pool has no idle worker. */
  onlyIfIdle?: boolean;
  /** Hand the handler re2js's RE2JS class (evaluated once per worker thread, which the pool keeps). */
  re2js?: boolean;
}

interface TaskInput {
  name: string;
  source: string;
  init: unknown;
  /** re2js's source text, when the handler is to have it. */
  re2js?: string;
}

type Reply = { ready: true } | { id: number; reply?: unknown; error?: { name: string; message: string } };

// Runs in the worker: requests arrive on a BroadcastChannel named by the caller (a
// runInWorker task cannot receive messages otherwise), replies go back through `post`.
const serve = (input: TaskInput, post: (message: unknown) => void) =>
  new Promise<null>((resolve) => {
    // process.getBuiltinModule, not require: a bundler rewrites `require` in this source.
    const { BroadcastChannel: Channel } = process.getBuiltinModule('node:worker_threads');
    // re2js, evaluated once per worker thread, under the key loadRE2JS (re2js.ts) uses on the main thread.
    let RE2JS: unknown;
    if (input.re2js !== undefined) {
      const holder = globalThis as Record<symbol, unknown>;
      const key = Symbol.for('@mcp-reference/shared/re2js');
      if (!holder[key]) {
        const module = { exports: {} as { RE2JS?: unknown } };
        new Function('module', 'exports', input.re2js)(module, module.exports);
        holder[key] = module.exports.RE2JS;
      }
      RE2JS = holder[key];
    }
    const handler = (0, eval)(`(${input.source})`)(input.init, RE2JS);
    const channel = new Channel(input.name);
    channel.onmessage = (event: unknown) => {
      const message = (event as { data: { id: number; request?: unknown; close?: boolean } }).data;
      if (message.close) {
        channel.close();
        resolve(null);
        return;
      }
      try {
        post({ id: message.id, reply: handler(message.request) });
      } catch (error) {
        const e = error as Error;
        post({ id: message.id, error: { name: (e && e.name) || 'Error', message: String((e && e.message) || e) } });
      }
    };
    post({ ready: true });
  });

export async function openWorkerChannel<I, Req, Rep>(
  makeHandler: (init: I, RE2JS: RE2JSClass) => (request: Req) => Rep,
  init: I,
  options: WorkerChannelOptions = {},
): Promise<WorkerChannel<Req, Rep>> {
  const name = `mcp-worker-${nodeCrypto().randomUUID()}`;
  const channel = new BroadcastChannel(name);
  channel.unref(); // an open channel must not keep the process alive; the worker's end is runInWorker's business
  const pending = new Map<number, { resolve: (value: Rep) => void; reject: (error: unknown) => void }>();
  let failure: { error: unknown } | undefined;
  let nextId = 0;
  let closed = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const done = runInWorker<TaskInput, null>(
    serve,
    { name, source: makeHandler.toString(), init, ...(options.re2js ? { re2js: re2jsSource() } : {}) },
    {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      timeoutMessage: options.timeoutMessage,
      maxHeapMb: options.maxHeapMb,
      onlyIfIdle: options.onlyIfIdle,
      onMessage(message) {
        const reply = message as Reply;
        if ('ready' in reply) return markReady();
        const waiter = pending.get(reply.id);
        if (!waiter) return;
        pending.delete(reply.id);
        if (reply.error) {
          const error = new Error(reply.error.message);
          error.name = reply.error.name;
          waiter.reject(error);
        } else waiter.resolve(reply.reply as Rep);
      },
    },
  );
  const closeChannel = () => {
    if (closed) return;
    closed = true;
    channel.close();
  };
  const fail = (error: unknown) => {
    failure ??= { error };
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
    closeChannel();
  };
  done.then(() => fail(new Error('the worker ended')), fail);
  await Promise.race([ready, done]);
  if (failure) throw failure.error;
  return {
    request(request) {
      if (failure) return Promise.reject(failure.error);
      const id = nextId++;
      return new Promise<Rep>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        channel.postMessage({ id, request });
      });
    },
    close() {
      if (closed) return;
      channel.postMessage({ close: true });
      closeChannel();
    },
  };
}
