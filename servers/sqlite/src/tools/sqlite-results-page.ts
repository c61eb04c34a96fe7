import { z } from 'zod';
import { defineTool } from '../context.js';
import { paramsSchema, queryOutput, type EnginePage } from '../query-result.js';

const MAX_LIMIT = 500;

/**
 * The results view's pager (app-only: hosts show it to the view, not to the model). On the
 * 2026 protocol no session keeps a result set, so the page re-runs the read_query the handle
 * was sealed from, read-only like any read_query, with LIMIT/OFFSET and an ORDER BY column
 * that must be one of the result's own columns.
 */
export const sqliteResultsPage = defineTool({
  name: 'sqlite_results_page',
  title: 'A page of query results',
  description:
    'One page of the rows of an earlier read_query, optionally sorted by one of its columns. ' +
    'Used by the results view; pass the handle that came with the read_query result.',
  input: z.object({
    handle: z.string().describe('The handle of the read_query result'),
    offset: z.number().int().min(0).describe('Rows to skip'),
    limit: z.number().int().min(1).max(MAX_LIMIT).default(100).describe(`Rows in the page (at most ${MAX_LIMIT})`),
    sort: z.object({ column: z.string(), dir: z.enum(['asc', 'desc']) }).optional().describe('Column of the result to sort by'),
  }),
  output: z.object({
    columns: queryOutput.shape.columns,
    rows: z.array(z.array(z.unknown())),
    offset: z.number().int(),
    total: z.number().int().describe('Rows in the whole result'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  visibility: ['app'],
  render: (out) => `Rows ${out.offset + 1}-${out.offset + out.rows.length} of ${out.total}.`,
  async handler({ handle, offset, limit, sort }, ctx) {
    const sealed = await ctx.openViewHandle(handle, 'read_query');
    const { query, params } = z.object({ query: z.string(), params: paramsSchema }).parse(sealed);
    // Newlines keep a trailing -- comment of the query from swallowing the parenthesis.
    const inner = `(\n${query.replace(/[\s;]+$/, '')}\n)`;
    // Asked without `head`: the rows come parsed.
    const run = (sql: string) => ctx.engine.call<EnginePage & { rows: unknown[][] }>('query', { sql, params, mode: 'read' }, { signal: ctx.signal });
    let order = '';
    if (sort) {
      const { columns } = await run(`SELECT * FROM ${inner} LIMIT 0`);
      if (!columns.some((column) => column.name === sort.column)) {
        return ctx.error(`This result has no column "${sort.column}"; sort by one of: ${columns.map((c) => c.name).join(', ')}.`);
      }
      order = ` ORDER BY "${sort.column.replace(/"/g, '""')}" ${sort.dir === 'desc' ? 'DESC' : 'ASC'}`;
    }
    const [page, count] = await Promise.all([
      run(`SELECT * FROM ${inner}${order} LIMIT ${limit} OFFSET ${offset}`),
      run(`SELECT count(*) FROM ${inner}`),
    ]);
    return ctx.result({ columns: page.columns, rows: page.rows, offset, total: Number(count.rows[0]?.[0] ?? 0) });
  },
});
