import { z } from 'zod';
import { defineTool } from '../context.js';
import { listDirectory } from '../lib/list-directory.js';
import { formatSize } from '../lib/format-size.js';

export const listDirectoryWithSizes = defineTool({
  name: 'list_directory_with_sizes',
  title: 'List Directory with Sizes',
  description:
    'List the entries of a directory with their sizes, sorted by name or by size (largest first), with totals. Entries ignored by .gitignore are left out ' +
    '(and counted) unless respect_gitignore is false. Only works within allowed directories.',
  input: z.object({
    path: z.string(),
    sortBy: z.enum(['name', 'size']).optional().default('name').describe('Sort entries by name or size'),
    respect_gitignore: z.boolean().default(true),
  }),
  output: z.object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), type: z.enum(['file', 'directory', 'symlink', 'other']), size: z.number().int() })),
    totalFiles: z.number().int(),
    totalDirectories: z.number().int(),
    totalSize: z.number().int().describe('Bytes in the files listed (not recursive)'),
    ignored: z.number().int().describe('Entries hidden by .gitignore'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    [
      ...out.entries.map((e) => `${e.type === 'directory' ? '[DIR] ' : '[FILE]'} ${e.name.padEnd(30)} ${e.type === 'directory' ? '' : formatSize(e.size).padStart(10)}`),
      '',
      `Total: ${out.totalFiles} files, ${out.totalDirectories} directories`,
      `Combined size: ${formatSize(out.totalSize)}`,
      ...(out.ignored ? [`(${out.ignored} entries hidden by .gitignore; respect_gitignore: false shows them)`] : []),
    ].join('\n'),
  async handler(args, ctx) {
    const dir = await ctx.policy.resolveDirectory(args.path);
    const boundary = await ctx.policy.rootOf(dir);
    const listing = await listDirectory(dir, {
      withSizes: true,
      sortBy: args.sortBy,
      respectGitignore: args.respect_gitignore,
      gitignoreBoundary: boundary,
      signal: ctx.signal,
    });
    return ctx.result({
      path: dir,
      entries: listing.entries.map((e) => ({ name: e.name, type: e.type, size: e.size ?? 0 })),
      totalFiles: listing.totalFiles,
      totalDirectories: listing.totalDirectories,
      totalSize: listing.totalSize ?? 0,
      ignored: listing.ignored,
    });
  },
});
