// The result shape shared by read_query, write_query and sample_rows: structuredContent
// with columns, rows, row_count and truncated, a text table, links to the tables read, and
// a cursor when more rows wait behind it. The cursor names the engine child that keeps the
// statement open, so the next page continues where this one stopped (no OFFSET re-run).
import { z } from 'zod';
import type { BaseContext, ToolContext, ToolResult } from '@mcp-reference/shared';
import { codePointBoundary, codePointLength, RawJson } from '@mcp-reference/shared/core';
import type { EngineSlot } from './lib/engine.js';
import { renderTable } from './lib/render-table.js';
import { tableUri } from './lib/uris.js';
import { SqlError } from './lib/errors.js';
import { CELL_CHARS } from './lib/engine-child.js';
import type { SqliteContext } from './context.js';

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const paramsSchema = z
  .union([z.array(scalar), z.record(z.string(), scalar)])
  .optional()
  .describe('Values bound to the statement: an array for ? placeholders, or an object for :name, @name or $name placeholders');

export const queryOutput = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string().nullable().describe('Declared type, null for expressions') })),
  rows: z.array(z.array(z.unknown())),
  row_count: z.number().int().describe('Rows in this page'),
  truncated: z.boolean().describe('More rows follow: pass nextCursor back as cursor'),
  nextCursor: z.string().optional(),
  tables: z.array(z.string()).describe('Tables the statement read'),
  changes: z.number().int().optional().describe('Rows changed by a write'),
  cells_cut: z
    .array(z.object({ row: z.number().int().describe('Row in this page, from 0'), column: z.string(), length: z.number().int().describe('Its full length: characters of text, bytes of a blob') }))
    .optional()
    .describe(`Cells longer than ${CELL_CHARS.toLocaleString('en')} characters (blobs: ${(CELL_CHARS / 2).toLocaleString('en')} bytes), cut in rows: read the rest with substr()`),
  last_insert_rowid: z.union([z.number(), z.string()]).optional(),
});

export type QueryOutput = z.input<typeof queryOutput>;

export interface EnginePage {
  columns: { name: string; type: string | null }[];
  /** The rows, unless the engine was asked for them as text (`head` in the request). */
  rows?: unknown[][];
  /** Asked for as text: the rows' JSON (UTF-8), the first `head` of them parsed, and how many there are. */
  rowsJson?: Uint8Array;
  head?: unknown[][];
  count?: number;
  more: boolean;
  cursor?: string;
  tables: string[];
  changes?: number;
  lastInsertRowid?: number | string;
  /** [row, column index, full length] of each cell cut. */
  cuts?: number[][];
  at: EngineSlot;
}

/** What to run to read the rest of a cut text cell. */
function restOf(column: string, length: number): string {
  const name = `"${column.replace(/"/g, '""')}"`;
  return `substr(${name}, ${CELL_CHARS + 1}, ${CELL_CHARS}), then on, up to ${length.toLocaleString('en')}`;
}

/**
 * A cell as the text table shows it: long ones shortened there (structuredContent has them),
 * with their length in characters as SQLite counts them (code points, like cells_cut).
 */
const TEXT_CELL = 200;
function previewCell(value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= TEXT_CELL) return value;
  const characters = codePointLength(value);
  return characters > TEXT_CELL ? `${value.slice(0, codePointBoundary(value, TEXT_CELL))}… (${characters.toLocaleString('en')} characters in structuredContent)` : value;
}

/**
 * Rows shown in the text table. The text is for people and models reading it, so a big
 * page is previewed there (a model's context would not hold 10,000 rows anyway), while
 * structuredContent carries every row of the page; rendering and sending the whole page
 * twice would also halve the rows per second a client can page through.
 */
export const TEXT_ROWS = 200;

/** How read_query asks the engine for a query's pages: as text, the first TEXT_ROWS rows parsed (see queryResult); its cursor keeps that. */
export const AS_TEXT = { head: TEXT_ROWS } as const;

/** The rows of an answer: parsed, or the text of a page the engine serialized (see queryResult). */
function rowsOf(out: z.output<typeof queryOutput>): unknown[][] {
  const rows: unknown = out.rows;
  return rows instanceof RawJson ? (rows.head as unknown[][]) : out.rows;
}
const TEXT_CHARS = 64 * 1024;

export function renderQuery(out: z.output<typeof queryOutput>): string {
  const parts: string[] = [];
  if (out.columns.length) {
    let table = renderTable(out.columns.map((c) => c.name), rowsOf(out).slice(0, TEXT_ROWS).map((row) => row.map(previewCell)));
    let shown = Math.min(out.row_count, TEXT_ROWS);
    if (table.length > TEXT_CHARS) {
      table = table.slice(0, table.lastIndexOf('\n', TEXT_CHARS));
      shown = Math.max(0, table.split('\n').length - 2);
    }
    parts.push(table);
    if (shown < out.row_count) {
      parts.push(`(${shown} of the ${out.row_count} rows of this page are shown here; structuredContent has them all. For fewer rows, add a LIMIT or a WHERE.)`);
    }
  }
  if (out.cells_cut?.length) {
    const shown = out.cells_cut.slice(0, 5).map((cut) => `row ${cut.row}, column ${cut.column}: ${cut.length.toLocaleString('en')}`);
    parts.push(
      `${out.cells_cut.length} cell(s) were cut at ${CELL_CHARS.toLocaleString('en')} characters (${shown.join('; ')}${out.cells_cut.length > 5 ? '; ...' : ''}). ` +
        'Read the rest of one with substr(column, start, length) in a query that selects that row, e.g. ' +
        `${restOf(out.cells_cut[0].column, out.cells_cut[0].length)} (a blob keeps ${(CELL_CHARS / 2).toLocaleString('en')} bytes: hex(substr(column, ${CELL_CHARS / 2 + 1}, ${CELL_CHARS / 2})) for the next ones).`,
    );
  }
  if (out.changes !== undefined && out.row_count === 0) parts.push(`${out.changes} row(s) changed.`);
  else parts.push(`${out.row_count} row(s)${out.truncated ? ', more follow: call again with the same query and cursor ' + out.nextCursor : ''}.`);
  return parts.join('\n\n');
}

export function encodeQueryCursor(ctx: BaseContext, page: EnginePage): string | undefined {
  return page.more && page.cursor ? ctx.cursor.encode(JSON.stringify({ s: page.at.slot, g: page.at.generation, c: page.cursor })) : undefined;
}

export function decodeQueryCursor(ctx: BaseContext, cursor: string): { at: EngineSlot; id: string } {
  const raw = ctx.cursor.decode(cursor);
  try {
    const { s, g, c } = JSON.parse(raw) as { s: number; g: number; c: string };
    if (typeof s === 'number' && typeof g === 'number' && typeof c === 'string') return { at: { slot: s, generation: g }, id: c };
  } catch {
    // falls through
  }
  throw new SqlError(`Invalid cursor "${cursor.slice(0, 40)}": use the nextCursor of the previous call, or omit cursor to start over.`);
}

/**
 * The tool result of one page. A page the engine sent as text goes out as that text
 * (RawJson, written into the message by the stdio transport): the 10,000 rows of a page
 * are serialized once, in the engine process, not parsed here only to be serialized again.
 */
export function queryResult(ctx: ToolContext<QueryOutput> & SqliteContext, page: EnginePage): ToolResult {
  const nextCursor = encodeQueryCursor(ctx, page);
  const rows = page.rowsJson === undefined ? (page.rows ?? []) : (new RawJson(page.rowsJson, page.head) as unknown as unknown[][]);
  const out: QueryOutput = {
    columns: page.columns,
    rows,
    row_count: rowCount(page),
    truncated: page.more,
    ...(nextCursor ? { nextCursor } : {}),
    tables: page.tables,
    ...(page.changes !== undefined ? { changes: page.changes } : {}),
    ...(page.lastInsertRowid !== undefined ? { last_insert_rowid: page.lastInsertRowid } : {}),
    ...(page.cuts?.length ? { cells_cut: page.cuts.map(([row, column, length]) => ({ row, column: page.columns[column]?.name ?? String(column), length })) } : {}),
  };
  return ctx.result(out, page.tables.map((name) => ctx.link(tableUri(name), { name, mimeType: 'application/json' })));
}

/** Rows in an engine page, parsed or as text. */
export function rowCount(page: EnginePage): number {
  return page.count ?? page.rows?.length ?? 0;
}
