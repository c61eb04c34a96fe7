import { defineView } from '@mcp-reference/shared';

// The HTML (about 600 KB, packed to about 160 KB in the bin) is unpacked on the first
// resources/read, never at start-up. No
// csp domains: the page's images stay placeholders, everything arrives through the host.
export const views = [
  defineView({
    uri: 'ui://fetch/preview',
    title: 'Fetched page',
    description: 'The page fetch returned, rendered, with its title, final URL and status',
    html: async () => (await import('@mcp-reference/views/fetch-preview')).default(),
  }),
];
