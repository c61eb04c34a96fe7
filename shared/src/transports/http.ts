import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InitializeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describeZodError } from '../json-schema.js';
import type { McpServer } from '../server.js';
import type { Logger } from '../logging.js';
import { errorMessage, ErrorCodes } from '../errors.js';
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
  /** Open sessions at most; more get 503 until some close (default 10,000). */
  maxSessions?: number;
  logger: Logger;
}

export interface HttpHandle {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

interface Entry {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  openRequests: number;
}

const MCP_PATH = '/mcp';

/**
 * Streamable HTTP at `/mcp`. Before a request reaches the SDK transport it passes, in
 * order: Host and Origin checks (DNS rebinding: only the bound host and port under the
 * loopback names, else 403), the bearer token when one is configured (401 with a plain
 * `Bearer` challenge: there is no authorization server, so no RFC 9728 metadata that would
 * send clients into OAuth), the body limit (413) and JSON parsing (400, -32700). Each
 * session has its own transport and server session; idle ones are closed by a sweeper. A
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

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((error) => {
      options.logger.log('error', 'HTTP request failed', errorMessage(error));
      if (!res.headersSent) sendJsonRpcError(res, 500, ErrorCodes.InternalError, 'Internal server error');
      else res.end();
    });
  });
  // Long-lived SSE streams must not be cut by Node's default request timeouts.
  http.requestTimeout = 0;
  http.headersTimeout = 60_000;

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
    if (sessions.size >= maxSessions) {
      return sendJsonRpcError(res, 503, ErrorCodes.InternalError, 'Too many open sessions; try again later');
    }
    await startSession(req, res, body);
  }

  async function startSession(req: IncomingMessage, res: ServerResponse, body: unknown) {
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        sessions.set(id, entry);
      },
    });
    const entry: Entry = { transport, lastSeen: Date.now(), openRequests: 0 };
    transport.onclose = () => sessions.delete(id);
    await server.connect(transport, { sessionId: id });
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
    const parsed = InitializeRequestSchema.safeParse(message);
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
