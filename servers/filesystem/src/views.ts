import { defineView } from '@mcp-reference/shared';

// The HTML (about 600 KB, packed to about 160 KB in the bin) is unpacked on the first
// resources/read, never at start-up.
export const views = [
  defineView({
    uri: 'ui://filesystem/preview',
    title: 'File preview',
    description: 'Images, rendered markdown, highlighted code with line numbers, and a hex summary of binary files',
    html: async () => (await import('@mcp-reference/views/filesystem-preview')).default(),
  }),
];
