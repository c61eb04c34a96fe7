import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectInMemory, isWellFormedText, startHttpFixture, type HttpFixture } from '@mcp-reference/test-harness';
import { articlePage, open, sentences, type Session } from './test-support.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Characters above U+FFFF (two UTF-16 units each) after one of one unit: cuts fall between halves. */
const EMOJI_PAGE = 'a' + '😀𝄞'.repeat(3000);

describe('fetch tool', () => {
  let site: HttpFixture;
  let session: Session;
  beforeEach(async () => {
    site = await startHttpFixture({
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage('Big News', sentences(6))),
      '/long': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304, { etag: '"v1"' }).end();
        res.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end(articlePage('Long Read', sentences(300)));
      },
      '/emoji.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(EMOJI_PAGE),
      '/emoji-long.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('a' + '😀'.repeat(60_000)),
      '/data.json': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a": [1, 2, 3]}'),
      '/notes.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain <b>text</b> stays'),
      '/pixel.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
      '/doc.pdf': (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n...'),
      '/gone': (_req, res) => void res.writeHead(404).end('nope'),
      '/gzip': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('compressed body')),
      '/moved': (_req, res) => void res.writeHead(301, { location: '/article' }).end(),
      '/with-metadata': (_req, res) =>
        void res.writeHead(200, { 'content-type': 'text/html' }).end(
          articlePage('Why the tides rise so high - Harbour Times', sentences(6)).replace(
            '<title>',
            '<meta property="og:site_name" content="Harbour Times"><meta name="author" content="Ann Tide">' +
              '<meta property="article:published_time" content="2026-05-04"><meta name="description" content="Why the tides rise."><title>',
          ),
        ),
    });
    session = await open({ allowHost: [`127.0.0.1:${site.port}`] });
  });
  afterEach(async () => {
    await session.close();
    await session.server.close();
    await site.close();
  });

  it('turns an article into markdown of its main content, without scripts, styles or boilerplate', async () => {
    const out = await session.ok<Record<string, unknown>>('fetch', { url: `${site.origin}/article`, max_length: 100_000 });
    const content = String(out.content);
    expect(out).toMatchObject({ status: 200, final_url: `${site.origin}/article`, start_index: 0, next_start_index: null, truncated: false });
    expect(out.title).toBe('Big News');
    for (const sentence of sentences(6)) expect(content).toContain(sentence);
    expect(content).toMatch(/^#+ Details$/m);
    expect(content).toContain('- first item');
    expect(content).toContain('```js\nconst answer = 42;\n```');
    expect(content).toMatch(/\| Name \| Value \|\n\| --- \| --- \|\n\| alpha \| 1 \|/);
    expect(content).toContain(`[the related story](${site.origin}/related)`);
    for (const noise of ['SCRIPT-CONTENT', 'INLINE-SCRIPT-2', 'secret-style', 'NAV-LINK-SPORT', 'COOKIE-BANNER-TEXT', 'FOOTER-PRIVACY', 'ASIDE-PROMO']) {
      expect(content).not.toContain(noise);
    }
  });

  it("gives the article's title without the site name, and its byline, site, date and excerpt", async () => {
    const out = await session.ok<Record<string, unknown>>('fetch', { url: `${site.origin}/with-metadata`, max_length: 100 });
    expect(out).toMatchObject({ title: 'Why the tides rise so high', byline: 'Ann Tide', site_name: 'Harbour Times', published_time: '2026-05-04', excerpt: 'Why the tides rise.' });
  });

  it('returns a long page in pieces, fetching and converting it once, and links to the page resource', async () => {
    const url = `${site.origin}/long`;
    const first = await session.call('fetch', { url, max_length: 1000 });
    const out = first.structuredContent as Record<string, number | string | boolean>;
    expect(out.truncated).toBe(true);
    expect(out.next_start_index).toBe(1000);
    expect(first.content[0].text).toContain('Call the fetch tool with a start_index of 1000');
    expect(first.content.find((b) => b.type === 'resource_link')?.uri).toBe(`fetch://page/${url}`);
    let whole = String(out.content);
    let next = out.next_start_index as number | null;
    while (next !== null) {
      const piece = await session.ok<Record<string, unknown>>('fetch', { url, max_length: 5000, start_index: next });
      expect(piece.start_index).toBe(next);
      whole += String(piece.content);
      next = piece.next_start_index as number | null;
    }
    expect(whole.length).toBe(out.total_length);
    for (const sentence of sentences(300)) expect(whole).toContain(sentence);
    expect(site.requests.filter((r) => r === 'GET /long')).toHaveLength(1);
    const past = await session.call('fetch', { url, start_index: 10_000_000 });
    expect(past.content[0].text).toContain('No more content available');
  });

  it('never cuts a piece between the two halves of a character, and the pieces are the page', async () => {
    const url = `${site.origin}/emoji.txt`;
    for (const max_length of [1, 2, 999, 1000]) {
      let whole = '';
      let next: number | null = 0;
      for (let calls = 0; next !== null; calls++) {
        expect(calls).toBeLessThan(7000);
        const piece: Record<string, unknown> = await session.ok<Record<string, unknown>>('fetch', { url, max_length, start_index: next });
        const content = String(piece.content);
        expect(isWellFormedText(content)).toBe(true);
        expect(content.length).toBeGreaterThan(0);
        whole += content;
        next = piece.next_start_index as number | null;
        if (max_length < 999 && calls === 3) {
          // Enough of the small pieces: the rest in one.
          const rest: Record<string, unknown> = await session.ok<Record<string, unknown>>('fetch', { url, max_length: 100_000, start_index: next });
          whole += String(rest.content);
          next = null;
        }
      }
      expect(whole).toBe(EMOJI_PAGE);
    }
    // A start_index between the halves of a character starts at the character.
    const inside = await session.ok<Record<string, unknown>>('fetch', { url, max_length: 10, start_index: 2 });
    expect(inside).toMatchObject({ start_index: 1, content: '😀𝄞😀𝄞😀', next_start_index: 11 });
    // The prompt cuts a long page at 100,000 units, here between two halves: it cuts one before and says so.
    const prompt = await session.client.getPrompt({ name: 'fetch', arguments: { url: `${site.origin}/emoji-long.txt` } });
    const text = (prompt.messages[0].content as { text: string }).text;
    expect(isWellFormedText(text)).toBe(true);
    expect(text).toContain('use the fetch tool with start_index 99999 for the rest');
  });

  it('revalidates a cached page with If-None-Match when read from the start again', async () => {
    const url = `${site.origin}/long`;
    const first = await session.ok<Record<string, unknown>>('fetch', { url });
    const again = await session.ok<Record<string, unknown>>('fetch', { url });
    expect(again.content).toBe(first.content);
    expect(site.requests.filter((r) => r === 'GET /long')).toHaveLength(2); // the second answered 304
  });

  it('passes JSON and text through, decompresses, follows redirects, returns images as images', async () => {
    expect((await session.ok('fetch', { url: `${site.origin}/data.json` })).content).toBe('{"a": [1, 2, 3]}');
    expect((await session.ok('fetch', { url: `${site.origin}/notes.txt` })).content).toBe('plain <b>text</b> stays');
    expect((await session.ok('fetch', { url: `${site.origin}/gzip` })).content).toBe('compressed body');
    const moved = await session.ok<Record<string, unknown>>('fetch', { url: `${site.origin}/moved` });
    expect(moved.final_url).toBe(`${site.origin}/article`);
    const image = await session.call('fetch', { url: `${site.origin}/pixel.png` });
    expect(image.content.find((b) => b.type === 'image')).toMatchObject({ mimeType: 'image/png', data: PNG.toString('base64') });
  });

  it('returns the HTML source with raw: true', async () => {
    const out = await session.ok<Record<string, unknown>>('fetch', { url: `${site.origin}/article`, raw: true, max_length: 100_000 });
    expect(out.content).toContain('<nav>');
  });

  it('says clearly what went wrong for a PDF, a 404 and a bad URL, and keeps serving', async () => {
    expect(await session.refused('fetch', { url: `${site.origin}/doc.pdf` })).toMatch(/PDF/);
    expect(await session.refused('fetch', { url: `${site.origin}/gone` })).toMatch(/HTTP 404/);
    expect(await session.refused('fetch', { url: 'not a url' })).toMatch(/Not a valid URL/);
    expect(await session.refused('fetch', { url: 'file:///etc/passwd' })).toMatch(/Only http/);
    await expect(session.client.ping()).resolves.toBeDefined();
  });

  it('fetches several URLs at once; a failing one gets an error entry', async () => {
    const out = await session.ok<{ results: Record<string, unknown>[] }>('fetch_many', {
      urls: [`${site.origin}/data.json`, `${site.origin}/gone`, `${site.origin}/notes.txt`],
    });
    expect(out.results.map((r) => r.url)).toEqual([`${site.origin}/data.json`, `${site.origin}/gone`, `${site.origin}/notes.txt`]);
    expect(out.results[0].content).toBe('{"a": [1, 2, 3]}');
    expect(out.results[1].error).toMatch(/404/);
    expect(out.results[2].content).toBe('plain <b>text</b> stays');
  });

  it('lists fetched pages as resources for every session, reads and completes them', async () => {
    const other = await connectInMemory(session.server);
    const url = `${site.origin}/article`;
    expect((await session.client.listResources()).resources).toEqual([]);
    await session.ok('fetch', { url });
    await other.waitForNotification('notifications/resources/list_changed');
    expect((await other.client.listResources()).resources.map((r) => r.uri)).toEqual([`fetch://page/${url}`]);
    await other.close();
    const read = await session.client.readResource({ uri: `fetch://page/${url}` });
    expect((read.contents[0] as { text: string }).text).toContain(sentences(6)[0]);
    const completion = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'fetch://page/{+url}' },
      argument: { name: 'url', value: `${site.origin}/ar` },
    });
    expect(completion.completion.values).toEqual([url]);
    expect(site.requests.filter((r) => r === 'GET /article')).toHaveLength(1);
  });

  it('answers the fetch prompt with the page', async () => {
    const prompt = await session.client.getPrompt({ name: 'fetch', arguments: { url: `${site.origin}/article` } });
    expect((prompt.messages[0].content as { text: string }).text).toContain(sentences(6)[2]);
  });
});
