// ui://fetch/preview in a real Chromium behind the double-iframe sandbox, driven by the
// built mcp-server-fetch over stdio, fetching a hostile page from a local HTTP server.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStdio, type Connection } from '@mcp-reference/shared/client';
import { startHttpFixture, type HttpFixture } from '../src/fixtures/http-server.js';
import { APPS_CLIENT, compareWithGolden, openView, startAppsHost, type AppsHost, type ViewSession } from './harness.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../servers/fetch/dist/cli.js');

const paragraphs = Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i + 1} of the story, long enough to need more than one piece when max_length is small.</p>`);
const HOSTILE_PAGE = `<!doctype html><html><head><title>A &lt;b&gt;hostile&lt;/b&gt; page</title>
<script>window.__pwned = 'head script'</script></head>
<body><main><article>
<h1>Hostile page</h1>
<p>Text with <code>inline code</code>, <strong>bold</strong> and a <a href="https://example.com/safe">safe link</a>.</p>
<p>A <a href="javascript:window.__pwned='link'">javascript link</a> and an image <img src="https://example.com/x.png" alt="remote picture" onerror="window.__pwned='img'">.</p>
<p>Escaped markup stays text: &lt;script&gt;window.__pwned='text'&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>
<ul><li>first item</li><li>second item</li></ul>
<pre><code class="language-js">const answer = 42; // the answer</code></pre>
${paragraphs.join('\n')}
<script>window.__pwned = 'body script'</script>
</article></main></body></html>`;

describe('fetch page view in Chromium', () => {
  let host: AppsHost;
  let site: HttpFixture;
  let connection: Connection;
  let session: ViewSession;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
    site = await startHttpFixture({
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      '/hostile': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOSTILE_PAGE),
    });
    url = `${site.origin}/hostile`;
    [host, connection] = await Promise.all([
      startAppsHost(),
      connectStdio('node', [bin, '--allow-host', `127.0.0.1:${site.port}`], APPS_CLIENT),
    ]);
    session = await openView(host, connection, { tool: 'fetch', arguments: { url, max_length: 1200 } });
    console.log(`fetch preview: first paint of data ${session.paintMs.toFixed(1)} ms after the tool result`);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await host?.close();
    await connection?.close();
    await site?.close();
  });

  it('shows title, status and final URL, and renders the markdown safely', async () => {
    await expect.poll(() => session.view.locator('#status').textContent()).toBe('200');
    expect(await session.view.locator('#final-url').textContent()).toBe(url);
    expect(await session.view.locator('#title').textContent()).toBe('A <b>hostile</b> page');
    const doc = session.view.locator('.doc');
    expect(await doc.locator('li').allTextContents()).toEqual(['first item', 'second item']);
    expect(await doc.locator('pre.code').textContent()).toContain('const answer = 42;');
    expect(await doc.locator('pre.code .tok-keyword').first().textContent()).toBe('const');
    expect(await doc.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/safe']);
    // The converter already drops javascript: links; the renderer would strike them out (see the filesystem view).
    expect(await doc.textContent()).toContain('A javascript link and an image');
    expect(await doc.locator('.img-placeholder').textContent()).toBe('[image: remote picture]');
    expect(await doc.textContent()).toContain("<script>window.__pwned='text'</script>");
    expect(await doc.locator('img, script, svg, iframe').count()).toBe(0);
    expect(await session.pwned()).toBeUndefined();
  });

  it('toggles to the markdown source and back', async () => {
    await session.view.locator('#toggle').click();
    expect(await session.view.locator('pre.source').textContent()).toContain('- first item');
    await session.view.locator('#toggle').click();
    expect(await session.view.locator('.doc li').count()).toBe(2);
  });

  it('continues with the next piece through fetch_continue', async () => {
    const first = session.toolResult.structuredContent as { content: string; next_start_index: number; total_length: number };
    expect(first.next_start_index).toBe(1200);
    const next = (await connection.client.callTool({ name: 'fetch_continue', arguments: { url, start_index: 1200, max_length: 1200 } })) as unknown as {
      structuredContent: { content: string };
    };
    await session.view.locator('#continue').click();
    const shown = Math.min(2400, first.total_length);
    await expect.poll(() => session.view.locator('#progress').textContent()).toBe(`${shown.toLocaleString('en')} of ${first.total_length.toLocaleString('en')} characters`);
    await session.view.locator('#toggle').click();
    expect(await session.view.locator('pre.source').textContent()).toBe(first.content + next.structuredContent.content);
    await session.view.locator('#toggle').click();
  });

  it('matches the golden screenshot, with no console error, CSP violation or outbound request', async () => {
    const fresh = await openView(host, connection, { tool: 'fetch', arguments: { url, max_length: 700 } });
    try {
      await expect.poll(() => fresh.view.locator('#status').textContent()).toBe('200');
      // The fixture's port is in the final URL; hide it so the image is the same on every run.
      await fresh.view.locator('#final-url').evaluate((a) => (a.textContent = 'http://127.0.0.1:PORT/hostile'));
      const { ratio } = await compareWithGolden(await fresh.frame.screenshot({ animations: 'disabled' }), 'fetch-preview-light');
      console.log(`fetch preview golden: ${(ratio * 100).toFixed(2)}% of pixels differ`);
      expect(fresh.consoleErrors).toEqual([]);
      expect(await fresh.violations()).toEqual([]);
      expect(fresh.outbound).toEqual([]);
      expect(await fresh.pwned()).toBeUndefined();
    } finally {
      await fresh.close();
    }
    expect(session.consoleErrors).toEqual([]);
    expect(await session.violations()).toEqual([]);
    expect(session.outbound).toEqual([]);
  });
});
