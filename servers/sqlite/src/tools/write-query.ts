import { z } from 'zod';
import { defineTool } from '../context.js';
import { paramsSchema, queryOutput, queryResult, renderQuery, type EnginePage } from '../query-result.js';
import { SqlError } from '../lib/errors.js';

export const writeQuery = defineTool({
  name: 'write_query',
  title: 'Run a statement that writes',
  description:
    'Run one SQL statement that changes data (INSERT, UPDATE, DELETE, CREATE, DROP, ...). ' +
    'Statements that can remove or rewrite data or schema (UPDATE, DELETE, REPLACE, upserts, DROP, ALTER TABLE other than ADD COLUMN, CREATE TRIGGER) ask the user to confirm first. TEMP objects are refused. Bind values with params.',
  input: z.object({
    query: z.string().describe('One SQL statement'),
    params: paramsSchema,
  }),
  output: queryOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  render: renderQuery,
  whenTooLarge: 'Select fewer or shorter columns (substr() for long text), or add a LIMIT.',
  async handler({ query, params }, ctx) {
    const verdict = await ctx.engine.call<{ destructive?: string; readonly: boolean; writes: string[] }>('inspect', { sql: query, params, mode: 'write' }, { signal: ctx.signal });
    if (verdict.readonly) throw new SqlError('This statement does not change the database: run it with read_query.');
    const where = verdict.writes.length ? ` (it writes ${verdict.writes.join(', ')})` : '';
    if (verdict.destructive && !(await ctx.confirm(`This statement ${verdict.destructive}${where}:\n\n${query}\n\nRun it?`))) {
      throw new SqlError('The user declined: nothing was changed.');
    }
    // What the person was asked about goes along: the engine judges the statement again where
    // it runs, and refuses it if the database changed meanwhile so that it now does more.
    const confirmed = verdict.destructive === undefined ? undefined : { destructive: verdict.destructive, writes: verdict.writes };
    const page = await ctx.engine.call<EnginePage>('query', { sql: query, params, mode: 'write', confirmed }, { signal: ctx.signal });
    ctx.wrote();
    return queryResult(ctx, page);
  },
});
