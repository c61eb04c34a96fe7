import { z } from 'zod';
import { defineTool } from '../context.js';
import { findTable } from '../lib/schema.js';
import { queryOutput, queryResult, renderQuery, type EnginePage } from '../query-result.js';

export const sampleRows = defineTool({
  name: 'sample_rows',
  title: 'Sample rows',
  description: 'The first N rows of a table or view, to see what its data looks like.',
  input: z.object({
    table: z.string().describe('A table or view, as list_tables names it'),
    n: z.number().int().min(1).max(1000).default(10).describe('How many rows (1-1000)'),
  }),
  output: queryOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: renderQuery,
  async handler({ table, n }, ctx) {
    const name = findTable(await ctx.schema(ctx.signal), table).name;
    const page = await ctx.engine.call<Omit<EnginePage, 'more' | 'tables'> & { nextAfter?: string }>('rows', { table: name, limit: n }, { signal: ctx.signal });
    return queryResult(ctx, { ...page, more: false, tables: [name] });
  },
});
