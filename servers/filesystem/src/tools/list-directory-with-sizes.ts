import { z } from 'zod';
import { stat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { compareNames } from '../lib/walk.js';
import { listDirectory, type DirectoryEntry, type DirectoryListing } from '../lib/list-directory.js';
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
    const owner = ctx.sessionId ?? '';
    const bySize = args.sortBy === 'size';
    const totalsOf = (listing: DirectoryListing): Totals => ({
      dir,
      sortBy: args.sortBy,
      respect: args.respect_gitignore,
      totalFiles: listing.totalFiles,
      totalDirectories: listing.totalDirectories,
      totalSize: listing.totalSize ?? 0,
      ignored: listing.ignored,
    });
    const list = async () =>
      listDirectory(dir, {
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
    // The first page lists (and stats) the whole directory once and keeps the listing on
    // the server for the pages after it, which then cost their own size. A cursor names
    // its snapshot and position, and also the last entry shown, so that when the snapshot
    // is gone (expired, evicted) the directory is listed again and resumes after it.
    let totals: Totals | undefined;
    let snapshotId: string | undefined;
    const from = async function* (after: string | undefined): AsyncGenerator<Item> {
      const position = after === undefined ? undefined : parsePosition(after, bySize);
      const kept = position?.snapshot === undefined ? undefined : ctx.listings.get(owner, position.snapshot);
      const extra = kept?.extra as Totals | undefined;
      let entries: readonly Entry[];
      let start = 0;
      if (kept && extra && extra.dir === dir && extra.sortBy === args.sortBy && extra.respect === args.respect_gitignore && (kept.items as readonly Entry[])[position!.index!]?.name === position!.name) {
        entries = kept.items as readonly Entry[];
        totals = extra;
        snapshotId = position!.snapshot;
        start = position!.index! + 1;
      } else {
        const listing = await list();
        entries = listing.entries.map((e) => ({ name: e.name, type: e.type, size: e.size ?? 0, sortSize: e.size ?? -1 }));
        totals = totalsOf(listing);
        // A listing that fits one page needs no snapshot (and must not push out one being paged).
        snapshotId = entries.length > ctx.pageSize ? ctx.listings.put(owner, entries, totals) : undefined;
        if (position !== undefined) {
          const isAfter = (e: Entry) => e.sortSize < position.size || (e.sortSize === position.size && compareNames(e.name, position.name) > 0);
          start = entries.findIndex(bySize ? isAfter : (e) => compareNames(e.name, position.name) > 0);
          if (start === -1) start = entries.length;
        }
      }
      for (let index = start; index < entries.length; index++) yield { entry: entries[index], index, snapshot: snapshotId };
    };
    const page = await ctx.page(from, { cursor: args.cursor, keyOf: keyOfItem });
    // The last page: the snapshot has served its purpose.
    if (!page.nextCursor && snapshotId !== undefined) ctx.listings.delete(snapshotId);
    const { totalFiles, totalDirectories, totalSize, ignored } = totals!;
    return ctx.result({
      path: dir,
      entries: page.items.map(({ entry }) => ({ name: entry.name, type: entry.type, size: entry.size })),
      totalFiles,
      totalDirectories,
      totalSize,
      ignored,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    });
  },
});

interface Entry {
  name: string;
  type: DirectoryEntry['type'];
  size: number;
  /** The size the order uses: -1 when unknown (an entry that vanished before its lstat). */
  sortSize: number;
}

interface Item {
  entry: Entry;
  index: number;
  snapshot: string | undefined;
}

interface Totals {
  dir: string;
  sortBy: 'name' | 'size';
  respect: boolean;
  totalFiles: number;
  totalDirectories: number;
  totalSize: number;
  ignored: number;
}

/** Where a page ends: the snapshot and index, and the entry itself (to resume without the snapshot). */
function keyOfItem({ entry, index, snapshot }: Item): string {
  return JSON.stringify({ s: snapshot, i: index, n: entry.name, z: entry.sortSize });
}

function parsePosition(key: string, bySize: boolean): { snapshot?: string; index?: number; name: string; size: number } {
  try {
    const parsed = JSON.parse(key) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const { s, i, n, z } = parsed as Record<string, unknown>;
      if (typeof n === 'string' && typeof z === 'number') {
        return { name: n, size: bySize ? z : 0, ...(typeof s === 'string' && typeof i === 'number' && Number.isInteger(i) && i >= 0 ? { snapshot: s, index: i } : {}) };
      }
    }
  } catch {
    // not one of ours: resume by name
  }
  return { name: key, size: bySize ? Infinity : 0 };
}
