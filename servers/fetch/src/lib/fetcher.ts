import type { IncomingHttpHeaders } from 'node:http';
import { FetchError } from './errors.js';
import { httpGet } from './http-get.js';
import { ALLOW_ALL, DENY_ALL, parseRobots, type RobotsRules } from './robots.js';
import type { UrlGuard } from './url-guard.js';

export const DEFAULT_USER_AGENT = 'ModelContextProtocol/1.0 (Autonomous; +https://github.com/modelcontextprotocol/servers)';
export const MANUAL_USER_AGENT = 'ModelContextProtocol/1.0 (User-Specified; +https://github.com/modelcontextprotocol/servers)';

export interface FetcherOptions {
  guard: UrlGuard;
  userAgent?: string;
  ignoreRobotsTxt: boolean;
  proxy?: URL;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  /** Time limit of a robots.txt fetch (default 5 s, at most timeoutMs). */
  robotsTimeoutMs?: number;
}

export interface FetchRequest {
  /** Sent to the requested URL's host only: dropped when a redirect leads elsewhere. */
  headers?: Record<string, string>;
  /** Validators of a cached copy of the final URL, for a conditional request. */
  conditional?: { url: string; etag?: string; lastModified?: string };
  signal?: AbortSignal;
  /** The user asked for this URL themselves (a prompt): robots.txt does not apply, as in the official server. */
  manual?: boolean;
  onBytes?: (received: number, total: number | undefined) => void;
}

export interface FetchedResponse {
  url: string;
  finalUrl: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  /** 304: the cached copy is still current. */
  notModified: boolean;
}

export interface Fetcher {
  fetch(url: string, request?: FetchRequest): Promise<FetchedResponse>;
}

// Headers a caller may not set: they would break framing or say who we connect to.
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'accept-encoding',
  'if-none-match',
  'if-modified-since',
]);

export function checkCallerHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) throw new FetchError('BAD_URL', `The header ${name} cannot be set by a call.`);
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(lower)) throw new FetchError('BAD_URL', `Not a valid header name: ${JSON.stringify(name)}`);
    if (/[\r\n\0]/.test(value)) throw new FetchError('BAD_URL', `The value of header ${name} contains a line break.`);
    out[lower] = value;
  }
  return out;
}

const MAX_ROBOTS_CACHE = 256;
const ROBOTS_TTL_MS = 60 * 60 * 1000;

export function createFetcher(options: FetcherOptions): Fetcher {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const maxRedirects = options.maxRedirects ?? 10;
  const robotsTimeout = Math.min(options.robotsTimeoutMs ?? 5_000, options.timeoutMs);
  // Per origin, so a page read in steps or a site crawled asks once an hour.
  const robotsCache = new Map<string, { rules: Promise<RobotsRules>; expires: number }>();

  /** One hop after another, each checked by the guard, up to the redirect limit. */
  async function follow(
    start: string,
    request: FetchRequest & { userAgent: string; deadline: number; timeoutMs: number; maxBytes: number; forRobots?: boolean },
  ): Promise<FetchedResponse> {
    const callerHeaders = checkCallerHeaders(request.headers);
    let target = await options.guard.check(start);
    const firstHost = target.url.host.toLowerCase();
    const firstProtocol = target.url.protocol;
    for (let hop = 0; ; hop++) {
      if (!request.forRobots && !request.manual && !options.ignoreRobotsTxt) await checkRobots(target.url, request);
      const sameHost = target.url.host.toLowerCase() === firstHost && target.url.protocol === firstProtocol;
      const headers: Record<string, string> = {
        'user-agent': request.userAgent,
        accept: request.forRobots ? 'text/plain, */*;q=0.5' : 'text/html, application/xhtml+xml, application/json, text/*;q=0.9, */*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
        ...(sameHost ? callerHeaders : {}),
      };
      const conditional = request.conditional;
      if (conditional && conditional.url === target.url.href) {
        if (conditional.etag) headers['if-none-match'] = conditional.etag;
        if (conditional.lastModified) headers['if-modified-since'] = conditional.lastModified;
      }
      const response = await httpGet(target, {
        headers,
        deadline: request.deadline,
        timeoutMs: request.timeoutMs,
        maxBytes: request.maxBytes,
        signal: request.signal,
        proxy: options.proxy,
        onBytes: request.onBytes,
      });
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
        if (hop >= maxRedirects) throw new FetchError('TOO_MANY_REDIRECTS', `${start} redirected more than ${maxRedirects} times.`);
        if (!URL.canParse(location, target.url.href)) {
          throw new FetchError('BAD_URL', `${target.url.href} redirected to an invalid URL: ${location.slice(0, 200)}`);
        }
        // The Location as written: its host is what --allow-host is matched against.
        target = await options.guard.check(location, target);
        continue;
      }
      return {
        url: start,
        finalUrl: target.url.href,
        status: response.status,
        headers: response.headers,
        body: response.body,
        truncated: response.truncated,
        notModified: response.status === 304,
      };
    }
  }

  async function loadRobots(origin: string, signal: AbortSignal | undefined): Promise<RobotsRules> {
    try {
      const response = await follow(`${origin}/robots.txt`, {
        userAgent,
        deadline: Date.now() + robotsTimeout,
        timeoutMs: robotsTimeout,
        maxBytes: 512 * 1024,
        signal,
        forRobots: true,
      });
      if (response.status === 401 || response.status === 403) return DENY_ALL;
      if (response.status >= 400 && response.status < 500) return ALLOW_ALL;
      if (response.status >= 200 && response.status < 300) return parseRobots(response.body.toString('utf8'), userAgent);
      return DENY_ALL; // 5xx, or a redirect loop that never ended in a file
    } catch (error) {
      if (error instanceof FetchError && error.code === 'CANCELLED') throw error;
      return DENY_ALL; // unreachable or too slow: the site's wishes are unknown
    }
  }

  async function checkRobots(url: URL, request: FetchRequest): Promise<void> {
    const origin = url.origin;
    let cached = robotsCache.get(origin);
    if (!cached || cached.expires < Date.now()) {
      if (robotsCache.size >= MAX_ROBOTS_CACHE) robotsCache.delete(robotsCache.keys().next().value!);
      cached = { rules: loadRobots(origin, request.signal), expires: Date.now() + ROBOTS_TTL_MS };
      robotsCache.set(origin, cached);
      // A cancelled robots fetch says nothing about the site: forget it.
      cached.rules.catch(() => robotsCache.delete(origin));
    }
    const rules = await cached.rules;
    if (!rules.isAllowed(`${url.pathname}${url.search}`)) {
      throw new FetchError(
        'ROBOTS',
        `The site's robots.txt (${origin}/robots.txt) does not allow fetching ${url.href} for this user agent (or could not be read). ` +
          'The user can open the page themselves, or run the server with --ignore-robots-txt.',
      );
    }
  }

  return {
    fetch(url, request = {}) {
      return follow(url, {
        ...request,
        userAgent: request.manual && !options.userAgent ? MANUAL_USER_AGENT : userAgent,
        deadline: Date.now() + options.timeoutMs,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
      });
    },
  };
}
