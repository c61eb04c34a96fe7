import { z } from 'zod';
import { defineTool } from '../context.js';
import { pageUri } from '../page-uri.js';
import { describeFetchError } from '../describe-error.js';
import { pageOutput, pageWindow } from './fetch.js';

const CONCURRENCY = 4;

const itemOutput = pageOutput.partial().extend({
  url: z.string(),
  error: z.string().optional().describe('Why this URL failed; the others are unaffected'),
});

export const fetchMany = defineTool({
  name: 'fetch_many',
  title: 'Fetch several URLs',
  description:
    `Fetches up to 10 URLs at once (${CONCURRENCY} at a time) and returns the first max_length characters of each, as the fetch tool does. ` +
    'A URL that fails gets an error entry and does not stop the others; continue a cut page with the fetch tool and its next_start_index.',
  input: z.object({
    urls: z.array(z.string().min(1)).min(1).max(10).describe('The http:// or https:// URLs to fetch'),
    max_length: z.number().int().positive().max(200_000).default(5000).describe('Maximum characters returned per URL'),
    raw: z.boolean().default(false).describe('Return pages as fetched (HTML source) instead of markdown'),
  }),
  output: z.object({ results: z.array(itemOutput) }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  render: (out) =>
    out.results
      .map((item) =>
        item.error
          ? `## ${item.url}\n<error>${item.error}</error>`
          : `## ${item.title || item.url}\n${item.url}\n\n${item.content}${
              item.next_start_index != null ? `\n<error>Content truncated at ${item.next_start_index} characters.</error>` : ''
            }`,
      )
      .join('\n\n'),
  async handler({ urls, max_length, raw }, ctx) {
    const results: z.input<typeof itemOutput>[] = new Array(urls.length);
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < urls.length && !ctx.signal.aborted) {
        const i = next++;
        const url = urls[i];
        try {
          results[i] = pageWindow(url, await ctx.pages.get(url, { raw, signal: ctx.signal }), 0, max_length);
        } catch (error) {
          const message = describeFetchError(error);
          if (message === undefined) throw error;
          results[i] = { url, error: message };
        }
        void ctx.progress(++done, urls.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, urls.length) }, worker));
    if (ctx.signal.aborted) return ctx.error('The calls were cancelled.');
    const links = results.filter((item) => !item.error).map((item) => ctx.link(pageUri(new URL(item.url).href), { name: item.title || item.url, mimeType: 'text/markdown' }));
    return ctx.result({ results }, links);
  },
});
