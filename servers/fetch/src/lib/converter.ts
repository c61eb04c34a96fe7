// Converting a 10 MB page takes about half a second of CPU (a 1 MB one about 60 ms), and
// pathological HTML can take longer: done on the event loop it would delay a ping and
// every other session (ARCHITECTURE.md section 2, "Limits"). So pages above a small size
// are converted in a worker thread, which a timeout or a cancellation terminates.
//
// The published bin is one bundled file with the libraries inlined, so a worker cannot
// `require` them by path. Instead the CLI passes its own file as the worker entry: the
// bundle started on a worker thread serves conversions (cli.ts checks `isMainThread`).
// Without an entry (tests and development, where the source is TypeScript) the worker is
// an eval'd script: conversion-entry.ts and its imports bundled on the fly by esbuild (a
// devDependency, resolved at run time only in that mode, so never part of the bundle).
//
// A page can be handed over as its response bytes (`body`): a copy of them is moved to the
// worker (transferred, not cloned) and decoded there. Decoding 1 MB took about 4.5 ms of the
// event loop and sending the text as a string about as much again; a 10 MB page blocked
// every session for that long ten times over.
import { Worker, parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { FetchError } from './errors.js';
import { decodeBody } from './content-type.js';
import type { ConvertInput, Converted } from './html-to-markdown.js';

/** A page to convert: its text, or its response bytes and Content-Type (decoded by the converter, off the event loop for a large page). */
export type ConverterInput = ConvertInput | { body: Uint8Array; contentType: string | undefined; url: string };

/** The text of `input` (decoding its bytes as an HTML response). */
function htmlOf(input: ConverterInput, decode: typeof decodeBody): string {
  return 'body' in input ? decode(input.body, input.contentType, 'html') : input.html;
}

// Imported on first use: the parser and converter are most of the bundle, and a server
// that has not converted a page yet should not pay for evaluating them at start-up.
const engine = () => import('./html-to-markdown.js');

/** workerData marker of a conversion worker started from the bundled CLI. */
export const CONVERTER_WORKER = 'mcp-server-fetch:converter';

export interface ConverterOptions {
  /** The bundled CLI file to start as worker (see above); development mode when absent. */
  workerEntry?: URL;
  /** Pages up to this many characters are converted inline (they take a few ms). */
  inlineBelowChars?: number;
  /** Workers kept (default: 2, at most the number of CPUs). */
  maxWorkers?: number;
  /** Heap ceiling of a worker in MB, so pathological HTML cannot exhaust the process. */
  maxHeapMb?: number;
}

export interface ConvertOptions {
  signal?: AbortSignal;
  timeoutMs: number;
}

export interface Converter {
  convert(input: ConverterInput, options: ConvertOptions): Promise<Converted>;
  close(): Promise<void>;
}

type Reply = { id: number; ok: true; value: Converted } | { id: number; ok: false; message: string };

/** Runs in a worker started from the bundle: answers conversion requests until terminated. */
export function serveConversions(): void {
  parentPort?.on('message', async ({ id, input }: { id: number; input: ConverterInput }) => {
    try {
      const { htmlToMarkdown } = await engine();
      parentPort!.postMessage({ id, ok: true, value: htmlToMarkdown({ html: htmlOf(input, decodeBody), url: input.url }) } satisfies Reply);
    } catch (error) {
      parentPort!.postMessage({ id, ok: false, message: String((error as Error)?.message ?? error) } satisfies Reply);
    }
  });
}

async function developmentSource(): Promise<string> {
  const require = createRequire(import.meta.url);
  const esbuild = require(['esbuild'][0]) as typeof import('esbuild');
  const entry = fileURLToPath(new URL('./conversion-entry.ts', import.meta.url));
  const built = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'silent' });
  return `
const { parentPort } = require('node:worker_threads');
const engine = { exports: {} };
(function (module, exports) { ${built.outputFiles[0].text} })(engine, engine.exports);
const htmlOf = ${htmlOf.toString()};
parentPort.on('message', ({ id, input }) => {
  try {
    const html = htmlOf(input, engine.exports.decodeBody);
    parentPort.postMessage({ id, ok: true, value: engine.exports.htmlToMarkdown({ html, url: input.url }) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: String((error && error.message) || error) });
  }
});`;
}

export function createConverter(options: ConverterOptions = {}): Converter {
  const inlineBelow = options.inlineBelowChars ?? 64 * 1024;
  const maxWorkers = Math.max(1, Math.min(options.maxWorkers ?? 2, availableParallelism()));
  const maxHeapMb = options.maxHeapMb ?? 1024;
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const waiting: ((worker: Worker) => void)[] = [];
  let source: Promise<string> | undefined;
  let nextId = 0;

  const spawn = async (): Promise<Worker> => {
    // stdout: true keeps anything a worker might print off the parent's stdout, which is
    // the MCP stream in stdio mode; it is read and dropped.
    const settings = { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb }, stdout: true };
    const worker = options.workerEntry
      ? new Worker(options.workerEntry, { ...settings, workerData: { [CONVERTER_WORKER]: true } })
      : new Worker(await (source ??= developmentSource()), { ...settings, eval: true });
    worker.stdout.resume();
    worker.unref();
    all.add(worker);
    worker.on('exit', () => all.delete(worker));
    worker.on('error', () => undefined);
    return worker;
  };
  let starting = 0;
  const acquire = async (): Promise<Worker> => {
    const ready = idle.pop();
    if (ready) return ready;
    if (all.size + starting < maxWorkers) {
      starting++;
      try {
        return await spawn();
      } finally {
        starting--;
      }
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (worker: Worker, healthy: boolean) => {
    if (!healthy) {
      all.delete(worker);
      void worker.terminate();
    }
    const next = waiting.shift();
    if (next) {
      if (healthy) next(worker);
      else void spawn().then(next);
    } else if (healthy) idle.push(worker);
  };

  return {
    async convert(input, { signal, timeoutMs }) {
      const size = 'body' in input ? input.body.byteLength : input.html.length;
      if (size < inlineBelow) return (await engine()).htmlToMarkdown({ html: htmlOf(input, decodeBody), url: input.url });
      if (signal?.aborted) throw new FetchError('CANCELLED', 'The fetch was cancelled.');
      const worker = await acquire();
      if (signal?.aborted) {
        release(worker, true);
        throw new FetchError('CANCELLED', 'The fetch was cancelled.');
      }
      const id = ++nextId;
      return new Promise<Converted>((resolve, reject) => {
        let done = false;
        const finish = (healthy: boolean, outcome: () => void) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          release(worker, healthy);
          outcome();
        };
        const onMessage = (reply: Reply) => {
          if (reply.id !== id) return;
          finish(true, () => (reply.ok ? resolve(reply.value) : reject(new FetchError('UNSUPPORTED', `The page could not be converted: ${reply.message}`))));
        };
        const onError = (error: Error & { code?: string }) =>
          finish(false, () =>
            reject(
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new FetchError('TOO_LARGE', 'Converting this page needed more memory than allowed; fetch it with raw: true instead.')
                : error,
            ),
          );
        const onExit = () => finish(false, () => reject(new FetchError('UNSUPPORTED', 'The page converter stopped unexpectedly.')));
        const onAbort = () => finish(false, () => reject(new FetchError('CANCELLED', 'The fetch was cancelled.')));
        const timer = setTimeout(
          () =>
            finish(false, () =>
              reject(new FetchError('TIMEOUT', `Converting the page took longer than ${timeoutMs} ms; fetch it with raw: true instead.`)),
            ),
          timeoutMs,
        );
        signal?.addEventListener('abort', onAbort, { once: true });
        worker.on('message', onMessage).on('error', onError).on('exit', onExit);
        if ('body' in input) {
          // A copy, moved: the caller keeps its bytes (a cached response).
          const body = new Uint8Array(input.body);
          worker.postMessage({ id, input: { body, contentType: input.contentType, url: input.url } }, [body.buffer]);
        } else worker.postMessage({ id, input });
      });
    },
    async close() {
      idle.length = 0;
      await Promise.all([...all].map((worker) => worker.terminate()));
      all.clear();
    },
  };
}
