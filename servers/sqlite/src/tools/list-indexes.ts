import { z } from 'zod';
import { defineTool } from '../context.js';
import { findTable } from '../lib/schema.js';

export const listIndexes = defineTool({
  name: 'list_indexes',
  title: 'List indexes',
  description: 'The indexes of the database, or of one table: name, table, columns, unique.',
  input: z.object({ table_name: z.string().optional().describe('Only the indexes of this table') }),
  output: z.object({ indexes: z.array(z.object({ name: z.string(), table: z.string(), unique: z.boolean(), columns: z.array(z.string()), sql: z.string().nullable() })) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.indexes.length ? out.indexes.map((i) => `${i.name} ON ${i.table} (${i.columns.join(', ')})${i.unique ? ' UNIQUE' : ''}`).join('\n') : 'No indexes.',
  async handler({ table_name }, ctx) {
    const schema = await ctx.schema(ctx.signal);
    const table = table_name === undefined ? undefined : findTable(schema, table_name).name;
    return ctx.result({ indexes: schema.indexes.filter((i) => table === undefined || i.table === table) });
  },
});
