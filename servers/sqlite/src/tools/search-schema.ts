import { z } from 'zod';
import { itemsAfter } from '@mcp-reference/shared';
import { defineTool } from '../context.js';
import { SqlError } from '../lib/errors.js';
import { searchSchema } from '../lib/schema.js';
import { tableUri } from '../lib/uris.js';

export const searchSchemaTool = defineTool({
  name: 'search_schema',
  title: 'Search the schema',
  description: 'Find tables, views and columns whose names contain a term (case-insensitive): for databases with many tables.',
  input: z.object({
    term: z.string().min(1).describe('Part of a table or column name'),
    cursor: z.string().optional().describe('nextCursor from the previous call'),
  }),
  output: z.object({
    matches: z.array(z.object({ table: z.string(), type: z.string(), column: z.string().optional(), columnType: z.string().optional() })),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.matches.length
      ? out.matches.map((m) => (m.column ? `${m.table}.${m.column} ${m.columnType ?? ''}`.trimEnd() : `${m.table} (${m.type})`)).join('\n') +
        (out.nextCursor ? `\n(more: call again with cursor ${out.nextCursor})` : '')
      : 'No matches.',
  async handler({ term, cursor }, ctx) {
    const hits = searchSchema(await ctx.schema(ctx.signal), term);
    const keyOf = (m: (typeof hits)[number]) => JSON.stringify([m.table, m.column ?? '']);
    // When the last match is gone (its table or column dropped since), on from the next
    // table, not from the start again.
    const nextTables = (gone: string) => {
      let table: unknown;
      try {
        [table] = JSON.parse(gone) as unknown[];
      } catch {}
      if (typeof table !== 'string') throw new SqlError('Invalid cursor for search_schema: use the nextCursor of the previous call, with the same term.');
      return (m: (typeof hits)[number]) => m.table > table;
    };
    const page = await ctx.page((after) => (after === undefined ? hits : itemsAfter(hits, after, keyOf, nextTables)), { cursor, keyOf });
    const tables = [...new Set(page.items.map((m) => m.table))];
    return ctx.result(
      { matches: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      tables.map((name) => ctx.link(tableUri(name), { name, mimeType: 'application/json' })),
    );
  },
});
