import { afterEach, describe, expect, it } from 'vitest';
import { createConverter, type Converter } from './converter.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { FetchError } from './errors.js';
import { decodeBody } from './content-type.js';

const big = (paragraphs: number) =>
  `<html><head><title>Big</title></head><body><nav>MENU</nav><article><h1>Big</h1>${Array.from(
    { length: paragraphs },
    (_, i) => `<p>Paragraph ${i} has words, and more words, to be a real paragraph of prose.</p>`,
  ).join('')}</article></body></html>`;

let converter: Converter | undefined;
afterEach(async () => {
  await converter?.close();
  converter = undefined;
});

describe('converter', () => {
  it('converts a page above the inline size in a worker, with the same result as inline', async () => {
    converter = createConverter({ inlineBelowChars: 1000 });
    const input = { html: big(2000), url: 'http://example.com/' };
    const converted = await converter.convert(input, { timeoutMs: 30_000 });
    expect(converted).toEqual(htmlToMarkdown(input));
    expect(converted.markdown).toContain('Paragraph 1999 has words');
    expect(converted.markdown).not.toContain('MENU');
  });

  it('stops a conversion at its time limit and keeps working afterwards', async () => {
    converter = createConverter({ inlineBelowChars: 1000, maxWorkers: 1 });
    const error = await converter.convert({ html: big(200_000), url: 'http://example.com/' }, { timeoutMs: 5 }).catch((e) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).code).toBe('TIMEOUT');
    const after = await converter.convert({ html: big(100), url: 'http://example.com/' }, { timeoutMs: 30_000 });
    expect(after.markdown).toContain('Paragraph 99');
  });

  it('stops a conversion when cancelled', async () => {
    converter = createConverter({ inlineBelowChars: 1000 });
    const controller = new AbortController();
    const pending = converter.convert({ html: big(200_000), url: 'http://example.com/' }, { timeoutMs: 30_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const error = await pending.catch((e) => e);
    expect((error as FetchError).code).toBe('CANCELLED');
  });

  it('converts 100k nested elements, and keeps working', { timeout: 60_000 }, async () => {
    // htmlparser2 keeps its open-tag stack with Array#unshift, which made 100k levels take
    // ~10 s (quadratic); html-tree.ts gives it a push/pop stack, so this takes well under a second.
    converter = createConverter({ inlineBelowChars: 1000, maxWorkers: 1 });
    const nested = `<html><body><p>start</p>${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}</body></html>`;
    expect((await converter.convert({ html: nested, url: 'http://e/' }, { timeoutMs: 30_000 })).markdown).toContain('deep text');
    expect((await converter.convert({ html: big(100), url: 'http://e/' }, { timeoutMs: 30_000 })).markdown).toContain('Paragraph 99');
  });

  it('converts a 5 MB attribute and a 10 MB line', { timeout: 30_000 }, async () => {
    converter = createConverter({ inlineBelowChars: 1000 });
    const attribute = `<html><body><p title="${'x'.repeat(5 * 1024 * 1024)}">after the attribute</p></body></html>`;
    expect((await converter.convert({ html: attribute, url: 'http://e/' }, { timeoutMs: 30_000 })).markdown).toContain('after the attribute');
    const line = `<html><body><p>${'word '.repeat(2 * 1024 * 1024)}</p></body></html>`;
    expect((await converter.convert({ html: line, url: 'http://e/' }, { timeoutMs: 30_000 })).markdown.length).toBeGreaterThan(9_000_000);
  });

  it('converts a response from its bytes, decoded by its charset, in the worker as inline, and leaves the bytes to the caller', async () => {
    converter = createConverter({ inlineBelowChars: 1000 });
    // windows-1252: "café" is 63 61 66 E9, which as UTF-8 would come out as "caf\uFFFD".
    const latin = (html: string) => Buffer.from(html, 'latin1');
    const page = big(2000).replace('<h1>Big</h1>', '<h1>Big café</h1><p>Un café, naïve façade, déjà vu: the words a reader of this page must see.</p>');
    const small = '<html><head></head><body><article><p>Un café, naïve façade.</p></article></body></html>';
    for (const [withCharset, contentType] of [
      [(html: string) => html, 'text/html; charset=windows-1252'],
      // No charset in the header: the <meta charset> in the first bytes says it.
      [(html: string) => html.replace('<head>', '<head><meta charset="iso-8859-1">'), 'text/html'],
    ] as const) {
      const body = latin(withCharset(page));
      const before = Buffer.from(body);
      const expected = htmlToMarkdown({ html: decodeBody(body, contentType, 'html'), url: 'http://example.com/' });
      expect(expected.markdown).toContain('Un café, naïve façade, déjà vu');
      // Above the inline size: in the worker.
      expect(await converter.convert({ body, contentType, url: 'http://example.com/' }, { timeoutMs: 30_000 })).toEqual(expected);
      expect(body.equals(before)).toBe(true);
      // Below it: inline.
      const inline = await converter.convert({ body: latin(withCharset(small)), contentType, url: 'http://example.com/' }, { timeoutMs: 30_000 });
      expect(inline.markdown).toContain('Un café, naïve façade.');
    }
  });
});

