import { z } from 'zod';
import { defineTool } from '../context.js';
import { findTable } from '../lib/schema.js';
import { renderTable } from '../lib/render-table.js';
import { tableUri } from '../lib/uris.js';

export const describeTable = defineTool({
  name: 'describe_table',
  title: 'Describe a table',
  description: 'The columns of a table or view (name, declared type, NOT NULL, default, primary key), its indexes and its CREATE statement.',
  input: z.object({ table_name: z.string().describe('A table or view, as list_tables names it') }),
  output: z.object({
    table: z.string(),
    type: z.enum(['table', 'view']),
    columns: z.array(z.object({ name: z.string(), type: z.string(), notNull: z.boolean(), defaultValue: z.string().nullable(), pk: z.number().int() })),
    indexes: z.array(z.object({ name: z.string(), unique: z.boolean(), columns: z.array(z.string()) })),
    sql: z.string().nullable(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    `${out.type} ${out.table}\n\n` +
    renderTable(['name', 'type', 'notnull', 'default', 'pk'], out.columns.map((c) => [c.name, c.type, c.notNull ? 1 : 0, c.defaultValue, c.pk])) +
    (out.indexes.length ? `\n\nIndexes:\n${out.indexes.map((i) => `${i.name}${i.unique ? ' (unique)' : ''}: ${i.columns.join(', ')}`).join('\n')}` : ''),
  async handler({ table_name }, ctx) {
    const schema = await ctx.schema(ctx.signal);
    const table = findTable(schema, table_name);
    const indexes = schema.indexes.filter((i) => i.table === table.name).map((i) => ({ name: i.name, unique: i.unique, columns: i.columns }));
    return ctx.result({ table: table.name, type: table.type, columns: table.columns, indexes, sql: table.sql }, [
      ctx.link(tableUri(table.name), { name: table.name, mimeType: 'application/json' }),
    ]);
  },
});
