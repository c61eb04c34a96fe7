import { z } from 'zod';
import { RawJson } from '@mcp-reference/shared';
import { defineTool } from '../context.js';
import { directoryTree as buildTree, DEFAULT_MAX_TREE_ENTRIES, type TreeNode } from '../lib/tree.js';
import { throttledProgress } from './progress.js';
import { displayName } from '../lib/display-name.js';
import { reportSkippedFiles } from './report-skipped.js';
import { escapeNotes } from './glob-notes.js';

const MAX_ENTRIES_LIMIT = 50_000;

const treeNode: z.ZodType<TreeNode> = z.object({
  name: z.string(),
  type: z.enum(['file', 'directory']),
  get children() {
    return z.array(treeNode).optional();
  },
  truncated: z.literal(true).optional().describe('Some children were left out (entry cap or max_depth)'),
  continued: z.literal(true).optional().describe('Listed on an earlier page; repeated here to place its children'),
});

export const directoryTree = defineTool({
  name: 'directory_tree',
  title: 'Directory Tree',
  description:
    'A recursive tree of files and directories under `path`, as nested {name, type, children} entries. .gitignore is respected unless respect_gitignore is false. ' +
    `A page holds at most max_entries entries (default ${DEFAULT_MAX_TREE_ENTRIES}), so a response never floods the client: when there is more, nextCursor ` +
    'continues the walk (directories from earlier pages are repeated with continued: true). Narrow it with a deeper path, excludePatterns or max_depth. ' +
    'Only works within allowed directories.',
  input: z.object({
    path: z.string(),
    excludePatterns: z.array(z.string()).optional().default([]).describe('Globs of paths to leave out'),
    respect_gitignore: z.boolean().default(true),
    max_entries: z.number().int().min(1).max(MAX_ENTRIES_LIMIT).default(DEFAULT_MAX_TREE_ENTRIES),
    max_depth: z.number().int().min(1).optional().describe('Do not descend below this depth'),
    cursor: z.string().optional().describe('nextCursor from the previous call'),
  }),
  output: z.object({
    path: z.string(),
    tree: z.array(treeNode),
    entries: z.number().int(),
    nextCursor: z.string().optional().describe('More entries: call again with this cursor'),
    skipped: z
      .array(z.object({ path: z.string().describe('Relative to path'), reason: z.string() }))
      .optional()
      .describe('Directories whose contents could not be listed (path longer than PATH_MAX, symlink loop), at most 100'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  whenTooLarge: 'Pass a smaller max_entries or a max_depth (and follow nextCursor), or a deeper path.',
  // The text is the JSON the official server returns (an array of {name, type, children}),
  // so clients that parse it keep working; a page note goes in a second block. Compact, not
  // indented as there: indentation more than doubled a 50,000-entry page (7.9 MB against 3 MB).
  // The same JSON is the structuredContent's tree (RawJson): serialized once, not walked again
  // by the size check nor serialized again by the stdio transport.
  render: (out) => (out.tree instanceof RawJson ? out.tree.text : JSON.stringify(out.tree)),
  async handler(args, ctx) {
    const root = await ctx.policy.resolveDirectory(args.path);
    const boundary = await ctx.policy.rootOf(root);
    const globOptions = ctx.globs.forRoot(boundary ?? root);
    const result = await buildTree(root, {
      globOptions,
      excludePatterns: args.excludePatterns,
      respectGitignore: args.respect_gitignore,
      gitignoreBoundary: boundary,
      onIgnoreFileSkipped: reportSkippedFiles(ctx),
      maxEntries: args.max_entries,
      maxDepth: args.max_depth,
      after: args.cursor === undefined ? undefined : ctx.cursor.decode(args.cursor),
      signal: ctx.signal,
      onProgress: throttledProgress(ctx, 'directory_tree'),
    });
    const nextCursor = result.truncated && result.last !== undefined ? ctx.cursor.encode(result.last) : undefined;
    const skipped = result.skipped ?? [];
    const more = [
      ...(nextCursor ? [{ type: 'text' as const, text: `(${result.entries} entries on this page; more: call again with cursor "${nextCursor}")` }] : []),
      // The tree text is JSON (names escaped); this note is plain text, so names go through displayName.
      ...(skipped.length > 0
        ? [{ type: 'text' as const, text: [`(${skipped.length} ${skipped.length === 1 ? 'directory' : 'directories'} not listed:`, ...skipped.map((s) => `${displayName(s.path)}: ${s.reason}`)].join('\n') + ')' }]
        : []),
      ...escapeNotes(args.excludePatterns, globOptions),
    ];
    return ctx.result(
      { path: root, tree: new RawJson(JSON.stringify(result.tree)) as unknown as TreeNode[], entries: result.entries, ...(nextCursor ? { nextCursor } : {}), ...(skipped.length > 0 ? { skipped } : {}) },
      more,
    );
  },
});
