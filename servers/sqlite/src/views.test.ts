import { describe, it, expect, afterEach } from 'vitest';
import { readFile } from 'node:fs/promises';
import { UI_EXTENSION_ID, VIEW_HANDLE_META, VIEW_MIME_TYPE } from '@mcp-reference/shared';
import type { SqliteFixture } from '@mcp-reference/test-harness';
import { open, shopDb, type Session } from './test-support.js';

const APPS = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } } };
const MANY = `CREATE TABLE n (id INTEGER PRIMARY KEY, v INTEGER, label TEXT);
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 250)
  INSERT INTO n (id, v, label) SELECT i, (i * 37) % 250, 'row ' || i FROM c;
  CREATE INDEX n_v ON n(v);`;

describe('results view (MCP Apps)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function start(sql: string, apps = true, era: 'legacy' | 'modern' = 'legacy'): Promise<{ db: SqliteFixture; session: Session }> {
    const db = await shopDb(sql);
    const session = await open({ dbPath: db.file }, { era, ...(apps ? APPS : {}) });
    cleanups.push(() => db.cleanup(), () => session.close());
    return { db, session };
  }
  const handleOf = async (session: Session, query: string, params?: unknown) => {
    const result = await session.client.callTool({ name: 'read_query', arguments: { query, ...(params ? { params } : {}) } });
    return (result._meta as Record<string, string> | undefined)?.[VIEW_HANDLE_META];
  };

  it('read_query names the view; sqlite_results_page is listed to Apps clients only', async () => {
    const { session: apps } = await start(MANY);
    const { session: plain } = await start(MANY, false);
    const appTools = (await apps.client.listTools()).tools;
    expect(appTools.find((t) => t.name === 'read_query')?._meta).toEqual({ ui: { resourceUri: 'ui://sqlite/results' } });
    expect(appTools.find((t) => t.name === 'sqlite_results_page')?._meta).toEqual({ ui: { visibility: ['app'] } });
    const plainTools = (await plain.client.listTools()).tools;
    expect(plainTools.map((t) => t.name)).not.toContain('sqlite_results_page');
    expect(plainTools.every((t) => t._meta === undefined)).toBe(true);
    const read = await plain.client.callTool({ name: 'read_query', arguments: { query: 'SELECT id FROM n LIMIT 2' } });
    expect(read._meta).toBeUndefined();
  });

  it('on 2026-07-28 too: the capabilities of each request decide, and the pager pages with the handle', async () => {
    const { session: apps } = await start(MANY, true, 'modern');
    const { session: plain } = await start(MANY, false, 'modern');
    const appTools = (await apps.client.listTools()).tools;
    expect(appTools.find((t) => t.name === 'read_query')?._meta).toEqual({ ui: { resourceUri: 'ui://sqlite/results' } });
    expect(appTools.map((t) => t.name)).toContain('sqlite_results_page');
    const plainTools = (await plain.client.listTools()).tools;
    expect(plainTools.map((t) => t.name)).not.toContain('sqlite_results_page');
    expect(plainTools.every((t) => t._meta === undefined)).toBe(true);
    expect(await handleOf(plain, 'SELECT id FROM n')).toBeUndefined();
    const handle = await handleOf(apps, 'SELECT id FROM n WHERE id > ?', [240]);
    const page = await apps.ok('sqlite_results_page', { handle, offset: 5, limit: 10 });
    expect(page.total).toBe(10);
    expect(page.rows.map((r: unknown[]) => r[0])).toEqual([246, 247, 248, 249, 250]);
  });

  it('the view is one HTML document under 1 MB with no external URL, asking for clipboardWrite', async () => {
    const { session } = await start(MANY);
    const { contents } = await session.client.readResource({ uri: 'ui://sqlite/results' });
    expect(contents).toHaveLength(1);
    const [item] = contents as { mimeType: string; text: string; _meta: unknown }[];
    expect(item.mimeType).toBe(VIEW_MIME_TYPE);
    expect(item._meta).toEqual({ ui: { permissions: { clipboardWrite: {} } } });
    expect(Buffer.byteLength(item.text)).toBeLessThan(1024 * 1024);
    expect(item.text).toMatch(/^<!doctype html>/);
    expect(item.text).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
  });

  it('pages and sorts by a column of the result, counting every row', async () => {
    const { session } = await start(MANY);
    const handle = await handleOf(session, 'SELECT id, v, label FROM n WHERE id > ?', [0]);
    const page2 = await session.ok('sqlite_results_page', { handle, offset: 100, limit: 100 });
    expect(page2.total).toBe(250);
    expect(page2.offset).toBe(100);
    expect(page2.rows.map((r: unknown[]) => r[0])).toEqual(Array.from({ length: 100 }, (_, i) => 101 + i));
    const sorted = await session.ok('sqlite_results_page', { handle, offset: 0, limit: 5, sort: { column: 'v', dir: 'desc' } });
    expect(sorted.rows.map((r: unknown[]) => r[1])).toEqual([249, 248, 247, 246, 245]);
    expect(sorted.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'v', 'label']);
  });

  it('refuses a sort column that is not in the result, and a handle of another database', async () => {
    const { session } = await start(MANY);
    const { session: other } = await start(MANY);
    const handle = await handleOf(session, 'SELECT id FROM n');
    expect(await session.refused('sqlite_results_page', { handle, offset: 0, sort: { column: 'v', dir: 'asc' } })).toMatch(/no column "v"/);
    expect(
      await session.refused('sqlite_results_page', { handle, offset: 0, sort: { column: 'id" DESC; --', dir: 'asc' } }),
    ).toMatch(/no column/);
    expect(await other.refused('sqlite_results_page', { handle, offset: 0 })).toMatch(/not minted by this server/);
  });

  it('the page re-runs the query read-only: a forged handle cannot write, the file stays byte-identical', async () => {
    const { db, session } = await start(MANY);
    const before = await readFile(db.file);
    const refused = await session.refused('sqlite_results_page', {
      handle: Buffer.from(JSON.stringify({ l: 'view-handle', k: JSON.stringify(['read_query', { query: 'DELETE FROM n' }]) })).toString('base64url') + '.x',
      offset: 0,
    });
    expect(refused).toMatch(/not minted/);
    // A sealed query that tries to smuggle a second statement through the wrapper.
    const handle = await handleOf(session, 'SELECT id FROM n');
    expect(handle).toBeDefined();
    const smuggle = await handleOf(session, 'SELECT 1) ; DELETE FROM n; --');
    expect(smuggle).toBeUndefined();
    expect(await readFile(db.file)).toEqual(before);
  });
});
