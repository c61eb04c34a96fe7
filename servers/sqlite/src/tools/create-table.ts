import { z } from 'zod';
import { defineTool } from '../context.js';
import { SqlError } from '../lib/errors.js';
import { tableUri } from '../lib/uris.js';

export const createTable = defineTool({
  name: 'create_table',
  title: 'Create a table',
  description: 'Create a table with one CREATE TABLE statement.',
  input: z.object({ query: z.string().describe('A CREATE TABLE statement') }),
  output: z.object({ table: z.string(), uri: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  render: (out) => `Table ${out.table} created (${out.uri}).`,
  async handler({ query }, ctx) {
    const verdict = await ctx.engine.call<{ verb: string }>('inspect', { sql: query, mode: 'write' }, { signal: ctx.signal });
    if (verdict.verb !== 'CREATE' || !/^\s*create\s+(temp\w*\s+)?table\b/i.test(query.replace(/^(\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/))*/, ''))) {
      throw new SqlError('create_table takes one CREATE TABLE statement; use write_query for other statements.');
    }
    const before = new Set((await ctx.schema(ctx.signal)).tables.map((t) => t.name));
    await ctx.engine.call('query', { sql: query, mode: 'write' }, { signal: ctx.signal });
    ctx.wrote();
    const created = (await ctx.schema(ctx.signal)).tables.find((t) => !before.has(t.name));
    const name = created?.name ?? '';
    return ctx.result({ table: name, uri: tableUri(name) }, created ? [ctx.link(tableUri(name), { name, mimeType: 'application/json' })] : []);
  },
});
