// ui://filesystem/preview in a real Chromium behind the double-iframe sandbox, driven by
// the built mcp-server-filesystem over stdio on a temp directory with hostile files.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { connectStdio, type Connection } from '@mcp-reference/shared/client';
import { makeTempTree, type TempTree } from '../src/fixtures/temp-tree.js';
import { APPS_CLIENT, compareWithGolden, openView, startAppsHost, type AppsHost, type ViewSession } from './harness.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../servers/filesystem/dist/cli.js');

const png = new PNG({ width: 3, height: 2 });
png.data.fill(200);
const MARKDOWN = `# Notes <b>bold?</b>

Plain paragraph with \`code\` and **strong** text.

<script>window.__pwned = 'md script'</script>

<img src=x onerror="window.__pwned = 'md img'">

A [bad link](javascript:window.__pwned=1) and a [good link](https://example.com/docs).

- one
- two

\`\`\`ts
const answer: number = 42; // typed
\`\`\`
`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="4" onload="window.__pwned='svg onload'"><script>window.__pwned='svg script'</script><rect width="8" height="4" fill="red"/></svg>`;
const CODE = Array.from({ length: 1200 }, (_, i) => `export const value${i + 1} = ${i + 1}; // line ${i + 1}`).join('\n') + '\n';

describe('filesystem preview view in Chromium', () => {
  let host: AppsHost;
  let tree: TempTree;
  let connection: Connection;
  const sessions: ViewSession[] = [];
  const open = async (tool: string, args: Record<string, unknown>) => {
    const session = await openView(host, connection, { tool, arguments: args });
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
    tree = await makeTempTree({
      'README.md': MARKDOWN,
      'pixel.png': PNG.sync.write(png),
      'evil.svg': SVG,
      'code.ts': CODE,
      'data.bin': Buffer.from(Array.from({ length: 600 }, (_, i) => i % 256)),
    });
    [host, connection] = await Promise.all([startAppsHost(), connectStdio('node', [bin, tree.dir], APPS_CLIENT)]);
  }, 120_000);
  afterAll(async () => {
    for (const session of sessions) await session.close();
    await host?.close();
    await connection?.close();
    await tree?.cleanup();
  });

  it('renders markdown without raw HTML or javascript: links', async () => {
    const session = await open('read_text_file', { path: tree.path('README.md') });
    console.log(`filesystem preview: first paint of data ${session.paintMs.toFixed(1)} ms after the tool result`);
    const doc = session.view.locator('.doc');
    await expect.poll(() => doc.locator('h1').textContent()).toBe('Notes <b>bold?</b>');
    expect(await doc.textContent()).toContain("<script>window.__pwned = 'md script'</script>");
    expect(await doc.textContent()).toContain(`<img src=x onerror="window.__pwned = 'md img'">`);
    expect(await doc.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/docs']);
    expect(await doc.locator('.unsafe-link').textContent()).toBe('bad link');
    expect(await doc.locator('li').allTextContents()).toEqual(['one', 'two']);
    expect(await doc.locator('pre.code .tok-keyword').first().textContent()).toBe('const');
    expect(await doc.locator('img, script, svg, iframe, b').count()).toBe(0);
    expect(await session.pwned()).toBeUndefined();
    // The temp directory's name changes every run; the golden shows a fixed one.
    await session.view.locator('#path').evaluate((el) => (el.textContent = '/tmp/fixture/README.md'));
    const { ratio } = await compareWithGolden(await session.frame.screenshot({ animations: 'disabled' }), 'filesystem-preview-markdown');
    console.log(`filesystem markdown golden: ${(ratio * 100).toFixed(2)}% of pixels differ`);
    await session.view.locator('#toggle').click();
    expect(await session.view.locator('pre.code').textContent()).toContain('1# Notes <b>bold?</b>');
  });

  it('shows an image at its natural size, and an SVG with script as an image that runs nothing', async () => {
    const image = await open('read_media_file', { path: tree.path('pixel.png') });
    await expect.poll(() => image.view.locator('#dimensions').textContent()).toBe('3 × 2 px');
    expect(await image.view.locator('#image').evaluate((img) => { const image = img as unknown as { naturalWidth: number; naturalHeight: number }; return [image.naturalWidth, image.naturalHeight]; })).toEqual([3, 2]);
    const svg = await open('read_media_file', { path: tree.path('evil.svg') });
    await expect.poll(() => svg.view.locator('#dimensions').textContent()).toBe('8 × 4 px');
    expect(await svg.pwned()).toBeUndefined();
  });

  it('highlights code with line numbers and pages past the result through fs_preview_page', async () => {
    const session = await open('read_text_file', { path: tree.path('code.ts'), head: 100 });
    await expect.poll(() => session.view.locator('#lines').textContent()).toBe('lines 1–100');
    expect(await session.view.locator('pre.code .ln').first().textContent()).toBe('1');
    expect(await session.view.locator('pre.code .line').nth(99).textContent()).toBe('100export const value100 = 100; // line 100');
    expect(await session.view.locator('pre.code .tok-comment').first().textContent()).toBe('// line 1');
    await session.view.locator('#more').click();
    await expect.poll(() => session.view.locator('#lines').textContent()).toBe('lines 1–600');
    const page = (await connection.client.callTool({ name: 'fs_preview_page', arguments: { path: tree.path('code.ts'), offset: 100 } })) as unknown as {
      structuredContent: { content: string; next_offset: number };
    };
    expect(page.structuredContent.next_offset).toBe(600);
    // Each line's text without its line number.
    const shown = await session.view
      .locator('pre.code .line')
      .evaluateAll((lines) => lines.slice(100).map((line) => (line.textContent ?? '').slice(line.querySelector('.ln')?.textContent?.length ?? 0)));
    expect(shown).toEqual(page.structuredContent.content.replace(/\n$/, '').split('\n'));
    await session.view.locator('#path').evaluate((el) => (el.textContent = '/tmp/fixture/code.ts'));
    const { ratio } = await compareWithGolden(await session.frame.screenshot({ animations: 'disabled' }), 'filesystem-preview-code');
    console.log(`filesystem code golden: ${(ratio * 100).toFixed(2)}% of pixels differ`);
  });

  it('summarises a binary file in hex', async () => {
    const session = await open('read_media_file', { path: tree.path('data.bin') });
    await expect.poll(() => session.view.locator('#hex').textContent()).toMatch(/^00000000 {2}00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f {2}\.{16}\n/);
    expect(await session.view.locator('#hex').textContent()).toContain('… 88 more bytes');
  });

  it('had no console error, CSP violation, outbound request or script from any file', async () => {
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) {
      expect(session.consoleErrors).toEqual([]);
      expect(await session.violations()).toEqual([]);
      expect(session.outbound).toEqual([]);
      expect(await session.pwned()).toBeUndefined();
    }
  });
});
