import { createServer, UsageError, type Logger, type LogLevel, type McpServer } from '@mcp-reference/shared';
import type { FetchContext } from './context.js';
import { createUrlGuard, type LookupAll } from './lib/url-guard.js';
import { createFetcher } from './lib/fetcher.js';
import { createConverter } from './lib/converter.js';
import { createPageService } from './lib/page-service.js';
import { urlOfPageUri } from './page-uri.js';
import { describeFetchError } from './describe-error.js';
import pkg from '../package.json' with { type: 'json' };

export interface CreateFetchServerOptions {
  userAgent?: string;
  ignoreRobotsTxt?: boolean;
  /** An http:// proxy for every request; targets are checked as without one. */
  proxyUrl?: string;
  /** `HOST[:PORT]` entries that may be private or loopback addresses. */
  allowHost?: string[];
  /** URLs listed as resources from the start. */
  page?: string[];
  timeoutMs?: number;
  maxBytes?: number;
  pollIntervalMs?: number;
  /** How host names resolve (tests inject one; default: the system resolver). */
  lookup?: LookupAll;
  /** The bundled CLI file, to run page conversion in workers (see lib/converter.ts). */
  converterEntry?: URL;
  /** Largest serialized result (the base's default keeps it under the SDK client's limit). */
  maxResultBytes?: number;
  pageSize?: number;
  logLevel?: LogLevel;
  logger?: Logger;
}

/**
 * The fetch server: the official `fetch` tool and prompt (markdown of a page's main
 * content, read on with start_index), safe against SSRF at every redirect hop, with
 * fetched pages as resources that subscriptions keep current.
 */
export function createFetchServer(options: CreateFetchServerOptions = {}): McpServer {
  let proxy: URL | undefined;
  if (options.proxyUrl) {
    proxy = new URL(options.proxyUrl);
    if (proxy.protocol !== 'http:') throw new UsageError('--proxy-url must be an http:// URL');
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const guard = createUrlGuard({ allowHosts: options.allowHost ?? [], lookup: options.lookup });
  const fetcher = createFetcher({
    guard,
    userAgent: options.userAgent,
    ignoreRobotsTxt: options.ignoreRobotsTxt ?? false,
    proxy,
    timeoutMs,
    maxBytes: options.maxBytes ?? 10 * 1024 * 1024,
  });
  const pages = createPageService({
    fetcher,
    converter: createConverter({ workerEntry: options.converterEntry }),
    timeoutMs,
    pollIntervalMs: options.pollIntervalMs ?? 60_000,
    pages: (options.page ?? []).map((url) => new URL(url).href),
    onListed: () => server.notifyResourceListChanged(),
  });
  const context: FetchContext = { pages };
  const server: McpServer = createServer<FetchContext>({
    name: 'mcp-server-fetch',
    version: pkg.version,
    instructions:
      'Fetch web pages as markdown with the fetch tool; long pages come in pieces (call again with start_index = next_start_index). ' +
      'Fetched pages are resources (fetch://page/{url}) that can be subscribed to.',
    // Loaded on first use, so their schemas are not built before `initialize` is answered.
    tools: async () => (await import('./tools/index.js')).tools,
    views: async () => (await import('./views.js')).views,
    templates: async () => (await import('./resources/index.js')).templates,
    prompts: async () => (await import('./prompts/index.js')).prompts,
    context: () => context,
    useRoots: false,
    async watch(uri, changed, ctx) {
      const url = urlOfPageUri(uri);
      if (url === undefined) return undefined;
      return ctx.pages.watch(url, changed);
    },
    describeError: describeFetchError,
    onClose: () => pages.close(),
    maxResultBytes: options.maxResultBytes,
    pageSize: options.pageSize,
    logLevel: options.logLevel,
    logger: options.logger,
  });
  return server;
}

/**
 * The page-to-markdown conversion `fetch` runs, on the calling thread: HTML and the page's
 * URL in, `{ title, markdown, byline?, siteName?, publishedTime?, excerpt?, lang? }` out.
 * Exported for measuring the conversion alone (`pnpm bench`), without HTTP in between.
 */
export { htmlToMarkdown, type ConvertInput, type Converted } from './lib/html-to-markdown.js';
