import { z } from 'zod';
import { defineTool } from '../context.js';
import { walk } from '../lib/walk.js';
import { fileUri } from '../lib/file-uri.js';
import { displayName } from '../lib/display-name.js';
import { reportSkippedFiles } from './report-skipped.js';

const entryType = z.enum(['file', 'directory', 'symlink', 'other']);

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List Directory',
  description:
    'List the entries of a directory, sorted by name, marked [DIR] or [FILE]. Entries ignored by .gitignore are left out unless respect_gitignore is false. ' +
    'Long listings come in pages: pass nextCursor back as cursor. Only works within allowed directories.',
  input: z.object({
    path: z.string(),
    respect_gitignore: z.boolean().default(true).describe('Leave out what .gitignore files ignore (and .git)'),
    cursor: z.string().optional().describe('nextCursor from the previous call'),
  }),
  output: z.object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), type: entryType })),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    // One line per entry, whatever the names hold (a newline in a name is escaped, not a new line).
    out.entries.map((e) => `${e.type === 'directory' ? '[DIR]' : '[FILE]'} ${displayName(e.name)}`).join('\n') +
    (out.nextCursor ? `\n(more entries: call again with cursor "${out.nextCursor}")` : ''),
  async handler(args, ctx) {
    const dir = await ctx.policy.resolveDirectory(args.path);
    const boundary = await ctx.policy.rootOf(dir);
    const onIgnoreFileSkipped = reportSkippedFiles(ctx);
    const page = await ctx.page(
      (after) =>
        walk(dir, { after, maxDepth: 1, respectGitignore: args.respect_gitignore, gitignoreBoundary: boundary, onIgnoreFileSkipped, signal: ctx.signal }),
      { cursor: args.cursor, keyOf: (entry) => entry.relative },
    );
    const entries = page.items.map((entry) => ({ name: entry.name, type: entry.type }));
    const links = page.items.filter((entry) => entry.type === 'file').map((entry) => ctx.link(fileUri(entry.path)));
    return ctx.result({ path: dir, entries, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, links);
  },
});
