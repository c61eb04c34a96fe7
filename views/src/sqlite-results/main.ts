// ui://sqlite/results: the rows of read_query as a sortable, pageable table. The view holds
// one page (100 rows); other pages and sorts come from the app-only tool
// sqlite_results_page, which re-runs the same read-only query with the handle the server
// sealed into the result.
import '../common/jitless.js';
import { createApp, start, textOf, VIEW_HANDLE_META, type ToolResultLike } from '../common/connect.js';
import { append, clear, h } from '../common/dom.js';
import { toCsv } from './csv.js';

const PAGE = 100;
const PAGE_TOOL = 'sqlite_results_page';

interface Column {
  name: string;
  type: string | null;
}
interface Sort {
  column: string;
  dir: 'asc' | 'desc';
}
interface State {
  handle?: string;
  columns: Column[];
  rows: unknown[][];
  offset: number;
  total?: number;
  sort?: Sort;
  busy: boolean;
  status?: { text: string; error?: boolean };
  csv?: string;
}

const root = document.getElementById('app')!;
const state: State = { columns: [], rows: [], offset: 0, busy: false };
const app = createApp('sqlite-results');

const BLOB = /^x'[0-9a-f]*(…)?'(?: \[truncated: (\d+) bytes in all\])?$/;

function cell(value: unknown, column: Column): HTMLTableCellElement {
  if (value === null || value === undefined) return h('td', {}, h('span', { class: 'null' }, 'NULL'));
  if (typeof value === 'number') return h('td', { class: 'num' }, String(value));
  if (typeof value === 'string') {
    const blob = BLOB.exec(value);
    if (blob && (column.type === null || /BLOB/i.test(column.type))) {
      const bytes = blob[2] ? Number(blob[2]) : (value.length - 3) / 2;
      return h('td', { title: value.slice(0, 200) }, h('span', { class: 'blob' }, `BLOB ${bytes} byte${bytes === 1 ? '' : 's'}`));
    }
    if (column.type && /INT|REAL|FLOA|DOUB|NUM|DEC/i.test(column.type) && /^-?\d+$/.test(value)) {
      return h('td', { class: 'num' }, value);
    }
  }
  return h('td', {}, typeof value === 'string' ? value : JSON.stringify(value));
}

function countText(): string {
  const { offset, rows, total } = state;
  if (!rows.length) return total === 0 || total === undefined ? 'No rows' : `No rows at ${offset + 1} of ${total}`;
  const range = `rows ${offset + 1}–${offset + rows.length}`;
  return total === undefined ? `${range} (counting…)` : `${range} of ${total}`;
}

function render(): void {
  const { columns, rows, offset, total, sort, busy, handle } = state;
  const canPage = Boolean(handle);
  const header = columns.map((column) => {
    const arrow = sort?.column === column.name ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : '';
    const button = h('button', { type: 'button', 'data-column': column.name, disabled: busy }, column.name, arrow, column.type ? h('span', { class: 'type' }, column.type) : null);
    button.addEventListener('click', () => void sortBy(column.name));
    return h('th', {}, button);
  });
  const body = rows.map((row) => h('tr', {}, ...columns.map((column, index) => cell(row[index], column))));
  const prev = h('button', { type: 'button', id: 'prev', disabled: busy || !canPage || offset === 0 }, '‹ Prev');
  const next = h('button', { type: 'button', id: 'next', disabled: busy || !canPage || total === undefined || offset + rows.length >= total }, 'Next ›');
  const copy = h('button', { type: 'button', id: 'copy', disabled: !rows.length }, 'Copy page as CSV');
  prev.addEventListener('click', () => void load(Math.max(0, offset - PAGE)));
  next.addEventListener('click', () => void load(offset + PAGE));
  copy.addEventListener('click', () => void copyCsv());
  clear(root);
  append(root, [
    h(
      'div',
      { class: 'bar' },
      h('span', { id: 'count' }, countText()),
      h('span', { class: 'grow' }),
      state.status ? h('span', { id: 'status', class: state.status.error ? 'error' : 'muted' }, state.status.text) : null,
      prev,
      next,
      copy,
    ),
    state.csv !== undefined ? h('textarea', { class: 'csv', readonly: true, 'aria-label': 'CSV of this page' }, state.csv) : null,
    h('div', { class: 'wrap' }, h('table', {}, h('thead', {}, h('tr', {}, ...header)), h('tbody', {}, ...body))),
  ]);
  const area = root.querySelector('textarea');
  if (area) area.select();
}

function show(result: ToolResultLike): void {
  if (result.isError || !result.structuredContent) {
    state.status = { text: textOf(result) || 'The query failed.', error: true };
    render();
    return;
  }
  const out = result.structuredContent as { columns: Column[]; rows: unknown[][]; truncated: boolean };
  const handle = result._meta?.[VIEW_HANDLE_META];
  Object.assign(state, {
    handle: typeof handle === 'string' ? handle : undefined,
    columns: out.columns,
    rows: out.rows.slice(0, PAGE),
    offset: 0,
    total: out.truncated ? undefined : out.rows.length,
    sort: undefined,
    status: undefined,
    csv: undefined,
  });
  render();
  if (state.total === undefined && state.handle) void load(0);
}

async function load(offset: number, sort = state.sort): Promise<void> {
  if (!state.handle) return;
  state.busy = true;
  render();
  try {
    const result = (await app.callServerTool({
      name: PAGE_TOOL,
      arguments: { handle: state.handle, offset, limit: PAGE, ...(sort ? { sort } : {}) },
    })) as ToolResultLike;
    if (result.isError || !result.structuredContent) {
      state.status = { text: textOf(result) || 'Could not load the page.', error: true };
    } else {
      const page = result.structuredContent as { columns: Column[]; rows: unknown[][]; offset: number; total: number };
      Object.assign(state, { columns: page.columns, rows: page.rows, offset: page.offset, total: page.total, sort, status: undefined, csv: undefined });
    }
  } catch (error) {
    state.status = { text: `Could not load the page: ${error instanceof Error ? error.message : String(error)}`, error: true };
  } finally {
    state.busy = false;
    render();
  }
}

async function sortBy(column: string): Promise<void> {
  const dir = state.sort?.column === column && state.sort.dir === 'asc' ? 'desc' : 'asc';
  if (state.handle) return load(0, { column, dir });
  // A result without a handle (a host that dropped _meta) sorts the page it has.
  const index = state.columns.findIndex((c) => c.name === column);
  const sign = dir === 'asc' ? 1 : -1;
  state.rows.sort((a, b) => compare(a[index], b[index]) * sign);
  state.sort = { column, dir };
  render();
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

async function copyCsv(): Promise<void> {
  const csv = toCsv(state.columns.map((c) => c.name), state.rows);
  try {
    // Works when the host granted clipboardWrite; otherwise the CSV is shown, selected.
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(csv);
    state.status = { text: `Copied ${state.rows.length} rows as CSV.` };
    state.csv = undefined;
  } catch {
    state.status = { text: 'The host does not allow the clipboard: the CSV below is selected, copy it with Ctrl+C.' };
    state.csv = csv;
  }
  render();
}

app.ontoolresult = (result) => show(result as ToolResultLike);
render();
void start(app);
