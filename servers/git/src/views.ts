import { defineView } from '@mcp-reference/shared';

// The HTML (about 600 KB each, packed to about 160 KB in the bin) is unpacked on the
// first resources/read, never at start-up.
export const views = [
  defineView({
    uri: 'ui://git/log',
    title: 'Commit log',
    description: 'The commit graph with lanes for branches and merges, refs and authors; a click opens the diff',
    html: async () => (await import('@mcp-reference/views/git-log')).default(),
  }),
  defineView({
    uri: 'ui://git/diff',
    title: 'Diff',
    description: 'A diff, unified or split, highlighted, paged by hunk',
    html: async () => (await import('@mcp-reference/views/git-diff')).default(),
  }),
];
