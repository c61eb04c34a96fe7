import { z } from 'zod';
import { defineTool } from '../context.js';
import { paramsSchema, queryOutput, queryResult, renderQuery, type EnginePage } from '../query-result.js';
import { SqlError } from '../lib/errors.js';

export const writeQuery = defineTool({
  name: 'write_query',
  title: 'Run a statement that writes',
  description:
    'Run one SQL statement that changes data (INSERT, UPDATE, DELETE, CREATE, DROP, ...). ' +
    'DROP, and DELETE or UPDATE without WHERE, ask the user to confirm first. Bind values with params.',
  input: z.object({
    query: z.string().describe('One SQL statement'),
    params: paramsSchema,
  }),
  output: queryOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  render: renderQuery,
  whenTooLarge: 'Select fewer or shorter columns (substr() for long text), or add a LIMIT.',
  async handler({ query, params }, ctx) {
    const verdict = await ctx.engine.call<{ destructive?: string; readonly: boolean }>('inspect', { sql: query, params, mode: 'write' }, { signal: ctx.signal });
    if (verdict.readonly) throw new SqlError('This statement does not change the database: run it with read_query.');
    if (verdict.destructive && !(await ctx.confirm(`This statement ${verdict.destructive}:\n\n${query}\n\nRun it?`))) {
      throw new SqlError('The user declined: nothing was changed.');
    }
    const page = await ctx.engine.call<EnginePage>('query', { sql: query, params, mode: 'write' }, { signal: ctx.signal });
    ctx.wrote();
    return queryResult(ctx, page);
  },
});
