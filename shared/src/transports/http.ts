import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { z } from 'zod/v4';
import { describeZodError } from '../json-schema.js';
import type { McpServer } from '../server.js';
import type { Logger } from '../logging.js';
import { errorMessage, ErrorCodes } from '../errors.js';
import { listenedUris } from '../protocol/listen.js';
import { allowedHostHeaders, allowedOrigins, formatHost } from './http-origin.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** When set, every MCP request needs `Authorization: Bearer <token>`. */
  authToken?: string;
  /** Request bodies above this many bytes get 413 (default 4 MB). */
  maxBodyBytes?: number;
  /** Sessions with no request and no open stream for this long are closed (default 30 min). */
  sessionIdleMs?: number;
  /**
   * Open 2025 sessions at most (default 10,000). Past it the session idle longest is
   * closed to make room; when every session is busy a new one gets 503 with `Retry-After`.
   */
  maxSessions?: number;
  /** Seals multi-round-trip state so that any instance sharing the key can continue a call. */
  requestStateKey?: string;
  /**
   * A request whose headers and body have not all arrived this long after it began gets
   * 408 and its connection is closed (default 60 s). A response, an SSE stream included,
   * lasts as long as it needs: only the request is timed.
   */
  requestTimeoutMs?: number;
  logger: Logger;
}

export interface HttpHandle {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

interface Entry {
  transport: NodeStreamableHTTPServerTransport;
  lastSeen: number;
  openRequests: number;
}

const MCP_PATH = '/mcp';
/** Seconds a client is told to wait when every session slot is busy. */
const RETRY_AFTER_SECONDS = 5;

/** The shape of an `initialize` request's params the SDK would accept (checked here to answer -32602). */
const InitializeParams = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.looseObject({}),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
});

/**
 * Streamable HTTP at `/mcp`. Before a request reaches the SDK transport it passes, in
 * order: Host and Origin checks (DNS rebinding: only the bound host and port under the
 * loopback names, else 403), the bearer token when one is configured (401 with a plain
 * `Bearer` challenge: there is no authorization server, so no RFC 9728 metadata that would
 * send clients into OAuth), the body limit (413) and JSON parsing (400, -32700).
 *
 * Then the request goes to one of two legs. A 2026-07-28 request (per-request `_meta`, no
 * session) goes to the SDK's `createMcpHandler`, which builds a server instance for it
 * alone: nothing is kept between requests, so any instance behind a load balancer can
 * serve any request. Everything else (initialize, a request with `Mcp-Session-Id`, GET
 * and DELETE) goes to the 2025 leg, where each session has its own transport and server
 * session, so roots, confirmations and subscriptions keep working for 2025 clients; idle
 * sessions are closed by a sweeper. A
 * client that drops the connection of a request before its answer cancels that request
 * (its ctx.signal aborts), as notifications/cancelled would.
 */
export async function serveHttp(server: McpServer, options: HttpOptions): Promise<HttpHandle> {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 10_000;
  const sessions = new Map<string, Entry>();
  const tokenDigest = options.authToken ? digest(options.authToken) : undefined;
  let hosts = new Set<string>();
  let origins = new Set<string>();
  let baseUrl = '';
  if (options.requestStateKey !== undefined) server.useRequestStateKey(options.requestStateKey);
  const modern = createMcpHandler(({ era }) => server.instance(era).sdk, {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => options.logger.log('debug', `2026-07-28 request: ${errorMessage(error)}`),
  });
  const serveModern = toNodeHandler(modern);
  // 2026-07-28 subscriptions: the handler holds each subscriptions/listen stream and
  // filters per stream; the server's watchers feed it.
  const channel = server.openListenChannel((uri) => modern.notify.resourceUpdated(uri));
  const stopListChanged = server.onResourceListChanged(() => modern.notify.resourcesChanged());

  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const http = createHttpServer({
    // A body that never finishes arriving (a client that drips it, or stalls) held its
    // socket and buffer for good. Node checks open requests every connectionsCheckingInterval.
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(requestTimeoutMs / 4))),
  }, (req, res) => {
    handle(req, res).catch((error) => {
      options.logger.log('error', 'HTTP request failed', errorMessage(error));
      if (!res.headersSent) sendJsonRpcError(res, 500, ErrorCodes.InternalError, 'Internal server error');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const host = req.headers.host;
    if (!host || !hosts.has(host.toLowerCase())) return sendPlain(res, 403, 'Forbidden: Host header not allowed');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      return sendPlain(res, 403, 'Forbidden: Origin not allowed');
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return sendPlain(res, 404, 'Not found: the MCP endpoint is /mcp');
    if (tokenDigest && !authorized(req.headers.authorization, tokenDigest)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendJsonRpcError(res, 401, ErrorCodes.InvalidRequest, 'Unauthorized: a valid bearer token is required');
    }
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      res.setHeader('Allow', 'GET, POST, DELETE');
      return sendJsonRpcError(res, 405, ErrorCodes.InvalidRequest, 'Method not allowed');
    }

    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req, maxBodyBytes);
      if (read.tooLarge) {
        res.setHeader('Connection', 'close');
        return sendJsonRpcError(res, 413, ErrorCodes.InvalidRequest, `Request body exceeds ${maxBodyBytes} bytes`);
      }
      try {
        body = JSON.parse(read.text);
      } catch (error) {
        return sendJsonRpcError(res, 400, ErrorCodes.ParseError, `Parse error: ${errorMessage(error)}`);
      }
    }

    const sessionId = header(req, 'mcp-session-id');
    if (sessionId === undefined && req.method === 'POST' && !(await isLegacyRequest(await toWebRequest(req as never, body), body))) {
      const uris = listenedUris(body);
      if (uris) {
        const stop = await channel.open(uris);
        res.once('close', stop);
      }
      return serveModern(req, res, body);
    }
    if (sessionId !== undefined) {
      const entry = sessions.get(sessionId);
      if (!entry) return sendJsonRpcError(res, 404, ErrorCodes.InvalidRequest, 'Session not found: initialize a new session');
      return track(entry, res, () => entry.transport.handleRequest(req, res, body), body);
    }
    if (req.method !== 'POST' || !containsInitialize(body)) {
      return sendJsonRpcError(res, 400, ErrorCodes.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required');
    }
    const badInitialize = invalidInitialize(body);
    if (badInitialize) return sendJson(res, 400, badInitialize);
    if (sessions.size >= maxSessions && !evictIdlest()) {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      return sendJsonRpcError(
        res,
        503,
        ErrorCodes.InternalError,
        `Too many open sessions (${maxSessions}, all busy); retry after ${RETRY_AFTER_SECONDS} s, or close sessions you no longer use (DELETE /mcp).`,
      );
    }
    await startSession(req, res, body);
  }

  /** Closes the session idle the longest to make room for a new one; false when every session is busy. */
  function evictIdlest(): boolean {
    let oldest: [string, Entry] | undefined;
    for (const item of sessions) {
      if (item[1].openRequests > 0) continue;
      if (!oldest || item[1].lastSeen < oldest[1].lastSeen) oldest = item;
    }
    if (!oldest) return false;
    options.logger.log('debug', `session limit reached: closing idle session ${oldest[0]}`);
    sessions.delete(oldest[0]);
    void oldest[1].transport.close().catch(() => undefined);
    return true;
  }

  async function startSession(req: IncomingMessage, res: ServerResponse, body: unknown) {
    const id = randomUUID();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        sessions.set(id, entry);
      },
    });
    const entry: Entry = { transport, lastSeen: Date.now(), openRequests: 0 };
    transport.onclose = () => sessions.delete(id);
    await server.connect(transport, { sessionId: id, era: 'legacy' });
    await track(entry, res, () => transport.handleRequest(req, res, body), body);
    // An initialize that failed (bad version, bad params) leaves no session behind.
    if (!sessions.has(id)) await transport.close().catch(() => undefined);
  }

  async function track(entry: Entry, res: ServerResponse, run: () => Promise<void>, body?: unknown) {
    entry.openRequests++;
    entry.lastSeen = Date.now();
    res.once('close', () => {
      entry.openRequests--;
      entry.lastSeen = Date.now();
      // Closed before the answer was written: nobody will read it, so stop the work.
      if (!res.writableFinished) cancelRequests(entry, body);
    });
    await run();
  }

  function cancelRequests(entry: Entry, body: unknown) {
    for (const message of Array.isArray(body) ? body : [body]) {
      const id = (message as { id?: unknown; method?: unknown } | null)?.id;
      if ((typeof id !== 'string' && typeof id !== 'number') || typeof (message as { method?: unknown }).method !== 'string') continue;
      entry.transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'the client closed the connection' },
      });
    }
  }

  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, entry] of sessions) {
        if (entry.openRequests > 0 || now - entry.lastSeen < sessionIdleMs) continue;
        options.logger.log('debug', `closing idle session ${id}`);
        sessions.delete(id);
        void entry.transport.close().catch(() => undefined);
      }
    },
    Math.min(60_000, Math.max(1_000, sessionIdleMs / 2)),
  );
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  // After listening, a server error (EMFILE on accept, say) is logged, not a crash.
  http.on('error', (error) => options.logger.log('error', `HTTP server error: ${errorMessage(error)}`));
  const { port } = http.address() as AddressInfo;
  hosts = allowedHostHeaders(options.host, port);
  origins = allowedOrigins(options.host, port);
  baseUrl = `http://${formatHost(options.host)}:${port}`;
  options.logger.log('info', `${server.name} ${server.version} serving Streamable HTTP at ${baseUrl}${MCP_PATH}`);

  let closing: Promise<void> | undefined;
  return {
    url: `${baseUrl}${MCP_PATH}`,
    port,
    sessionCount: () => sessions.size,
    close: () =>
      (closing ??= (async () => {
        clearInterval(sweeper);
        const open = [...sessions.values()];
        sessions.clear();
        await Promise.allSettled(open.map((entry) => entry.transport.close()));
        stopListChanged();
        await channel.close();
        await modern.close();
        await server.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      })()),
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time comparison (of digests, so token length does not leak either). */
function authorized(headerValue: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerValue ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), expected);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The -32602 answer to an initialize whose params are malformed (the SDK would say "Server not initialized"). */
function invalidInitialize(body: unknown): unknown {
  for (const message of Array.isArray(body) ? body : [body]) {
    if ((message as { method?: unknown } | null)?.method !== 'initialize') continue;
    const parsed = InitializeParams.safeParse((message as { params?: unknown }).params);
    if (parsed.success) continue;
    const id = (message as { id?: unknown }).id;
    return {
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: { code: ErrorCodes.InvalidParams, message: `Invalid params for initialize: ${describeZodError(parsed.error as never)}` },
    };
  }
  return undefined;
}

function containsInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
}

/**
 * The body as text, or `tooLarge` past `limit`. A body over the limit is still read (and
 * discarded) up to a few times the limit, so the client, still uploading, gets the 413
 * instead of a connection reset; past that the connection is cut.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<{ text: string; tooLarge: boolean }> {
  const drainLimit = Math.max(4 * limit, 16 * 1024 * 1024);
  const declared = Number(req.headers['content-length']);
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = Number.isFinite(declared) && declared > limit;
  if (tooLarge && declared > drainLimit) return { text: '', tooLarge };
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      tooLarge = true;
      chunks.length = 0;
    }
    if (size > drainLimit) break;
    if (!tooLarge) chunks.push(chunk as Buffer);
  }
  return tooLarge ? { text: '', tooLarge } : { text: Buffer.concat(chunks).toString('utf8'), tooLarge };
}

function sendPlain(res: ServerResponse, status: number, message: string) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(message);
}

function sendJson(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string) {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}
