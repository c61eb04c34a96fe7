// The engine's pages ahead: the child reads a cursor's next page while the current one is
// handled and, once the client pages on, hands it to the parent, which keeps it for the
// cursor's session. Pages must come whole and in order, and a kept page that nobody asked
// for must never be skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { makeSqliteDb, type SqliteFixture } from '@mcp-reference/test-harness';
import { createEngine, engineFor, type Engine, type EngineSlot } from './engine.js';

interface Page {
  rows: unknown[][];
  more: boolean;
  cursor?: string;
  at: EngineSlot;
}

const ELEVEN = 'CREATE TABLE n (i INTEGER PRIMARY KEY); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 11) INSERT INTO n SELECT x FROM c;';

describe('pages read ahead', () => {
  let db: SqliteFixture | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    await db?.cleanup();
  });

  const start = async (cursorIdleMs = 30_000, timeoutMs = 10_000) => {
    db = await makeSqliteDb(ELEVEN);
    engine = createEngine({ dbPath: db.file, write: false, timeoutMs, limits: { rows: 2, bytes: 1e6, cellBytes: 1000 }, processes: 1, cursorIdleMs });
    return engineFor(engine, 'session-a');
  };

  it('come whole and in order, to the last row', async () => {
    const a = await start();
    let page = await a.call<Page>('query', { sql: 'SELECT i FROM n', mode: 'read' });
    const rows = [...page.rows];
    while (page.more) {
      page = await a.call<Page>('next', { cursor: page.cursor }, { at: page.at });
      rows.push(...page.rows);
    }
    expect(rows.flat()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('are not handed to another session, and stay for their own', async () => {
    const a = await start();
    const b = engineFor(engine!, 'session-b');
    const first = await a.call<Page>('query', { sql: 'SELECT i FROM n', mode: 'read' });
    const second = await a.call<Page>('next', { cursor: first.cursor }, { at: first.at });
    await expect(b.call<Page>('next', { cursor: second.cursor }, { at: second.at })).rejects.toThrow(/belongs to another session/);
    expect((await a.call<Page>('next', { cursor: second.cursor }, { at: second.at })).rows).toEqual([[5], [6]]);
  });

  it('dropped unread after the idle time end the cursor instead of skipping their rows', async () => {
    const a = await start(200);
    const first = await a.call<Page>('query', { sql: 'SELECT i FROM n', mode: 'read' });
    const second = await a.call<Page>('next', { cursor: first.cursor }, { at: first.at });
    expect(second.rows).toEqual([[3], [4]]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await expect(a.call<Page>('next', { cursor: second.cursor }, { at: second.at })).rejects.toThrow(/expired/);
  });

  it('read ahead after one was handed out are stopped at the time limit, and the cursor says so', async () => {
    const a = await start(30_000, 500);
    // Rows 1-8 come at once, then the query runs on forever looking for a ninth: the page
    // after the third, read ahead once the third was handed out, never ends.
    const sql = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x < 9 OR x < 0';
    let page = await a.call<Page>('query', { sql, mode: 'read' });
    const rows = [...page.rows];
    for (let i = 0; i < 2; i++) {
      page = await a.call<Page>('next', { cursor: page.cursor }, { at: page.at });
      rows.push(...page.rows);
    }
    expect(rows.flat()).toEqual([1, 2, 3, 4, 5, 6]);
    await expect(a.call<Page>('next', { cursor: page.cursor }, { at: page.at })).rejects.toThrow(/longer than 500 ms/);
    expect((await a.call<Page>('query', { sql: 'SELECT 42', mode: 'read' })).rows).toEqual([[42]]);
  });
});
