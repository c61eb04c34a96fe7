import type { IncomingHttpHeaders } from 'node:http';
import { FetchError } from './errors.js';
import type { Converter } from './converter.js';
import type { Fetcher, FetchedResponse } from './fetcher.js';
import { createSizedCache } from './page-cache.js';
import { createPageIndex, type PageIndex } from './page-index.js';
import { decodeBody, kindOf, mediaType, type ContentKind } from './content-type.js';
import { createSlots, nodeCrypto, type Slots } from '@mcp-reference/shared/core';

/** A page as a model reads it: the whole converted text, sliced by the caller. */
export interface Page {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  title: string;
  /** What the page says of its article (HTML pages converted to markdown only). */
  byline?: string;
  siteName?: string;
  publishedTime?: string;
  excerpt?: string;
  /** Markdown for HTML (unless raw), the text for text types, empty for images. */
  content: string;
  image?: { data: string; mimeType: string };
  /** The body was cut at the byte cap. */
  bodyTruncated: boolean;
  /** Served from the cache without a request, or after a 304. */
  cached: 'no' | 'fresh' | 'revalidated';
}

type Rendered = Pick<Page, 'title' | 'content' | 'image' | 'byline' | 'siteName' | 'publishedTime' | 'excerpt'>;

/**
 * One conversion, shared by every call that needs it while it runs. It stops (its worker
 * is terminated) when the last of those calls is cancelled or dropped, and not before:
 * one caller giving up does not fail the others.
 */
interface Render {
  work: Promise<Rendered>;
  controller: AbortController;
  /** Calls waiting for it; a call without a signal (a poll) is never cancelled. */
  waiting: number;
  settled: boolean;
}

interface Entry {
  response: Omit<FetchedResponse, 'body' | 'notModified'> & { contentType: string };
  body: Buffer;
  kind: ContentKind;
  hash: string;
  etag?: string;
  lastModified?: string;
  /** Converted forms, by `raw`: computed once per fetched body. */
  renders: Map<boolean, Render>;
}

export interface GetOptions {
  raw?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  manual?: boolean;
  /** Use a cached copy without asking the server (continuing a page). */
  preferCache?: boolean;
  onProgress?: (stage: string, done: number, total?: number) => void;
}

export interface PageServiceOptions {
  fetcher: Fetcher;
  converter: Converter;
  timeoutMs: number;
  pollIntervalMs: number;
  /** URLs listed as resources from the start. */
  pages?: readonly string[];
  /** Total bytes of bodies and conversions kept (default 64 MB). */
  cacheBytes?: number;
  /** Called when a page joins the resource list. */
  onListed?: () => void;
  /** Largest image returned as image content. */
  maxImageBytes?: number;
  /** Fetches and conversions in progress at once (default 8); more wait their turn. */
  maxConcurrent?: number;
}

export interface PageService {
  get(url: string, options?: GetOptions): Promise<Page>;
  readonly index: PageIndex;
  /** Polls `url` with conditional requests; calls `changed` when its body changes. */
  watch(url: string, changed: () => void): Promise<() => void>;
  close(): Promise<void>;
}

const hashOf = (body: Buffer) => nodeCrypto().createHash('sha256').update(body).digest('hex');
const headerText = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export function createPageService(options: PageServiceOptions): PageService {
  const cache = createSizedCache<Entry>({ maxEntries: 200, maxBytes: options.cacheBytes ?? 64 * 1024 * 1024 });
  const index = createPageIndex(options.pages ?? []);
  const maxImageBytes = options.maxImageBytes ?? 2 * 1024 * 1024;
  // Each fetch may hold up to the byte cap several times over (body, text, markdown):
  // bounding how many run at once bounds the memory of a burst of calls.
  const slots = createSlots(options.maxConcurrent ?? 8);
  // Pages fetched with a caller's headers (credentials, say) are cached apart, never
  // listed, and never served to a call without the same headers.
  const keyOf = (url: string, headers: Record<string, string> | undefined) =>
    headers && Object.keys(headers).length
      ? `${url}\n${nodeCrypto().createHash('sha256').update(JSON.stringify(Object.entries(headers).sort())).digest('hex')}`
      : url;

  const store = (key: string, response: FetchedResponse): Entry => {
    const contentType = headerText(response.headers, 'content-type') ?? '';
    const entry: Entry = {
      response: { url: response.url, finalUrl: response.finalUrl, status: response.status, headers: response.headers, truncated: response.truncated, contentType },
      body: response.body,
      kind: kindOf(contentType, response.body),
      hash: hashOf(response.body),
      etag: headerText(response.headers, 'etag'),
      lastModified: headerText(response.headers, 'last-modified'),
      renders: new Map(),
    };
    cache.set(key, entry, response.body.length * 3);
    return entry;
  };

  const render = (entry: Entry, raw: boolean, signal: AbortSignal | undefined): Promise<Rendered> => {
    const kind = entry.kind;
    const key = raw && kind === 'html';
    let shared = entry.renders.get(key);
    if (!shared) {
      const controller = new AbortController();
      const work = (async (): Promise<Rendered> => {
        const type = mediaType(entry.response.contentType);
        if (kind === 'image') {
          if (entry.response.truncated || entry.body.length > maxImageBytes) {
            throw new FetchError('TOO_LARGE', `The image at ${entry.response.finalUrl} is larger than ${maxImageBytes} bytes; open it outside the conversation.`);
          }
          return { title: '', content: '', image: { data: entry.body.toString('base64'), mimeType: type } };
        }
        if (kind === 'pdf') {
          throw new FetchError('UNSUPPORTED', `${entry.response.finalUrl} is a PDF; this server does not extract PDF text. Look for an HTML version of the document.`);
        }
        if (kind === 'binary') {
          throw new FetchError('UNSUPPORTED', `${entry.response.finalUrl} is binary content (${type || 'unknown type'}), which cannot be shown as text.`);
        }
        if (kind === 'text' || raw) return { title: '', content: decodeBody(entry.body, entry.response.contentType, kind) };
        // The bytes, decoded by the converter: a large page off the event loop.
        const input = { body: entry.body, contentType: entry.response.contentType, url: entry.response.finalUrl };
        const converted = await options.converter.convert(input, { signal: controller.signal, timeoutMs: options.timeoutMs });
        const { title, markdown, byline, siteName, publishedTime, excerpt } = converted;
        return { title, content: markdown, byline, siteName, publishedTime, excerpt };
      })();
      const current: Render = { work, controller, waiting: 0, settled: false };
      shared = current;
      entry.renders.set(key, current);
      // A failed or cancelled conversion is not kept: the next call tries again.
      work.then(
        () => (current.settled = true),
        () => {
          current.settled = true;
          if (entry.renders.get(key) === current) entry.renders.delete(key);
        },
      );
    }
    return join(shared, signal, () => {
      if (entry.renders.get(key) === shared) entry.renders.delete(key);
    });
  };

  /** Waits for a shared conversion on behalf of one call, which may give up alone. */
  const join = (shared: Render, signal: AbortSignal | undefined, forget: () => void): Promise<Rendered> => {
    if (!signal) {
      shared.waiting = Infinity;
      return shared.work;
    }
    if (signal.aborted) return Promise.reject(new FetchError('CANCELLED', 'The fetch was cancelled.'));
    shared.waiting++;
    return new Promise<Rendered>((resolve, reject) => {
      const onAbort = () => {
        shared.waiting--;
        if (shared.waiting === 0 && !shared.settled) {
          forget();
          shared.controller.abort();
        }
        reject(new FetchError('CANCELLED', 'The fetch was cancelled.'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.work.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  };

  const toPage = async (entry: Entry, raw: boolean, cached: Page['cached'], signal: AbortSignal | undefined): Promise<Page> => {
    const rendered = await render(entry, raw, signal);
    return {
      url: entry.response.url,
      finalUrl: entry.response.finalUrl,
      status: entry.response.status,
      contentType: entry.response.contentType,
      bodyTruncated: entry.response.truncated,
      cached,
      ...rendered,
    };
  };

  const getPage = async (requested: string, getOptions: GetOptions): Promise<Page> => {
    // One spelling per page in the cache and the resource list.
    const url = URL.canParse(requested) ? new URL(requested).href : requested;
    const key = keyOf(url, getOptions.headers);
    const raw = getOptions.raw ?? false;
    const cachedEntry = cache.get(key);
    if (cachedEntry && getOptions.preferCache) return toPage(cachedEntry, raw, 'fresh', getOptions.signal);
    return inSlot(slots, getOptions.signal, async () => {
      const previous = cache.get(key);
      // The URL as the caller wrote it: --allow-host is matched against its host as written.
      const response = await options.fetcher.fetch(requested, {
        headers: getOptions.headers,
        signal: getOptions.signal,
        manual: getOptions.manual,
        conditional: previous && (previous.etag || previous.lastModified)
          ? { url: previous.response.finalUrl, etag: previous.etag, lastModified: previous.lastModified }
          : undefined,
        onBytes: (received, total) => getOptions.onProgress?.('download', received, total),
      });
      if (response.notModified && previous) return toPage(previous, raw, 'revalidated', getOptions.signal);
      if (response.status >= 400) {
        throw new FetchError('HTTP', `${response.finalUrl} answered HTTP ${response.status}${describeStatus(response.status)}.`);
      }
      const entry = store(key, response);
      if (key === url && response.status < 300 && index.add(url)) options.onListed?.();
      getOptions.onProgress?.('convert', 0);
      return toPage(entry, raw, 'no', getOptions.signal);
    });
  };

  const service: PageService = {
    index,
    get: (requested, getOptions = {}) => getPage(requested, getOptions),
    async watch(url, changed) {
      let baseline = cache.get(url)?.hash;
      if (baseline === undefined) {
        await service.get(url).catch(() => undefined);
        baseline = cache.get(url)?.hash;
      }
      let polling = false;
      const timer = setInterval(async () => {
        if (polling) return; // a slow server: never stack polls
        polling = true;
        try {
          await service.get(url);
          const now = cache.get(url)?.hash;
          if (now !== undefined && now !== baseline) {
            baseline = now;
            changed();
          }
        } catch {
          // Unreachable for now: try again next time.
        } finally {
          polling = false;
        }
      }, options.pollIntervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    close: () => options.converter.close(),
  };
  return service;
}

/** `task` in one of the service's slots (a fetch cancelled while it waits starts nothing). */
async function inSlot<T>(slots: Slots, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
  const release = await slots.acquire(signal).catch(() => {
    throw new FetchError('CANCELLED', 'The fetch was cancelled.');
  });
  try {
    return await task();
  } finally {
    release();
  }
}

function describeStatus(status: number): string {
  if (status === 401 || status === 403) return ' (access denied; the page may need a login, which can be passed in headers)';
  if (status === 404 || status === 410) return ' (not found; check the URL)';
  if (status === 429) return ' (too many requests; try again later)';
  if (status >= 500) return ' (a server error; try again later)';
  return '';
}
