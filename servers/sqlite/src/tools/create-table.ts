import { z } from 'zod';
import { defineTool } from '../context.js';
import { SqlError } from '../lib/errors.js';
import { tableUri } from '../lib/uris.js';

// CREATE [TEMP] TABLE [IF NOT EXISTS] [schema.]name, past leading comments; the name may be quoted.
const HEAD = /^\s*create\s+(?:temp\w*\s+)?table\s+(if\s+not\s+exists\s+)?(?:(?:"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|[\w$]+)\s*\.\s*)?("(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|[\w$\u0080-\uffff]+)/i;

function unquote(name: string): string {
  const open = name[0];
  if (open === '"' || open === '`') return name.slice(1, -1).replaceAll(open + open, open);
  if (open === '[') return name.slice(1, -1);
  return name;
}

export const createTable = defineTool({
  name: 'create_table',
  title: 'Create a table',
  description: 'Create a table with one CREATE TABLE statement. With IF NOT EXISTS on a table that exists, nothing changes and the answer says so.',
  input: z.object({ query: z.string().describe('A CREATE TABLE statement') }),
  output: z.object({ table: z.string(), uri: z.string(), created: z.boolean().describe('false when the table already existed (IF NOT EXISTS)') }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  render: (out) => (out.created ? `Table ${out.table} created (${out.uri}).` : `Table ${out.table} already exists; nothing was changed (${out.uri}).`),
  async handler({ query }, ctx) {
    const verdict = await ctx.engine.call<{ verb: string }>('inspect', { sql: query, mode: 'write' }, { signal: ctx.signal });
    const head = HEAD.exec(query.replace(/^(\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/))*/, ''));
    if (verdict.verb !== 'CREATE' || !head) {
      throw new SqlError('create_table takes one CREATE TABLE statement; use write_query for other statements.');
    }
    const before = new Set((await ctx.schema(ctx.signal)).tables.map((t) => t.name));
    await ctx.engine.call('query', { sql: query, mode: 'write' }, { signal: ctx.signal });
    ctx.wrote();
    const created = (await ctx.schema(ctx.signal)).tables.find((t) => !before.has(t.name));
    // Nothing new: IF NOT EXISTS met a table of that name (SQLite compares names without case).
    const asked = unquote(head[2]).toLowerCase();
    const name = created?.name ?? [...before].find((t) => t.toLowerCase() === asked) ?? unquote(head[2]);
    return ctx.result({ table: name, uri: tableUri(name), created: created !== undefined }, [ctx.link(tableUri(name), { name, mimeType: 'application/json' })]);
  },
});
