// Pages as resources: polling only while subscribed, with conditional requests; --page.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from '@mcp-reference/test-harness';
import { open, type Session } from './test-support.js';

let site: HttpFixture | undefined;
let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  await session?.server.close();
  await site?.close();
  site = session = undefined;
});

describe('page resources', () => {
  it('polls a subscribed page with conditional requests, notifies on change, and stops after unsubscribe', async () => {
    let version = 1;
    const conditional: string[] = [];
    site = await startHttpFixture({
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      '/news': (req, res) => {
        if (req.headers['if-none-match']) conditional.push(String(req.headers['if-none-match']));
        if (req.headers['if-none-match'] === `"v${version}"`) return void res.writeHead(304).end();
        res.writeHead(200, { 'content-type': 'text/plain', etag: `"v${version}"` }).end(`version ${version}`);
      },
    });
    session = await open({ allowHost: [`127.0.0.1:${site.port}`], pollIntervalMs: 100 });
    const uri = `fetch://page/${site.origin}/news`;
    await session.client.subscribeResource({ uri });
    while (conditional.length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(session.notifications.some((n) => n.method === 'notifications/resources/updated')).toBe(false);
    version = 2;
    await session.waitForNotification('notifications/resources/updated', (p) => p?.uri === uri, 5_000);
    expect(((await session.client.readResource({ uri })).contents[0] as { text: string }).text).toBe('version 2');
    await session.client.unsubscribeResource({ uri });
    const seen = site.requests.length;
    await new Promise((r) => setTimeout(r, 400));
    expect(site.requests.length).toBe(seen);
  });

  it('lists --page URLs from the start and fetches them when read', async () => {
    site = await startHttpFixture({ '/doc': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('the doc') });
    session = await open({ allowHost: [`127.0.0.1:${site.port}`], page: [`${site.origin}/doc`], ignoreRobotsTxt: true });
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`fetch://page/${site.origin}/doc`]);
    expect(site.requests).toEqual([]);
    const read = await session.client.readResource({ uri: resources[0].uri });
    expect((read.contents[0] as { text: string }).text).toBe('the doc');
  });

  it('answers a read of a refused URL with resource-not-found', async () => {
    session = await open();
    await expect(session.client.readResource({ uri: 'fetch://page/http://127.0.0.1:1/' })).rejects.toThrow(/Refused/);
  });
});

describe('--proxy-url', () => {
  it('sends requests through the proxy, naming the checked address, and checks targets as without it', async () => {
    site = await startHttpFixture({ '/page': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('via proxy') });
    const proxied: string[] = [];
    const proxy = http.createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      const target = new URL(req.url!);
      const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      session = await open({ allowHost: [`127.0.0.1:${site.port}`], proxyUrl, ignoreRobotsTxt: true });
      expect((await session.ok('fetch', { url: `${site.origin}/page` })).content).toBe('via proxy');
      expect(proxied).toEqual([`GET http://127.0.0.1:${site.port}/page`]);
      expect(await session.refused('fetch', { url: 'http://localhost:22/' })).toMatch(/Refused/);
      expect(await session.refused('fetch', { url: 'http://169.254.169.254/latest/meta-data/' })).toMatch(/Refused/);
      expect(proxied).toHaveLength(1);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
