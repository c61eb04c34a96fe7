import { z } from 'zod';
import { defineTool } from '../context.js';
import { findEntries } from '../lib/search.js';
import { fileUri } from '../lib/file-uri.js';
import { displayName } from '../lib/display-name.js';
import { throttledProgress } from './progress.js';
import { reportSkippedFiles } from './report-skipped.js';
import { escapeNotes } from './glob-notes.js';

const MAX_LINKS = 100;

export const searchFiles = defineTool({
  name: 'search_files',
  title: 'Search Files',
  description:
    "Recursively find files and directories whose path matches a glob, relative to `path`: '*.ext' matches in `path` itself, '**/*.ext' at any depth; " +
    'a pattern without glob characters matches names containing it. .gitignore is respected unless respect_gitignore is false. ' +
    'Results come in pages: pass nextCursor back as cursor for more. The first 100 files found are also returned as resource links. Only searches within allowed directories.',
  input: z.object({
    path: z.string(),
    pattern: z.string(),
    excludePatterns: z.array(z.string()).optional().default([]).describe('Globs of paths to leave out'),
    respect_gitignore: z.boolean().default(true).describe('Skip what .gitignore files ignore (and .git)'),
    max_results: z.number().int().min(1).max(10_000).default(1_000).describe('Matches per page'),
    cursor: z.string().optional().describe('nextCursor from the previous call'),
  }),
  output: z.object({
    root: z.string(),
    matches: z.array(z.object({ path: z.string(), type: z.enum(['file', 'directory', 'symlink', 'other']) })),
    nextCursor: z.string().optional().describe('More matches: call again with this cursor'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  whenTooLarge: 'Pass a smaller max_results (and follow nextCursor), or search a narrower path.',
  render: (out) =>
    (out.matches.length ? out.matches.map((m) => displayName(m.path)).join('\n') : 'No matches found') +
    (out.nextCursor ? `\n(more matches: call again with cursor "${out.nextCursor}")` : ''),
  async handler(args, ctx) {
    const root = await ctx.policy.resolveDirectory(args.path);
    const boundary = await ctx.policy.rootOf(root);
    const onProgress = throttledProgress(ctx, 'search_files');
    const onIgnoreFileSkipped = reportSkippedFiles(ctx);
    const globOptions = ctx.globs.forRoot(boundary ?? root);
    const page = await ctx.page(
      (after) =>
        findEntries(root, args.pattern, {
          after,
          excludePatterns: args.excludePatterns,
          globOptions,
          respectGitignore: args.respect_gitignore,
          gitignoreBoundary: boundary,
          onIgnoreFileSkipped,
          signal: ctx.signal,
          onProgress,
        }),
      { cursor: args.cursor, keyOf: (entry) => entry.relative, limit: args.max_results },
    );
    const matches = page.items.map((entry) => ({ path: entry.path, type: entry.type }));
    // Links for the first files only: a client gains nothing from thousands of them.
    const links = page.items
      .filter((entry) => entry.type === 'file')
      .slice(0, MAX_LINKS)
      .map((entry) => ctx.link(fileUri(entry.path)));
    // A glob that matched nothing, or an exclusion, because "\" escaped where "/" was meant: say so.
    const notes = escapeNotes([...(matches.length === 0 ? [args.pattern] : []), ...args.excludePatterns], globOptions);
    return ctx.result({ root, matches, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, [...links, ...notes]);
  },
});
