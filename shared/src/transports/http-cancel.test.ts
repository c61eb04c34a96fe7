import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { createServer } from '../server.js';
import { defineTool } from '../definitions.js';
import { silentLogger } from '../logging.js';
import { serveHttp, type HttpHandle } from './http.js';

const PROTOCOL_VERSION = '2025-06-18';
const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))]);
}

/** The work of a call whose HTTP connection the client dropped must stop. */
describe('a client that drops the connection of a call', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("aborts ctx.signal of that call only, and the session keeps serving", async () => {
    const started = deferred<void>();
    const aborted = deferred<unknown>();
    const server = createServer({
      name: 'http-cancel',
      version: '1.0.0',
      logger: silentLogger,
      tools: [
        defineTool({
          name: 'wait',
          description: 'Runs until aborted',
          input: z.object({}),
          output: z.object({}),
          async handler(_args, ctx) {
            started.resolve();
            await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
            aborted.resolve(ctx.signal.reason);
            return ctx.result({});
          },
        }),
      ],
    });
    const handle: HttpHandle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger });
    cleanups.push(() => handle.close());

    const init = await fetch(handle.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    });
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL_VERSION };
    await init.text();
    await (await fetch(handle.url, { method: 'POST', headers: { ...headers, ...session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();

    const drop = new AbortController();
    const call = fetch(handle.url, {
      method: 'POST',
      headers: { ...headers, ...session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: {} } }),
      signal: drop.signal,
    });
    const response = await call;
    await within(started.promise, 5_000, 'the call starting');
    drop.abort();
    await response.body?.cancel().catch(() => undefined);
    await within(aborted.promise, 5_000, 'ctx.signal aborting');

    const ping = await fetch(handle.url, { method: 'POST', headers: { ...headers, ...session }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) });
    expect(await ping.text()).toMatch(/"id":3/);
    expect(handle.sessionCount()).toBe(1);
  });
});
