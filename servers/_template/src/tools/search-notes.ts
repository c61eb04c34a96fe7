import { z } from 'zod';
import { defineTool } from '../context.js';
import { searchNotes } from '../lib/notes.js';
import { noteUri } from '../lib/notes-uri.js';

export const searchNotesTool = defineTool({
  name: 'search_notes',
  title: 'Search notes',
  description:
    'Find lines containing QUERY (case-insensitive) in every note. Results come a page at a time: pass nextCursor back as cursor for more.',
  input: z.object({
    query: z.string().min(1).describe('Text to look for'),
    cursor: z.string().optional().describe('nextCursor from the previous call'),
  }),
  output: z.object({
    matches: z.array(z.object({ name: z.string(), uri: z.string(), line: z.number().int(), text: z.string() })),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true },
  render: (out) =>
    out.matches.length === 0
      ? 'No matches.'
      : out.matches.map((m) => `${m.name}:${m.line}: ${m.text}`).join('\n') +
        (out.nextCursor ? `\n(more: call again with cursor ${out.nextCursor})` : ''),
  async handler({ query, cursor }, ctx) {
    const page = await ctx.page(
      async function* (after) {
        let skipping = after !== undefined;
        for await (const match of searchNotes(ctx.dir, query, ctx.signal)) {
          const key = `${match.name}:${match.line}`;
          if (skipping) {
            if (key === after) skipping = false;
            continue;
          }
          yield match;
        }
      },
      { cursor, keyOf: (m) => `${m.name}:${m.line}` },
    );
    const matches = page.items.map((m) => ({ ...m, uri: noteUri(m.name) }));
    const names = [...new Set(matches.map((m) => m.name))];
    return ctx.result(
      { matches, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      names.map((name) => ctx.link(noteUri(name), { name, mimeType: 'text/markdown' })),
    );
  },
});
