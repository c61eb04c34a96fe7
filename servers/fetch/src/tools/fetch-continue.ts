import { z } from 'zod';
import { defineTool } from '../context.js';
import { fetchInput, pageOutput, pageWindow, renderPage } from './fetch.js';

/**
 * The page view's "continue" (app-only: hosts show it to the view, not to the model): the
 * next piece of a page that fetch already returned, from the page cache when it is still
 * there. The URL goes through the same guard, robots.txt and limits as fetch.
 */
export const fetchContinue = defineTool({
  name: 'fetch_continue',
  title: 'Continue a fetched page',
  description: 'The next piece of a page fetched before: pass its URL and the next_start_index of the previous piece.',
  input: z.object({
    url: fetchInput.shape.url,
    start_index: z.number().int().min(0).describe('next_start_index of the previous piece'),
    max_length: fetchInput.shape.max_length,
    raw: fetchInput.shape.raw,
  }),
  output: pageOutput,
  annotations: { readOnlyHint: true, openWorldHint: true },
  visibility: ['app'],
  render: renderPage,
  async handler({ url, start_index, max_length, raw }, ctx) {
    const page = await ctx.pages.get(url, { raw, signal: ctx.signal, preferCache: true });
    return ctx.result(pageWindow(url, page, start_index, max_length));
  },
});
