import { z } from 'zod';
import { stat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { compareNames } from '../lib/walk.js';
import { listDirectory, type DirectoryEntry } from '../lib/list-directory.js';
import { formatSize } from '../lib/format-size.js';
import { displayName } from '../lib/display-name.js';

export const listDirectoryWithSizes = defineTool({
  name: 'list_directory_with_sizes',
  title: 'List Directory with Sizes',
  description:
    'List the entries of a directory with their sizes, sorted by name or by size (largest first), with totals for the whole directory. Entries ignored by .gitignore are left out ' +
    '(and counted) unless respect_gitignore is false. A symlink shows the size of its target when the target is within the allowed directories. ' +
    'Long listings come in pages: pass nextCursor back as cursor. Only works within allowed directories.',
  input: z.object({
    path: z.string(),
    sortBy: z.enum(['name', 'size']).optional().default('name').describe('Sort entries by name or size'),
    respect_gitignore: z.boolean().default(true),
    cursor: z.string().optional().describe('nextCursor from the previous call'),
  }),
  output: z.object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), type: z.enum(['file', 'directory', 'symlink', 'other']), size: z.number().int() })),
    totalFiles: z.number().int(),
    totalDirectories: z.number().int(),
    totalSize: z.number().int().describe('Bytes in the files of the directory (not recursive)'),
    ignored: z.number().int().describe('Entries hidden by .gitignore'),
    nextCursor: z.string().optional().describe('More entries: call again with this cursor'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  whenTooLarge: 'Follow nextCursor page by page, or list a narrower directory.',
  render: (out) =>
    [
      ...out.entries.map((e) => `${e.type === 'directory' ? '[DIR] ' : '[FILE]'} ${displayName(e.name).padEnd(30)} ${e.type === 'directory' ? '' : formatSize(e.size).padStart(10)}`),
      ...(out.nextCursor ? [`(more entries: call again with cursor "${out.nextCursor}")`] : []),
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
      // As get_file_info reports it: the target's size, when the target is allowed.
      symlinkSize: async (link) => {
        const target = await stat(await ctx.policy.resolveReadable(link));
        return target.isDirectory() ? 0 : target.size;
      },
    });
    // Sizes sort first when sorting by size; the key resumes after the last entry shown,
    // even if entries came or went between pages.
    const bySize = args.sortBy === 'size';
    const keyOf = (e: DirectoryEntry) => (bySize ? JSON.stringify([e.size ?? -1, e.name]) : e.name);
    const position = (key: string): [number, string] => {
      if (!bySize) return [0, key];
      try {
        const [size, name] = JSON.parse(key) as unknown[];
        if (typeof size === 'number' && typeof name === 'string') return [size, name];
      } catch {
        // a cursor from a listing by name: resume by name
      }
      return [Infinity, key];
    };
    const isAfter = (e: DirectoryEntry, [size, name]: [number, string]) => {
      const s = bySize ? (e.size ?? -1) : 0;
      return s < size || (s === size && compareNames(e.name, name) > 0);
    };
    const from = (after: string | undefined) => {
      if (after === undefined) return listing.entries;
      const at = position(after);
      return listing.entries.filter((e) => isAfter(e, at));
    };
    const page = await ctx.page(from, {
      cursor: args.cursor,
      keyOf,
    });
    return ctx.result({
      path: dir,
      entries: page.items.map((e) => ({ name: e.name, type: e.type, size: e.size ?? 0 })),
      totalFiles: listing.totalFiles,
      totalDirectories: listing.totalDirectories,
      totalSize: listing.totalSize ?? 0,
      ignored: listing.ignored,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    });
  },
});
