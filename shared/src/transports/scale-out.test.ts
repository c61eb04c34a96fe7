import { describe, it, expect, afterEach } from 'vitest';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createServer } from '../server.js';
import { defineResourceTemplate, defineTool } from '../definitions.js';
import { silentLogger } from '../logging.js';
import { textContents } from '../results.js';
import { watchPath } from '../watch-path.js';
import { connectHttp, type Connection } from '../client/index.js';
import { serveHttp, type HttpHandle } from './http.js';

// Two HTTP instances behind a plain round-robin proxy, no sticky sessions: a 2026-07-28
// client's requests land on either, one after the other.

const KEY = 'k'.repeat(48);

interface Backend {
  handle: HttpHandle;
  calls: number;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function backend(key: string, file: string, effects: string[]): Promise<Backend> {
  const self: Backend = { handle: undefined as never, calls: 0 };
  const server = createServer({
    name: 'scaled',
    version: '1.0.0',
    logger: silentLogger,
    tools: [
      defineTool({
        name: 'wipe',
        description: 'Confirms, then records a side effect',
        input: z.object({ what: z.string() }),
        output: z.object({ done: z.boolean() }),
        async handler({ what }, ctx) {
          self.calls++;
          await ctx.roots();
          if (!(await ctx.confirm(`Wipe ${what}?`))) return ctx.result({ done: false });
          effects.push(what);
          return ctx.result({ done: true });
        },
      }),
    ],
    templates: [defineResourceTemplate({ uriTemplate: 'watched://{name}', name: 'watched', read: (uri) => [textContents(uri, 'x')] })],
    watch: (_uri, changed) => watchPath(file, changed),
  });
  self.handle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger, requestStateKey: key });
  cleanups.push(() => self.handle.close());
  return self;
}

/** Forwards each request to the next backend in turn, streaming both ways. */
async function roundRobin(ports: number[]): Promise<{ url: string; served: number[] }> {
  const served = ports.map(() => 0);
  let next = 0;
  const proxy: Server = createHttpServer((req, res) => {
    const index = next++ % ports.length;
    served[index]++;
    const upstream = request(
      { host: '127.0.0.1', port: ports[index], path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${ports[index]}` } },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  });
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`, served };
}

async function fixture(keys: [string, string]) {
  const dir = await mkdtemp(path.join(tmpdir(), 'scale-out-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'watched.txt');
  await writeFile(file, 'one');
  const effects: string[] = [];
  const backends = [await backend(keys[0], file, effects), await backend(keys[1], file, effects)];
  const proxy = await roundRobin(backends.map((b) => b.handle.port));
  const connection: Connection = await connectHttp(proxy.url, {
    era: 'modern',
    roots: [{ uri: 'file:///srv' }],
    elicit: () => ({ action: 'accept', content: { confirm: true } }),
  });
  cleanups.push(() => connection.close());
  return { backends, proxy, connection, effects, file };
}

describe('2026-07-28 behind a round-robin load balancer', () => {
  it('completes a confirmation whose rounds land on both instances (they share MCP_REQUEST_STATE_KEY)', async () => {
    const { backends, connection, effects } = await fixture([KEY, KEY]);
    const result = await connection.client.callTool({ name: 'wipe', arguments: { what: 'cache' } });
    expect(result.structuredContent).toEqual({ done: true });
    expect(effects).toEqual(['cache']);
    // Three rounds (roots, confirmation, done), served by both instances.
    expect(connection.sent.get('tools/call')).toBe(3);
    expect(backends.every((b) => b.calls > 0)).toBe(true);
  });

  it('refuses the next round on an instance with another key, and nothing happens', async () => {
    const { connection, effects } = await fixture([KEY, 'z'.repeat(48)]);
    await expect(connection.client.callTool({ name: 'wipe', arguments: { what: 'cache' } })).rejects.toThrow(/requestState/);
    expect(effects).toEqual([]);
  });

  it('keeps a subscription while other requests go to the other instance', async () => {
    const { proxy, connection, file } = await fixture([KEY, KEY]);
    const client = connection.client as unknown as { listen(filter: object): Promise<{ close(): Promise<void> }> };
    const subscription = await client.listen({ resourceSubscriptions: ['watched://a'] });
    for (let i = 0; i < 4; i++) await connection.client.listTools();
    expect(proxy.served.every((n) => n > 0)).toBe(true);
    await writeFile(file, 'two');
    const updated = await connection.waitForNotification('notifications/resources/updated', (p) => p?.uri === 'watched://a', 10_000);
    expect(updated.params?.uri).toBe('watched://a');
    await subscription.close();
  });
});
