import { z } from 'zod';
import { codePointBoundary } from '@mcp-reference/shared/core';
import { defineTool } from '../context.js';
import { pageUri } from '../page-uri.js';
import type { Page } from '../lib/page-service.js';

export const fetchInput = z.object({
  url: z.string().min(1).describe('The http:// or https:// URL to fetch'),
  max_length: z
    .number()
    .int()
    .positive()
    .max(1_000_000)
    .default(5000)
    .describe('Maximum number of characters to return'),
  start_index: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Return characters from this index on: use the next_start_index of a cut result to read on'),
  raw: z.boolean().default(false).describe('Return the page as fetched (HTML source) instead of markdown'),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe('Extra request headers (e.g. Authorization); sent to the URL\'s host only, never to another host after a redirect'),
});

export const pageOutput = z.object({
  url: z.string(),
  final_url: z.string().describe('The URL after redirects'),
  status: z.number().int(),
  content_type: z.string(),
  title: z.string(),
  content: z.string().describe('This slice of the page: markdown for HTML, the text for text types'),
  start_index: z.number().int(),
  next_start_index: z.number().int().nullable().describe('Where to continue (start_index) when the content was cut; null at the end'),
  total_length: z.number().int().describe('Characters in the whole converted page'),
  truncated: z.boolean().describe('More content exists: cut at max_length, or the body was cut at the byte cap'),
  byline: z.string().optional().describe("The article's author(s), when the page names them"),
  site_name: z.string().optional().describe('The name of the site, when the page gives it'),
  published_time: z.string().optional().describe('When the article was published, as the page states it'),
  excerpt: z.string().optional().describe("The article's summary, or its first paragraph"),
});

export type PageOutput = z.output<typeof pageOutput>;

/**
 * `max_length` characters of a page from `start`, with where to continue. A piece never
 * starts or ends between the two halves of a character above U+FFFF (an emoji, a CJK
 * extension): each piece decodes, and the pieces put together are the page.
 */
export function pageWindow(url: string, page: Page, start: number, maxLength: number): PageOutput {
  const text = page.content;
  const from = codePointBoundary(text, start);
  let end = codePointBoundary(text, Math.min(from + maxLength, text.length));
  // max_length 1 at such a character: the whole character, so that reading on moves on.
  if (end === from && from < text.length) end = Math.min(text.length, from + 2);
  const content = text.slice(from, end);
  const more = end < text.length;
  return {
    url,
    final_url: page.finalUrl,
    status: page.status,
    content_type: page.contentType,
    title: page.title,
    content,
    start_index: from,
    next_start_index: more ? end : null,
    total_length: page.content.length,
    truncated: more || page.bodyTruncated,
    ...(page.byline ? { byline: page.byline } : {}),
    ...(page.siteName ? { site_name: page.siteName } : {}),
    ...(page.publishedTime ? { published_time: page.publishedTime } : {}),
    ...(page.excerpt ? { excerpt: page.excerpt } : {}),
  };
}

/** The official server's wording, so models used to it continue the same way. */
export function renderPage(out: PageOutput): string {
  // `HTTP://Example.com` comes back as `http://example.com/` without any redirect.
  const redirected = out.final_url !== (URL.canParse(out.url) ? new URL(out.url).href : out.url);
  const lines = [`Contents of ${out.url}${redirected ? ` (redirected to ${out.final_url})` : ''}:`];
  if (out.content === '' && out.start_index > 0 && out.start_index >= out.total_length) {
    lines.push('<error>No more content available.</error>');
    return lines.join('\n');
  }
  lines.push(out.content);
  if (out.next_start_index !== null) {
    lines.push(
      `<error>Content truncated. Call the fetch tool with a start_index of ${out.next_start_index} to get more content.</error>`,
    );
  } else if (out.truncated) {
    lines.push('<error>The page was larger than the byte limit of the server; its end is missing.</error>');
  }
  return lines.join('\n');
}

export const fetchTool = defineTool({
  name: 'fetch',
  title: 'Fetch',
  description:
    'Fetches a URL from the internet and returns its contents: web pages as markdown of their main content, JSON and text as they are, small images as images. ' +
    'Long pages come in pieces of max_length characters: call again with start_index set to next_start_index to read on (the page is not fetched again). ' +
    'Private and local addresses are refused, and robots.txt is honoured.',
  input: fetchInput,
  output: pageOutput,
  annotations: { readOnlyHint: true, openWorldHint: true },
  render: renderPage,
  view: 'ui://fetch/preview',
  async handler({ url, max_length, start_index, raw, headers }, ctx) {
    const page = await ctx.pages.get(url, {
      raw,
      headers,
      signal: ctx.signal,
      preferCache: start_index > 0,
      onProgress: (stage, done, total) => void ctx.progress(done, total, stage),
    });
    const out = pageWindow(url, page, start_index, max_length);
    const link = ctx.link(pageUri(page.url), { name: page.title || url, mimeType: page.image ? page.image.mimeType : 'text/markdown' });
    const image = page.image ? [{ type: 'image' as const, data: page.image.data, mimeType: page.image.mimeType }] : [];
    return ctx.result(out, [...image, link]);
  },
});
