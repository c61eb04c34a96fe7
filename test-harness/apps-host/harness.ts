// A real MCP Apps host for tests: the host page and the sandbox proxy on two loopback
// origins (as ext-apps' basic-host uses 8080 and 8081), a real Chromium from npm
// (@sparticuz/chromium ships the binary in its package; CHROMIUM_PATH names a system one
// instead), and the test process as the MCP client of a real server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rmdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium as playwright, type Browser, type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';
import type { Connection } from '@mcp-reference/shared/client';
import type { RenderRequest } from './page/render-request.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const GOLDENS = path.join(here, 'goldens');
const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
export const APPS_CLIENT = { extensions: { [APPS_EXTENSION]: { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** Arguments the package's defaults add that a host must not have: they turn security off. */
const UNSAFE_ARGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);

/**
 * The package unpacks its browser into the temp directory on first use, and a second test
 * file that finds the half-written binary there would launch it: one unpacks at a time.
 */
async function unpackOnce<T>(work: () => Promise<T>): Promise<T> {
  const lock = path.join(tmpdir(), 'mcp-reference-chromium.lock');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const since = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      // A lock left by a process that died while unpacking.
      if (since > 120_000) await rmdir(lock).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

export async function launchChromium(): Promise<{ browser: Browser; context: BrowserContext; launchMs: number }> {
  const started = performance.now();
  const { default: chromium } = await import('@sparticuz/chromium');
  const executablePath = process.env.CHROMIUM_PATH || (await unpackOnce(() => chromium.executablePath()));
  // The package's arguments run Chromium as one process (so: pages, not extra contexts).
  const args = chromium.args.filter((arg) => !UNSAFE_ARGS.has(arg));
  const browser = await playwright.launch({ executablePath, args, headless: true });
  // One context for every page: a single-process Chromium does not survive closing extra ones.
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  return { browser, context, launchMs: performance.now() - started };
}

async function bundle(entry: string): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [path.join(here, 'page', entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  return outputFiles[0].text;
}

function listen(handler: (url: string) => { type: string; body: string } | undefined): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const answer = handler(new URL(request.url ?? '/', 'http://x').pathname);
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': answer.type, 'cache-control': 'no-store' }).end(answer.body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

/** What the host page puts on its window (see page/host.ts). */
interface HostPage {
  render(request: RenderRequest): Promise<{ paintMs: number }>;
  probes: { kind: string; directive?: string; blocked?: string }[];
  refusedCalls: string[];
}

export interface AppsHost {
  browser: Browser;
  context: BrowserContext;
  launchMs: number;
  hostOrigin: string;
  proxyOrigin: string;
  close(): Promise<void>;
}

export async function startAppsHost(): Promise<AppsHost> {
  const [hostJs, sandboxJs] = await Promise.all([bundle('host.ts'), bundle('sandbox.ts')]);
  const html = (script: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;background:#888;overflow:hidden}</style></head><body><script src="${script}"></script></body></html>`;
  const js = 'text/javascript; charset=utf-8';
  const host = await listen((url) =>
    url === '/' ? { type: 'text/html', body: html('/host.js') } : url === '/host.js' ? { type: js, body: hostJs } : undefined,
  );
  const proxy = await listen((url) =>
    url === '/sandbox.html' ? { type: 'text/html', body: html('/sandbox.js') } : url === '/sandbox.js' ? { type: js, body: sandboxJs } : undefined,
  );
  const { browser, context, launchMs } = await launchChromium();
  return {
    browser,
    context,
    launchMs,
    hostOrigin: host.origin,
    proxyOrigin: proxy.origin,
    async close() {
      await browser.close();
      host.server.close();
      proxy.server.close();
    },
  };
}

export interface ViewSession {
  page: Page;
  /** The view's document: the inner frame inside the sandbox proxy's frame. */
  view: FrameLocator;
  /** The outer iframe element, for screenshots. */
  frame: Locator;
  paintMs: number;
  toolResult: Record<string, unknown>;
  consoleErrors: string[];
  /** Requests other than the host page's and the proxy's own files. */
  outbound: string[];
  violations(): Promise<{ directive?: string; blocked?: string }[]>;
  refusedCalls(): Promise<string[]>;
  /** Whether anything in the view's document set window.__pwned. */
  pwned(): Promise<unknown>;
  close(): Promise<void>;
}

export interface OpenViewOptions {
  tool: string;
  arguments: Record<string, unknown>;
  theme?: 'light' | 'dark';
  width?: number;
}

/** Calls a tool through the connection, reads its view and renders it with the result. */
export async function openView(host: AppsHost, connection: Connection, options: OpenViewOptions): Promise<ViewSession> {
  const { client } = connection;
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === options.tool);
  const uri = (tool?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  if (!uri) throw new Error(`${options.tool} has no view (is the client declaring ${APPS_EXTENSION}?)`);
  const visibility = Object.fromEntries(tools.map((t) => [t.name, (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility]));
  const toolResult = (await client.callTool({ name: options.tool, arguments: options.arguments })) as Record<string, unknown>;
  const { contents } = await client.readResource({ uri });
  const [content] = contents as { text: string; mimeType: string; _meta?: { ui?: Pick<RenderRequest, 'csp' | 'permissions'> } }[];

  const page = await host.context.newPage();
  await page.setViewportSize({ width: (options.width ?? 720) + 40, height: 900 });
  const consoleErrors: string[] = [];
  const outbound: string[] = [];
  const own = new Set([`${host.hostOrigin}/`, `${host.hostOrigin}/host.js`, `${host.proxyOrigin}/sandbox.html`, `${host.proxyOrigin}/sandbox.js`]);
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    if (!own.has(request.url())) outbound.push(request.url());
  });
  await page.exposeFunction('mcpCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) =>
    client.callTool({ name: params.name, arguments: params.arguments ?? {} }),
  );
  await page.goto(`${host.hostOrigin}/`);
  const request: RenderRequest = {
    proxyUrl: `${host.proxyOrigin}/sandbox.html`,
    html: content.text,
    csp: content._meta?.ui?.csp,
    permissions: content._meta?.ui?.permissions,
    toolArguments: options.arguments,
    toolResult,
    visibility,
    theme: options.theme ?? 'light',
    width: options.width ?? 720,
  };
  const { paintMs } = await page.evaluate((r) => (globalThis as unknown as HostPage).render(r), request);
  const view = page.frameLocator('#view').frameLocator('iframe');
  const innerFrame = () => {
    const frame = page.frames().find((f) => f.parentFrame()?.parentFrame() === page.mainFrame());
    if (!frame) throw new Error('the view frame is not there');
    return frame;
  };
  return {
    page,
    view,
    frame: page.locator('#view'),
    paintMs,
    toolResult,
    consoleErrors,
    outbound,
    violations: () => page.evaluate(() => (globalThis as unknown as HostPage).probes.filter((p) => p.kind === 'csp')),
    refusedCalls: () => page.evaluate(() => (globalThis as unknown as HostPage).refusedCalls),
    pwned: () => innerFrame().evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned),
    close: () => page.close(),
  };
}

/**
 * Compares a screenshot with the committed golden (`maxDiffPixelRatio` of differing
 * pixels allowed). UPDATE_GOLDENS=1 writes the golden instead; a missing golden fails.
 */
export async function compareWithGolden(png: Buffer, name: string, maxDiffPixelRatio = 0.06): Promise<{ ratio: number; file: string }> {
  const file = path.join(GOLDENS, `${name}.png`);
  if (process.env.UPDATE_GOLDENS === '1') {
    await mkdir(GOLDENS, { recursive: true });
    await writeFile(file, png);
    return { ratio: 0, file };
  }
  if (!existsSync(file)) throw new Error(`No golden ${file}: run the test once with UPDATE_GOLDENS=1, look at the image, commit it.`);
  const actual = PNG.sync.read(png);
  const golden = PNG.sync.read(await readFile(file));
  if (actual.width !== golden.width || actual.height !== golden.height) {
    await writeFile(file.replace(/\.png$/, '.actual.png'), png);
    throw new Error(`${name}: screenshot is ${actual.width}x${actual.height}, the golden ${golden.width}x${golden.height}`);
  }
  const diff = pixelmatch(actual.data, golden.data, undefined, actual.width, actual.height, { threshold: 0.1 });
  const ratio = diff / (actual.width * actual.height);
  if (ratio > maxDiffPixelRatio) {
    await writeFile(file.replace(/\.png$/, '.actual.png'), png);
    throw new Error(`${name}: ${(ratio * 100).toFixed(2)}% of pixels differ from the golden (at most ${maxDiffPixelRatio * 100}%)`);
  }
  return { ratio, file };
}
