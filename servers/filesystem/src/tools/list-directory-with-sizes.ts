import { z } from 'zod';
import { lstat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { walk, type WalkEntry } from '../lib/walk.js';
import { isWithin } from '../lib/path-policy.js';
import { formatSize } from '../lib/format-size.js';

const MAX_ENTRIES = 10_000;

export const listDirectoryWithSizes = defineTool({
  name: 'list_directory_with_sizes',
  title: 'List Directory with Sizes',
  description:
    'List the entries of a directory with their sizes, sorted by name or by size (largest first), with totals. Entries ignored by .gitignore are left out ' +
    `unless respect_gitignore is false. At most ${MAX_ENTRIES} entries are sized. Only works within allowed directories.`,
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
    truncated: z.boolean(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    [
      ...out.entries.map((e) => `${e.type === 'directory' ? '[DIR] ' : '[FILE]'} ${e.name.padEnd(30)} ${e.type === 'directory' ? '' : formatSize(e.size).padStart(10)}`),
      '',
      `Total: ${out.totalFiles} files, ${out.totalDirectories} directories`,
      `Combined size: ${formatSize(out.totalSize)}`,
      ...(out.truncated ? [`(only the first ${MAX_ENTRIES} entries)`] : []),
    ].join('\n'),
  async handler(args, ctx) {
    const dir = await ctx.policy.resolveDirectory(args.path);
    const boundary = (await ctx.policy.allowed()).find((allowed) => isWithin(allowed, dir));
    const listed: WalkEntry[] = [];
    let truncated = false;
    for await (const entry of walk(dir, { maxDepth: 1, respectGitignore: args.respect_gitignore, gitignoreBoundary: boundary, signal: ctx.signal })) {
      if (listed.length === MAX_ENTRIES) {
        truncated = true;
        break;
      }
      listed.push(entry);
    }
    const entries = await Promise.all(
      listed.map(async (entry) => ({
        name: entry.name,
        type: entry.type,
        size: entry.type === 'directory' ? 0 : ((await lstat(entry.path).catch(() => undefined))?.size ?? 0),
      })),
    );
    if (args.sortBy === 'size') entries.sort((a, b) => b.size - a.size);
    const files = entries.filter((e) => e.type !== 'directory');
    return ctx.result({
      path: dir,
      entries,
      totalFiles: files.length,
      totalDirectories: entries.length - files.length,
      totalSize: files.reduce((sum, e) => sum + e.size, 0),
      truncated,
    });
  },
});
