import { resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate } from '../context.js';
import { completeTableName } from '../complete-names.js';
import { tableOfResource } from './table.js';
import { ROWS_TEMPLATE, rowsUri } from '../lib/uris.js';

export const ROWS_PER_PAGE = 500;

export const rowsTemplate = defineResourceTemplate({
  uriTemplate: ROWS_TEMPLATE,
  name: 'table-rows',
  title: 'Rows of a table',
  description:
    `A page of up to ${ROWS_PER_PAGE} rows of a table, in rowid order, after the rowid AFTER (0 for the first page); ` +
    'the page names the URI of the next one. Each page costs the same wherever it starts.',
  mimeType: 'application/json',
  complete: { name: completeTableName, after: () => ['0'] },
  async read(uri, { name, after }, ctx) {
    if (!/^\d+$/.test(after)) throw resourceNotFound(uri, 'AFTER is a rowid: 0 for the first page, then the "next" of the previous page.');
    const table = await tableOfResource(uri, name, ctx);
    const page = await ctx.engine.call<{ columns: unknown[]; rows: unknown[][]; nextAfter?: string }>(
      'rows',
      { table: table.name, after, limit: ROWS_PER_PAGE },
      { signal: ctx.signal },
    );
    const body = { table: table.name, columns: page.columns, rows: page.rows, ...(page.nextAfter ? { next: rowsUri(table.name, page.nextAfter) } : {}) };
    return [textContents(uri, JSON.stringify(body), 'application/json')];
  },
});
