import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { LookupFunction } from 'node:net';
import type { Transform } from 'node:stream';
import { FetchError } from './errors.js';
import { defaultPort, type CheckedTarget } from './url-guard.js';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body was cut at the byte cap. */
  truncated: boolean;
}

export interface GetOptions {
  headers: Record<string, string>;
  /** Absolute time (Date.now()) by which the whole response must have arrived. */
  deadline: number;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** An http:// proxy; the target's checked address is what the proxy is asked for. */
  proxy?: URL;
  /** Called as body bytes arrive. */
  onBytes?: (received: number, total: number | undefined) => void;
}

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Node's HTTP client modules, loaded by the first fetch rather than at start-up: http,
 * https, tls and zlib together cost a server that has not fetched anything yet about
 * 15 ms of its cold start. (Not `import()`: the bundled bin runs as a script, which has no
 * dynamic import of its own.)
 */
function clientModules() {
  return {
    http: process.getBuiltinModule('node:http'),
    https: process.getBuiltinModule('node:https'),
    tlsConnect: process.getBuiltinModule('node:tls').connect,
    zlib: process.getBuiltinModule('node:zlib'),
  };
}
type ClientModules = ReturnType<typeof clientModules>;

/** A lookup that answers with the address the guard checked, whatever name is asked. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * One GET to a checked target, connecting to its checked address only. The body is read
 * while streaming up to `maxBytes` after decompression (so a gzip bomb stops there too),
 * and the whole exchange must end by `deadline`.
 */
export function httpGet(target: CheckedTarget, options: GetOptions): Promise<RawResponse> {
  const modules = clientModules();
  const { http, https, tlsConnect } = modules;
  const { url } = target;
  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    let request: ClientRequest | undefined;
    let tunnel: Socket | undefined;
    const cleanups: (() => void)[] = [];
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      for (const cleanup of cleanups) cleanup();
      outcome();
    };
    const fail = (error: Error) =>
      finish(() => {
        request?.destroy();
        tunnel?.destroy();
        reject(error);
      });
    const wait = Math.max(0, options.deadline - Date.now());
    const timer = setTimeout(
      () => fail(new FetchError('TIMEOUT', `${url.href} did not answer completely within ${options.timeoutMs} ms.`)),
      wait,
    );
    cleanups.push(() => clearTimeout(timer));
    const connectTimer = setTimeout(
      () => fail(new FetchError('TIMEOUT', `Could not connect to ${url.host} within ${Math.min(CONNECT_TIMEOUT_MS, options.timeoutMs)} ms.`)),
      Math.min(CONNECT_TIMEOUT_MS, wait),
    );
    const connected = () => clearTimeout(connectTimer);
    cleanups.push(connected);
    if (options.signal) {
      if (options.signal.aborted) return fail(new FetchError('CANCELLED', 'The fetch was cancelled.'));
      const onAbort = () => fail(new FetchError('CANCELLED', 'The fetch was cancelled.'));
      options.signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => options.signal!.removeEventListener('abort', onAbort));
    }

    const hostHeader = url.host;
    const headers: Record<string, string> = { ...options.headers, host: hostHeader };
    const addressHost = target.family === 6 ? `[${target.address}]` : target.address;
    const port = Number(defaultPort(url));

    const onResponse = (response: IncomingMessage) => {
      connected();
      readBody(response, options, modules.zlib).then(
        (read) => finish(() => resolve({ status: response.statusCode ?? 0, headers: response.headers, ...read })),
        (error: Error) => fail(error),
      );
    };
    const onError = (error: NodeJS.ErrnoException) => fail(describeNetworkError(url, error));

    try {
      if (options.proxy && url.protocol === 'http:') {
        // Plain HTTP through a proxy: absolute-form request line naming the checked address,
        // so the proxy does not resolve the name again.
        const proxy = options.proxy;
        request = http.request({
          host: proxy.hostname.replace(/^\[|\]$/g, ''),
          port: Number(defaultPort(proxy)),
          method: 'GET',
          path: `http://${addressHost}:${port}${url.pathname}${url.search}`,
          headers,
          agent: false,
        });
      } else if (options.proxy) {
        // HTTPS through a proxy: CONNECT to the checked address, then TLS for the real name.
        const proxy = options.proxy;
        const connectRequest = http.request({
          host: proxy.hostname.replace(/^\[|\]$/g, ''),
          port: Number(defaultPort(proxy)),
          method: 'CONNECT',
          path: `${addressHost}:${port}`,
          headers: { host: `${addressHost}:${port}` },
          agent: false,
        });
        connectRequest.on('connect', (res, socket) => {
          tunnel = socket;
          if (res.statusCode !== 200) {
            fail(new FetchError('NETWORK', `The proxy refused to connect to ${url.host} (HTTP ${res.statusCode}).`));
            return;
          }
          request = https.request({
            method: 'GET',
            path: `${url.pathname}${url.search}`,
            headers,
            agent: false,
            createConnection: () => tlsConnect({ socket, servername: url.hostname }),
          });
          request.on('response', onResponse).on('error', onError).end();
        });
        connectRequest.on('socket', (socket) => socket.once('connect', connected));
        connectRequest.on('error', onError).end();
        cleanups.push(() => connectRequest.destroy());
        return;
      } else {
        const client = url.protocol === 'https:' ? https : http;
        request = client.request({
          host: url.hostname.replace(/^\[|\]$/g, ''),
          port,
          method: 'GET',
          path: `${url.pathname}${url.search}`,
          headers,
          lookup: pinnedLookup(target.address, target.family),
          ...(url.protocol === 'https:' ? { servername: isIpHost(url) ? undefined : url.hostname } : {}),
          agent: false,
        });
      }
    } catch (error) {
      // Header names or values Node refuses (newlines, bad characters).
      fail(new FetchError('BAD_URL', `Cannot send this request: ${(error as Error).message}`));
      return;
    }
    // The connect timer covers the TCP connection only; the deadline covers the rest.
    request.on('socket', (socket) => socket.once('connect', connected));
    request.on('response', onResponse).on('error', onError).end();
  });
}

function isIpHost(url: URL): boolean {
  return /^[\d.]+$|^\[/.test(url.hostname);
}

function describeNetworkError(url: URL, error: NodeJS.ErrnoException): Error {
  if (error instanceof FetchError) return error;
  const code = error.code ?? '';
  if (/CERT|SSL|TLS|SELF_SIGNED|ERR_TLS/i.test(code) || /certificate|ssl|tls/i.test(error.message)) {
    return new FetchError('TLS', `TLS error talking to ${url.host}: ${error.message}`);
  }
  if (code === 'ECONNREFUSED') return new FetchError('NETWORK', `${url.host} refused the connection.`);
  if (code === 'ECONNRESET' || code === 'EPIPE') return new FetchError('NETWORK', `${url.host} closed the connection.`);
  return new FetchError('NETWORK', `Could not fetch ${url.href}: ${code || error.message}`);
}

function decoderFor(response: IncomingMessage, zlib: ClientModules['zlib']): Transform | undefined {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

/** Reads at most `maxBytes` of the (decoded) body, then stops the transfer. */
function readBody(response: IncomingMessage, options: GetOptions, zlib: ClientModules['zlib']): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const decoder = decoderFor(response, zlib);
    const stream = decoder ? response.pipe(decoder) : response;
    const lengthHeader = Number(response.headers['content-length']);
    const total = decoder || !Number.isFinite(lengthHeader) ? undefined : lengthHeader;
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const end = (truncated: boolean) => {
      if (done) return;
      done = true;
      resolve({ body: Buffer.concat(chunks), truncated });
    };
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = options.maxBytes - received;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        received += room;
        options.onBytes?.(received, total);
        end(chunk.length > room || !response.complete);
        response.destroy();
        decoder?.destroy();
        return;
      }
      chunks.push(chunk);
      received += chunk.length;
      options.onBytes?.(received, total);
    });
    stream.on('end', () => end(false));
    stream.on('error', (error: Error) => {
      if (done) return;
      done = true;
      reject(decoder ? new FetchError('NETWORK', `The response body could not be decompressed: ${error.message}`) : error);
    });
    response.on('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
    response.on('aborted', () => {
      if (done) return;
      done = true;
      reject(new FetchError('NETWORK', 'The server closed the connection before the body was complete.'));
    });
  });
}
