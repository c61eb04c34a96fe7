import { resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate, type SqliteContext } from '../context.js';
import { completeTableName } from '../complete-names.js';
import { findTable, type Table } from '../lib/schema.js';
import { SqlError } from '../lib/errors.js';
import { rowsUri, TABLE_TEMPLATE, tableOfUri, tableUri } from '../lib/uris.js';

const SAMPLE_ROWS = 20;

/** The table a resource URI names; an unknown one is "resource not found" with the known names. */
export async function tableOfResource(uri: string, name: string, ctx: SqliteContext & { signal: AbortSignal }): Promise<Table> {
  try {
    return findTable(await ctx.schema(ctx.signal), name);
  } catch (error) {
    if (error instanceof SqlError) throw resourceNotFound(uri, error.message);
    throw error;
  }
}

export const tableTemplate = defineResourceTemplate({
  uriTemplate: TABLE_TEMPLATE,
  name: 'table',
  title: 'Table',
  description: `A table or view: its columns, CREATE statement, ${SAMPLE_ROWS} sample rows and the URI of its pages of rows. Subscribe to hear when its data changes.`,
  mimeType: 'application/json',
  complete: { name: completeTableName },
  async *list(after, ctx) {
    const tables = (await ctx.schema(ctx.signal)).tables;
    const afterName = after === undefined ? undefined : tableOfUri(after);
    const start = afterName === undefined ? 0 : tables.findIndex((t) => t.name === afterName) + 1;
    for (const table of tables.slice(start)) {
      yield { uri: tableUri(table.name), name: table.name, title: `${table.type} ${table.name}`, mimeType: 'application/json' };
    }
  },
  async read(uri, { name }, ctx) {
    const table = await tableOfResource(uri, name, ctx);
    const sample = await ctx.engine.call<{ columns: unknown[]; rows: unknown[][] }>('rows', { table: table.name, limit: SAMPLE_ROWS }, { signal: ctx.signal });
    const body = {
      name: table.name,
      type: table.type,
      sql: table.sql,
      columns: table.columns,
      sample: { columns: sample.columns, rows: sample.rows },
      rows: rowsUri(table.name),
    };
    return [textContents(uri, JSON.stringify(body, null, 2), 'application/json')];
  },
});
