import { z } from 'zod';
import { defineTool } from '../context.js';
import { tableUri } from '../lib/uris.js';

export const listTables = defineTool({
  name: 'list_tables',
  title: 'List tables',
  description: 'List the tables and views of the database, each linked to its resource (schema and sample rows).',
  input: z.object({}),
  output: z.object({
    tables: z.array(z.object({ name: z.string(), type: z.enum(['table', 'view']), columns: z.number().int(), uri: z.string() })),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => (out.tables.length ? out.tables.map((t) => `${t.name}${t.type === 'view' ? ' (view)' : ''}`).join('\n') : 'The database has no tables.'),
  async handler(_args, ctx) {
    const schema = await ctx.schema(ctx.signal);
    const tables = schema.tables.map((t) => ({ name: t.name, type: t.type, columns: t.columns.length, uri: tableUri(t.name) }));
    return ctx.result({ tables }, tables.map((t) => ctx.link(t.uri, { name: t.name, mimeType: 'application/json' })));
  },
});
