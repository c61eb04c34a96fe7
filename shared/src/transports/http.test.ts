import net from 'node:net';
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { request as httpRequest } from 'node:http';
import { z } from 'zod';
import { createServer, type McpServer } from '../server.js';
import { defineResourceTemplate, defineTool } from '../definitions.js';
import { silentLogger } from '../logging.js';
import { connectHttp } from '../client/index.js';
import { serveHttp, type HttpHandle, type HttpOptions } from './http.js';
import { allowedHostHeaders, allowedOrigins } from './http-origin.js';

const TOKEN = 'a-test-token-that-is-long-enough';
const PROTOCOL_VERSION = '2025-06-18';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function echoServer(): McpServer {
  return createServer({
    name: 'http-test',
    version: '1.2.3',
    logger: silentLogger,
    tools: [
      defineTool({
        name: 'echo',
        description: 'Echoes its input',
        input: z.object({ text: z.string() }),
        output: z.object({ text: z.string() }),
        handler: ({ text }, ctx) => ctx.result({ text }),
      }),
      defineTool({
        name: 'slow_echo',
        description: 'Echoes after a while',
        input: z.object({ text: z.string(), ms: z.number() }),
        output: z.object({ text: z.string() }),
        async handler({ text, ms }, ctx) {
          await sleep(ms);
          return ctx.result({ text });
        },
      }),
    ],
    templates: [defineResourceTemplate({ uriTemplate: 'mem:///{x}', name: 'mem', read: (uri) => [{ uri, text: '' }] })],
  });
}

async function start(options: Partial<HttpOptions> = {}) {
  const server = echoServer();
  const handle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger, ...options });
  return { server, handle };
}

const initializeBody = (id: number | string = 1, protocolVersion = PROTOCOL_VERSION) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

const mcpHeaders = (extra: Record<string, string> = {}) => ({
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  ...extra,
});

/** POSTs JSON to the endpoint (fetch sets Host from the URL). */
function post(handle: HttpHandle, body: unknown, headers: Record<string, string> = {}) {
  return fetch(handle.url, {
    method: 'POST',
    headers: mcpHeaders(headers),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A raw request with full control over the Host header (fetch picks Host from the URL). */
function rawRequest(
  handle: HttpHandle,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: handle.port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers: { ...mcpHeaders(), ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** What an SSE stream carries until `text` appears in it (or the stream ends). */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string): Promise<string> {
  let received = '';
  while (!received.includes(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    received += new TextDecoder().decode(value);
  }
  return received;
}

/** Reads JSON-RPC messages out of an SSE or JSON response body. */
async function messagesOf(response: Response): Promise<{ id?: unknown; result?: any; error?: any }[]> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('application/json')) return [JSON.parse(text)].flat();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

/**
 * A normal client still initializes and calls a tool on the same server, and the
 * attack before this left no session behind.
 */
async function expectStillServing(handle: HttpHandle, sessionsBefore: number, options: { token?: string; server?: McpServer } = {}) {
  const { token, server } = options;
  expect(handle.sessionCount()).toBe(sessionsBefore);
  if (server) expect(server.sessionCount).toBe(sessionsBefore);
  const connection = await connectHttp(handle.url, { token });
  try {
    const result = await connection.client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(result.structuredContent).toEqual({ text: 'still here' });
    expect(handle.sessionCount()).toBe(sessionsBefore + 1);
  } finally {
    await connection.close();
  }
  expect(handle.sessionCount()).toBe(sessionsBefore);
}

describe('allowed Host and Origin values', () => {
  it('allows the loopback names with the bound port', () => {
    expect([...allowedHostHeaders('127.0.0.1', 4000)].sort()).toEqual(['127.0.0.1:4000', '[::1]:4000', 'localhost:4000']);
    expect(allowedHostHeaders('::1', 80).has('localhost')).toBe(true);
    expect(allowedHostHeaders('192.168.1.5', 4000).has('192.168.1.5:4000')).toBe(true);
    expect(allowedHostHeaders('0.0.0.0', 4000).has('0.0.0.0:4000')).toBe(false);
    expect(allowedOrigins('127.0.0.1', 4000).has('http://localhost:4000')).toBe(true);
    expect(allowedOrigins('127.0.0.1', 4000).has('http://localhost:4001')).toBe(false);
  });
});

describe('serveHttp', () => {
  let server: McpServer;
  let handle: HttpHandle;
  beforeAll(async () => {
    ({ server, handle } = await start({ maxBodyBytes: 64 * 1024 }));
  });
  afterAll(async () => {
    await handle.close();
  });

  it('serves a client at /mcp on the bound address and removes its session when it leaves', async () => {
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/mcp`);
    const connection = await connectHttp(handle.url);
    try {
      expect(connection.client.getServerVersion()).toMatchObject({ name: 'http-test', version: '1.2.3' });
      expect(handle.sessionCount()).toBe(1);
    } finally {
      await connection.close();
    }
    expect(handle.sessionCount()).toBe(0);
    expect(server.sessionCount).toBe(0);
  });

  it.each([
    ['the bound address', (port: number) => `127.0.0.1:${port}`],
    ['localhost', (port: number) => `localhost:${port}`],
    ['[::1]', (port: number) => `[::1]:${port}`],
    ['upper case', (port: number) => `LOCALHOST:${port}`],
  ])('accepts Host %s', async (_name, host) => {
    const response = await rawRequest(handle, { headers: { Host: host(handle.port) }, body: JSON.stringify(initializeBody()) });
    expect(response.status).toBe(200);
    const sessionId = response.headers['mcp-session-id'] as string;
    expect(sessionId).toBeTruthy();
    await fetch(handle.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION } });
    expect(handle.sessionCount()).toBe(0);
  });

  it.each([
    ['a rebinding name with the right port', (port: number) => `evil.example:${port}`],
    ['the right name with another port', (port: number) => `127.0.0.1:${port + 1}`],
    ['no port', () => 'localhost'],
    ['a name that merely starts like localhost', (port: number) => `localhost.evil.example:${port}`],
  ])('refuses Host %s with 403, and keeps serving others', async (_name, host) => {
    const response = await rawRequest(handle, { headers: { Host: host(handle.port) }, body: JSON.stringify(initializeBody()) });
    expect(response.status).toBe(403);
    expect(response.body).toMatch(/Host/);
    await expectStillServing(handle, 0, { server });
  });

  it('refuses a forged Origin with 403 and accepts a matching one', async () => {
    for (const origin of ['http://evil.example', `http://evil.example:${handle.port}`, `http://127.0.0.1:${handle.port + 1}`, 'null']) {
      const response = await post(handle, initializeBody(), { Origin: origin });
      expect(response.status).toBe(403);
      expect(await response.text()).toMatch(/Origin/);
    }
    await expectStillServing(handle, 0, { server });
    const ok = await post(handle, initializeBody(), { Origin: `http://localhost:${handle.port}` });
    expect(ok.status).toBe(200);
    const sessionId = ok.headers.get('mcp-session-id')!;
    await ok.body?.cancel();
    await fetch(handle.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION } });
    expect(handle.sessionCount()).toBe(0);
  });

  it('answers malformed JSON with 400 and JSON-RPC -32700', async () => {
    const response = await post(handle, '{"jsonrpc": "2.0", "method": "initialize", ');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    await expectStillServing(handle, 0, { server });
  });

  it('answers a body over the limit with 413, whether declared or streamed', async () => {
    const padding = ' '.repeat(64 * 1024);
    const declared = await post(handle, `${padding}${JSON.stringify(initializeBody())}`);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: { code: -32600 } });
    await expectStillServing(handle, 0, { server });

    // No Content-Length: the limit is enforced while reading the chunks.
    const chunks = [JSON.stringify(initializeBody()), padding];
    const streamed = await fetch(handle.url, {
      method: 'POST',
      headers: mcpHeaders(),
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await streamed.body?.cancel();
    await expectStillServing(handle, 0, { server });
  });

  it('answers an unknown Mcp-Session-Id with 404 and a request without one with 400', async () => {
    const unknown = await post(handle, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {
      'mcp-session-id': '00000000-0000-0000-0000-000000000000',
      'mcp-protocol-version': PROTOCOL_VERSION,
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { message: expect.stringMatching(/Session not found/) } });
    const missing = await post(handle, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(missing.status).toBe(400);
    await missing.body?.cancel();
    await expectStillServing(handle, 0, { server });
  });

  it('leaves no session behind when the SDK refuses an initialize', async () => {
    const refused: { body: unknown; headers: Record<string, string> }[] = [
      { body: { jsonrpc: '2.0', id: 1, method: 'initialize' }, headers: {} }, // no params
      { body: [initializeBody(1), initializeBody(2)], headers: {} }, // two initializes in one batch
      { body: initializeBody(), headers: { Accept: 'application/json' } }, // cannot take SSE
    ];
    for (const { body, headers } of refused) {
      const response = await post(handle, body, headers);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      await response.body?.cancel();
      expect(handle.sessionCount()).toBe(0);
      expect(server.sessionCount).toBe(0);
    }
    await expectStillServing(handle, 0, { server });
  });

  it('answers an initialize with invalid params with -32602 and one line, and keeps no session', async () => {
    const response = await post(handle, { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: 7, clientInfo: 'me' } });
    expect(response.status).toBe(400);
    const [message] = await messagesOf(response);
    expect(message).toMatchObject({ id: 9, error: { code: -32602 } });
    expect(message.error.message).toMatch(/^Invalid params for initialize: /);
    expect(message.error.message).not.toContain('\n');
    expect(handle.sessionCount()).toBe(0);
    await expectStillServing(handle, 0, { server });
  });

  it('answers other paths with 404 and other methods with 405', async () => {
    const elsewhere = await fetch(`http://127.0.0.1:${handle.port}/`);
    expect(elsewhere.status).toBe(404);
    await elsewhere.body?.cancel();
    const put = await fetch(handle.url, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    await put.body?.cancel();
    // Without a token configured there is no protected-resource metadata.
    const metadata = await fetch(`http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(404);
    await metadata.body?.cancel();
  });

  it('negotiates the 2025-03-26 protocol version as well as the latest', async () => {
    for (const version of ['2025-03-26', PROTOCOL_VERSION]) {
      const response = await post(handle, initializeBody(1, version));
      expect(response.status).toBe(200);
      const sessionId = response.headers.get('mcp-session-id')!;
      const [message] = await messagesOf(response);
      expect(message.result.protocolVersion).toBe(version);
      await fetch(handle.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': version } });
    }
    expect(handle.sessionCount()).toBe(0);
  });

  it('answers 408 to a request body that stops arriving, while answers and SSE streams last as long as they need', async () => {
    const timed = await start({ requestTimeoutMs: 1_000 });
    try {
      const init = await post(timed.handle, initializeBody());
      const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL_VERSION };
      await init.body?.cancel();
      await (await post(timed.handle, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).body?.cancel();
      const get = await fetch(timed.handle.url, { headers: { Accept: 'text/event-stream', ...session } });
      const stream = get.body!.getReader();

      // A body announced as 100 bytes, 10 sent, then nothing.
      const socket = net.connect(timed.handle.port, '127.0.0.1');
      let reply = '';
      socket.on('data', (data) => (reply += String(data)));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${timed.handle.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`);
      await closed;
      expect(reply).toMatch(/^HTTP\/1\.1 408/);
      expect(timed.handle.sessionCount()).toBe(1);

      // A call answered after 2.5 s (its request arrived at once), and the GET stream opened before it.
      const slow = await post(timed.handle, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_echo', arguments: { text: 'late', ms: 2_500 } } }, session);
      expect((await messagesOf(slow))[0]).toMatchObject({ id: 2, result: { structuredContent: { text: 'late' } } });
      timed.server.notifyResourceListChanged();
      expect(await readUntil(stream, 'notifications/resources/list_changed')).toContain('notifications/resources/list_changed');
      await stream.cancel().catch(() => undefined);
    } finally {
      await timed.handle.close();
    }
  });

  it('keeps a GET stream and concurrent POST streams open on one session', async () => {
    const init = await post(handle, initializeBody());
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
    await (await post(handle, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).body?.cancel();

    const abort = new AbortController();
    const get = await fetch(handle.url, { headers: { Accept: 'text/event-stream', ...session }, signal: abort.signal });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = get.body!.getReader();

    const call = (id: number, text: string, ms: number) =>
      post(handle, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow_echo', arguments: { text, ms } } }, session);
    const [first, second] = await Promise.all([call(10, 'one', 150), call(11, 'two', 10)]);
    expect(first.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect((await messagesOf(first))[0]).toMatchObject({ id: 10, result: { structuredContent: { text: 'one' } } });
    expect((await messagesOf(second))[0]).toMatchObject({ id: 11, result: { structuredContent: { text: 'two' } } });

    // A notification not tied to a request arrives on the GET stream.
    server.notifyResourceListChanged();
    expect(await readUntil(reader, 'notifications/resources/list_changed')).toContain('notifications/resources/list_changed');
    abort.abort();
    await reader.cancel().catch(() => undefined);
    await fetch(handle.url, { method: 'DELETE', headers: session });
    expect(handle.sessionCount()).toBe(0);
  });
});

describe('serveHttp with a bearer token', () => {
  let server: McpServer;
  let handle: HttpHandle;
  beforeAll(async () => {
    ({ server, handle } = await start({ authToken: TOKEN }));
  });
  afterAll(async () => {
    await handle.close();
  });
  const metadataUrl = () => `http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp`;

  it('answers a request without a token with 401 and a plain Bearer challenge (no resource_metadata, so no OAuth)', async () => {
    const response = await post(handle, initializeBody());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
    await expectStillServing(handle, 0, { token: TOKEN, server });
  });

  it('answers a wrong token with 401 invalid_token', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const response = await post(handle, initializeBody(), { Authorization: authorization });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      await response.body?.cancel();
    }
    await expectStillServing(handle, 0, { token: TOKEN, server });
  });

  it('checks Host before the token and the token before parsing', async () => {
    const forged = await rawRequest(handle, { headers: { Host: `evil.example:${handle.port}`, Authorization: `Bearer ${TOKEN}` } });
    expect(forged.status).toBe(403);
    const garbage = await post(handle, '{not json');
    expect(garbage.status).toBe(401);
    await garbage.body?.cancel();
    const garbageWithToken = await post(handle, '{not json', { Authorization: `Bearer ${TOKEN}` });
    expect(garbageWithToken.status).toBe(400);
    await garbageWithToken.body?.cancel();
    await expectStillServing(handle, 0, { token: TOKEN, server });
  });

  it('serves no RFC 9728 protected-resource metadata: there is no authorization server to point to', async () => {
    for (const url of [metadataUrl(), `http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status).toBe(404);
      await response.body?.cancel();
    }
  });
});

describe('serveHttp limits and lifecycle', () => {
  const handles: HttpHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.close()));
  });
  async function started(options: Partial<HttpOptions> = {}) {
    const fixture = await start(options);
    handles.push(fixture.handle);
    return fixture;
  }

  it('takes a body just under the default 4 MB and refuses one just over it with 413', async () => {
    const { handle, server } = await started();
    const json = JSON.stringify(initializeBody());
    const limit = 4 * 1024 * 1024;
    const under = await post(handle, `${' '.repeat(limit - json.length)}${json}`);
    expect(under.status).toBe(200);
    await under.body?.cancel();
    expect(handle.sessionCount()).toBe(1);
    const over = await post(handle, `${' '.repeat(limit - json.length + 1)}${json}`);
    expect(over.status).toBe(413);
    await over.body?.cancel();
    await expectStillServing(handle, 1, { server });
  });

  it('expires idle sessions', async () => {
    const { handle, server } = await started({ sessionIdleMs: 200 });
    const init = await post(handle, initializeBody());
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    expect(handle.sessionCount()).toBe(1);
    const deadline = Date.now() + 5_000;
    while (handle.sessionCount() > 0 && Date.now() < deadline) await sleep(50);
    expect(handle.sessionCount()).toBe(0);
    expect(server.sessionCount).toBe(0);
    const late = await post(handle, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': PROTOCOL_VERSION,
    });
    expect(late.status).toBe(404);
    await late.body?.cancel();
  });

  it('holds 1,000 open sessions', async () => {
    const { handle, server } = await started();
    const ids = new Set<string>();
    const batch = 50;
    for (let i = 0; i < 1_000; i += batch) {
      const responses = await Promise.all(
        Array.from({ length: batch }, async (_, j) => {
          const response = await post(handle, initializeBody(i + j));
          const [message] = await messagesOf(response);
          return { status: response.status, id: response.headers.get('mcp-session-id'), message };
        }),
      );
      for (const { status, id, message } of responses) {
        expect(status).toBe(200);
        expect(message.result.serverInfo.name).toBe('http-test');
        ids.add(id!);
      }
    }
    expect(ids.size).toBe(1_000);
    expect(handle.sessionCount()).toBe(1_000);
    expect(server.sessionCount).toBe(1_000);
    await expectStillServing(handle, 1_000, { server });
  }, 30_000);

  it('makes room past maxSessions by closing the session idle longest', async () => {
    const { handle } = await started({ maxSessions: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await post(handle, initializeBody());
      expect(response.status).toBe(200);
      ids.push(response.headers.get('mcp-session-id')!);
      await response.body?.cancel();
      await sleep(5);
    }
    expect(handle.sessionCount()).toBe(2);
    // The oldest went first; the two newest still answer.
    const statusOf = async (id: string) => {
      const response = await post(handle, { jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
      await response.body?.cancel();
      return response.status;
    };
    expect(await statusOf(ids[0])).toBe(404);
    expect(await statusOf(ids[2])).toBe(200);
  });

  it('refuses a new session with 503 and Retry-After when every session is busy', async () => {
    const { handle } = await started({ maxSessions: 1 });
    const first = await post(handle, initializeBody());
    expect(first.status).toBe(200);
    const id = first.headers.get('mcp-session-id')!;
    await first.body?.cancel();
    // An open GET stream keeps the session busy.
    const stream = await fetch(handle.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(stream.status).toBe(200);
    const second = await post(handle, initializeBody());
    expect(second.status).toBe(503);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await second.json()) as { error: { message: string } }).error.message).toMatch(/Too many open sessions.*retry after/);
    expect(handle.sessionCount()).toBe(1);
    await stream.body?.cancel();
  });

  it('closes cleanly with a client connected and an SSE stream open', async () => {
    let closedHook = 0;
    const server = createServer({
      name: 'closing',
      version: '1.0.0',
      logger: silentLogger,
      onClose: () => void closedHook++,
    });
    const handle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger });
    const connection = await connectHttp(handle.url);
    // The SDK client opens a GET stream after initialize; give it a moment to be open.
    await sleep(50);
    expect(handle.sessionCount()).toBe(1);
    // An SSE stream never ends by itself: a close that waited on it would never resolve (the
    // test's timeout), so no clock is needed here.
    await handle.close();
    expect(handle.sessionCount()).toBe(0);
    expect(server.sessionCount).toBe(0);
    expect(closedHook).toBe(1);
    await handle.close(); // idempotent
    await expect(fetch(handle.url, { method: 'POST', body: '{}' })).rejects.toThrow();
    await connection.client.close().catch(() => undefined);
  });
});
