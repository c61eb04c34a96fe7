import { blobContents, resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate } from '../context.js';
import { PAGE_TEMPLATE, pageUri, urlOfPageUri } from '../page-uri.js';
import { FetchError } from '../lib/errors.js';

export const pageTemplate = defineResourceTemplate({
  uriTemplate: PAGE_TEMPLATE,
  name: 'page',
  title: 'Fetched page',
  description:
    'A web page as markdown (text types as they are, images as images). Fetched pages are listed; any public URL can be read. Subscribe to hear when the page changes.',
  mimeType: 'text/markdown',
  complete: {
    url: (typed, ctx) => ctx.pages.index.complete(typed),
  },
  *list(after, ctx) {
    for (const url of ctx.pages.index.after(after === undefined ? undefined : urlOfPageUri(after))) {
      yield { uri: pageUri(url), name: url, mimeType: 'text/markdown' };
    }
  },
  async read(uri, _variables, ctx) {
    const url = urlOfPageUri(uri)!;
    let page;
    try {
      page = await ctx.pages.get(url, { signal: ctx.signal, preferCache: true });
    } catch (error) {
      if (error instanceof FetchError) throw resourceNotFound(uri, error.message);
      throw error;
    }
    if (page.image) return [blobContents(uri, Buffer.from(page.image.data, 'base64'), page.image.mimeType)];
    const mimeType = page.contentType.startsWith('text/html') || page.contentType.startsWith('application/xhtml') ? 'text/markdown' : page.contentType.split(';')[0] || 'text/plain';
    return [textContents(uri, page.content, mimeType)];
  },
});
