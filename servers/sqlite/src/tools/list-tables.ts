import { z } from 'zod';
import { itemsAfter } from '@mcp-reference/shared';
import { defineTool } from '../context.js';
import { tableUri } from '../lib/uris.js';

/**
 * Tables in one answer: every table of nearly any database, at about 1 MB. Unpaged, 20,000
 * tables made an answer of 3.6 MB, so some 45,000 would be over the result budget (8 MB),
 * and list_tables had no way to ask for less.
 */
export const LIST_TABLES_PAGE = 5_000;

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export const listTables = defineTool({
  name: 'list_tables',
  title: 'List tables',
  description: `List the tables and views of the database, each linked to its resource (schema and sample rows). More than ${LIST_TABLES_PAGE.toLocaleString('en')} come in pages: pass nextCursor back as cursor.`,
  input: z.object({ cursor: z.string().optional().describe('nextCursor from the previous call') }),
  output: z.object({
    tables: z.array(z.object({ name: z.string(), type: z.enum(['table', 'view']), columns: z.number().int(), uri: z.string() })),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    (out.tables.length ? out.tables.map((t) => `${t.name}${t.type === 'view' ? ' (view)' : ''}`).join('\n') : 'The database has no tables.') +
    (out.nextCursor ? `\n(more tables: call again with cursor ${out.nextCursor})` : ''),
  async handler({ cursor }, ctx) {
    const schema = await ctx.schema(ctx.signal);
    // In one order the cursor can resume in, whatever was created or dropped between pages.
    const sorted = [...schema.tables].sort(byName);
    const keyOf = (t: (typeof sorted)[number]) => t.name;
    const page = await ctx.page((after) => (after === undefined ? sorted : itemsAfter(sorted, after, keyOf, (gone) => (t) => t.name > gone)), {
      cursor,
      keyOf,
      limit: LIST_TABLES_PAGE,
    });
    const tables = page.items.map((t) => ({ name: t.name, type: t.type, columns: t.columns.length, uri: tableUri(t.name) }));
    return ctx.result(
      { tables, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      tables.map((t) => ctx.link(t.uri, { name: t.name, mimeType: 'application/json' })),
    );
  },
});
