// ui://sqlite/results in a real Chromium behind the double-iframe sandbox, driven by the
// built mcp-server-sqlite over stdio (so the HTML tested is the one the bin serves).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStdio, type Connection } from '@mcp-reference/shared/client';
import { makeSqliteDb, type SqliteFixture } from '../src/fixtures/sqlite-db.js';
import { APPS_CLIENT, compareWithGolden, openView, startAppsHost, type AppsHost, type ViewSession } from './harness.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../servers/sqlite/dist/cli.js');
const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=2</script>',
  '<a href="javascript:window.__pwned=3">click</a>',
  '<svg onload="window.__pwned=4"></svg>',
];
const SQL = `CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, note TEXT, data BLOB);
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 250)
  INSERT INTO items SELECT i, 'item ' || printf('%03d', i), (i * 7919) % 1000 / 10.0,
    CASE WHEN i % 5 = 0 THEN NULL ELSE 'note ' || i END, CASE WHEN i % 3 = 0 THEN x'deadbeef' END FROM c;
  ${HOSTILE.map((html, i) => `UPDATE items SET note = '${html.replace(/'/g, "''")}' WHERE id = ${i + 1};`).join('\n')}`;
const QUERY = 'SELECT id, name, price, note, data FROM items';

describe('sqlite results view in Chromium', () => {
  let host: AppsHost;
  let db: SqliteFixture;
  let connection: Connection;
  let session: ViewSession;

  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
    db = await makeSqliteDb(SQL);
    [host, connection] = await Promise.all([startAppsHost(), connectStdio('node', [bin, '--db-path', db.file], APPS_CLIENT)]);
    console.log(`chromium launched in ${host.launchMs.toFixed(0)} ms`);
    session = await openView(host, connection, { tool: 'read_query', arguments: { query: QUERY } });
    console.log(`sqlite results: first paint of data ${session.paintMs.toFixed(1)} ms after the tool result`);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await host?.close();
    await connection?.close();
    await db?.cleanup();
  });

  const cells = (row: number) => session.view.locator(`tbody tr:nth-child(${row}) td`).allTextContents();
  const column = async (index: number) =>
    (await session.view.locator(`tbody tr td:nth-child(${index})`).allTextContents()).map((text) => text);

  it('renders the first page: row count, header order, typed cells, hostile HTML as text', async () => {
    await expect.poll(() => session.view.locator('#count').textContent()).toBe('rows 1–100 of 250');
    expect(await session.view.locator('tbody tr').count()).toBe(100);
    expect(await session.view.locator('thead th button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-column')))).toEqual([
      'id',
      'name',
      'price',
      'note',
      'data',
    ]);
    expect(await cells(1)).toEqual(['1', 'item 001', '91.9', HOSTILE[0], 'NULL']);
    expect(await cells(3)).toEqual(['3', 'item 003', '75.7', HOSTILE[2], 'BLOB 4 bytes']);
    expect(await cells(5)).toEqual(['5', 'item 005', '59.5', 'NULL', 'NULL']);
    expect(await session.view.locator('tbody tr:nth-child(1) td:nth-child(3)').getAttribute('class')).toBe('num');
    // The hostile cells are text: no element came from them, nothing ran.
    expect(await session.view.locator('tbody img, tbody script, tbody svg, tbody a').count()).toBe(0);
    expect(await session.pwned()).toBeUndefined();
  });

  it('sorts through sqlite_results_page: header order after a click, rows equal to the tool output', async () => {
    await session.view.locator('thead th button[data-column="price"]').click();
    await expect.poll(() => session.view.locator('thead th button[data-column="price"]').textContent()).toContain('▲');
    const handle = (session.toolResult._meta as Record<string, string>)['io.github.mcp-reference/view-handle'];
    const sorted = (await connection.client.callTool({
      name: 'sqlite_results_page',
      arguments: { handle, offset: 0, limit: 100, sort: { column: 'price', dir: 'asc' } },
    })) as unknown as { structuredContent: { rows: unknown[][] } };
    expect((await column(1)).slice(0, 100)).toEqual(sorted.structuredContent.rows.map((row) => String(row[0])));
    const prices = (await column(3)).map(Number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    await session.view.locator('thead th button[data-column="price"]').click();
    await expect.poll(() => session.view.locator('thead th button[data-column="price"]').textContent()).toContain('▼');
    const descending = (await column(3)).map(Number);
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
  });

  it('pages: page 2 rows equal the sqlite_results_page output; the view holds one page', async () => {
    await session.view.locator('thead th button[data-column="id"]').click();
    await expect.poll(() => session.view.locator('thead th button[data-column="id"]').textContent()).toContain('▲');
    await session.view.locator('#next').click();
    await expect.poll(() => session.view.locator('#count').textContent()).toBe('rows 101–200 of 250');
    const handle = (session.toolResult._meta as Record<string, string>)['io.github.mcp-reference/view-handle'];
    const page2 = (await connection.client.callTool({
      name: 'sqlite_results_page',
      arguments: { handle, offset: 100, limit: 100, sort: { column: 'id', dir: 'asc' } },
    })) as unknown as { structuredContent: { rows: unknown[][] } };
    const shown = await session.view.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((td) => td.textContent)));
    expect(shown).toHaveLength(100);
    expect(shown.map((row) => row[0])).toEqual(page2.structuredContent.rows.map((row) => String(row[0])));
    await session.view.locator('#next').click();
    await expect.poll(() => session.view.locator('#count').textContent()).toBe('rows 201–250 of 250');
    expect(await session.view.locator('#next').isDisabled()).toBe(true);
    await session.view.locator('#prev').click();
    await session.view.locator('#prev').click();
    await expect.poll(() => session.view.locator('#count').textContent()).toBe('rows 1–100 of 250');
  });

  it('copies the page as CSV, or shows it selected when the clipboard is not granted', async () => {
    await session.view.locator('#copy').click();
    await expect.poll(() => session.view.locator('#status').textContent()).toMatch(/Copied 100 rows|copy it with Ctrl\+C/);
    const area = session.view.locator('textarea.csv');
    if (await area.count()) {
      const csv = await area.inputValue();
      // A textarea's value has \n line breaks, whatever the CSV had.
      expect(csv.split('\n')[0]).toBe('id,name,price,note,data');
      expect(csv.split('\n')).toHaveLength(102);
    }
  });

  it('the host refuses a view\'s call to a tool that is not available to apps', async () => {
    const inner = session.page.frames().find((f) => f.parentFrame()?.parentFrame() === session.page.mainFrame())!;
    const answer = await inner.evaluate(
      () =>
        new Promise<unknown>((resolve) => {
          const view = globalThis as unknown as {
            addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
            parent: { postMessage(message: unknown, target: string): void };
          };
          view.addEventListener('message', (event) => {
            if ((event.data as { id?: number })?.id === 9999) resolve(event.data);
          });
          view.parent.postMessage({ jsonrpc: '2.0', id: 9999, method: 'tools/call', params: { name: 'write_query', arguments: { query: 'DELETE FROM items' } } }, '*');
        }),
    );
    expect(JSON.stringify(answer)).toMatch(/not available to apps/);
    expect(await session.refusedCalls()).toEqual(['write_query']);
    const count = (await connection.client.callTool({ name: 'read_query', arguments: { query: 'SELECT count(*) FROM items' } })) as unknown as {
      structuredContent: { rows: number[][] };
    };
    expect(count.structuredContent.rows[0][0]).toBe(250);
  });

  it('matches the golden screenshot (light), with no console error, CSP violation or outbound request', async () => {
    const fresh = await openView(host, connection, { tool: 'read_query', arguments: { query: `${QUERY} WHERE id <= 12` } });
    try {
      await expect.poll(() => fresh.view.locator('#count').textContent()).toBe('rows 1–12 of 12');
      const { ratio } = await compareWithGolden(await fresh.frame.screenshot({ animations: 'disabled' }), 'sqlite-results-light');
      console.log(`sqlite results golden: ${(ratio * 100).toFixed(2)}% of pixels differ`);
      expect(fresh.consoleErrors).toEqual([]);
      expect(await fresh.violations()).toEqual([]);
      expect(fresh.outbound).toEqual([]);
      expect(await fresh.pwned()).toBeUndefined();
    } finally {
      await fresh.close();
    }
    expect(session.consoleErrors).toEqual([]);
    expect(await session.violations()).toEqual([]);
    expect(session.outbound).toEqual([]);
    expect(await session.refusedCalls()).toEqual(['write_query']);
  });

  it('follows the host theme (dark golden)', async () => {
    const dark = await openView(host, connection, { tool: 'read_query', arguments: { query: `${QUERY} WHERE id <= 12` }, theme: 'dark' });
    try {
      await expect.poll(() => dark.view.locator('html').getAttribute('data-theme')).toBe('dark');
      await compareWithGolden(await dark.frame.screenshot({ animations: 'disabled' }), 'sqlite-results-dark');
      expect(dark.consoleErrors).toEqual([]);
    } finally {
      await dark.close();
    }
  });
});
