import { z } from 'zod';
import { defineTool } from '../context.js';
import { AS_TEXT, decodeQueryCursor, paramsSchema, queryOutput, queryResult, renderQuery, rowCount, type EnginePage } from '../query-result.js';

export const readQuery = defineTool({
  name: 'read_query',
  title: 'Run a query that reads',
  description:
    'Run one SQL statement that reads (SELECT, WITH ... SELECT, VALUES, a read-only PRAGMA) and return its rows. ' +
    'SQLite itself refuses anything that writes, in every mode. Bind values with params instead of splicing them into the SQL. ' +
    'Large results come a page at a time: pass nextCursor back as cursor (with the same query).',
  input: z.object({
    query: z.string().describe('One SQL statement'),
    params: paramsSchema,
    cursor: z.string().optional().describe('nextCursor from the previous page of this query'),
  }),
  output: queryOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: renderQuery,
  view: 'ui://sqlite/results',
  whenTooLarge: 'Select fewer or shorter columns (substr() for long text), or add a LIMIT.',
  async handler({ query, params, cursor }, ctx) {
    await ctx.progress(0);
    let page: EnginePage;
    if (cursor) {
      const { at, id } = decodeQueryCursor(ctx, cursor);
      page = await ctx.engine.call<EnginePage>('next', { cursor: id }, { signal: ctx.signal, at });
    } else {
      const bounded = ctx.quick.read(query, params);
      page = bounded
        ? { ...bounded, more: false, at: { slot: -1, generation: 0 } }
        : await ctx.engine.call<EnginePage>('query', { sql: query, params, mode: 'read', ...AS_TEXT }, { signal: ctx.signal });
    }
    await ctx.progress(1, 1, `${rowCount(page)} row(s)`);
    return queryResult(ctx, page);
  },
});
