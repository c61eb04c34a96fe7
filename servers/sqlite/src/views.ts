import { defineView } from '@mcp-reference/shared';

// The HTML (about 600 KB, packed to about 160 KB in the bin) is unpacked on the first
// resources/read, never at start-up.
export const views = [
  defineView({
    uri: 'ui://sqlite/results',
    title: 'Query results',
    description: 'The rows of read_query as a sortable, pageable table',
    html: async () => (await import('@mcp-reference/views/sqlite-results')).default(),
    // "Copy page as CSV" uses the clipboard when granted, and shows the CSV when not.
    permissions: { clipboardWrite: {} },
  }),
];
