// The engine's cursors and the page it reads ahead: while a page is handled, the child
// reads the cursor's next one under the time limit. Pages must come whole and in order,
// only to the session that owns the cursor, and a cursor left unused must end, never skip.
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { makeSqliteDb, type SqliteFixture } from '@mcp-reference/test-harness';
import { createEngine, engineFor, type Engine, type EngineSlot } from './engine.js';

interface Page {
  rows: unknown[][];
  more: boolean;
  cursor?: string;
  at: EngineSlot;
}

const ELEVEN = 'CREATE TABLE n (i INTEGER PRIMARY KEY); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 11) INSERT INTO n SELECT x FROM c;';

describe('a call cancelled while its engine process starts', () => {
  let db: SqliteFixture | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    await db?.cleanup();
  });

  it('is answered with the cancellation, and the engine serves the next call', async () => {
    // The child, killed while the call was on its way to it, was then sent the call anyway:
    // a TypeError, unhandled, which ends a Node 20 process.
    db = await makeSqliteDb(ELEVEN);
    engine = createEngine({ dbPath: db.file, write: false, timeoutMs: 10_000, limits: { rows: 100, bytes: 1e6, cellBytes: 1000 }, processes: 1 });
    const a = engineFor(engine, 'session-a');
    // Cancelled at once (in the same turn: a shared read whose last caller leaves), with its
    // child ready or still starting, and later.
    expect((await a.call<Page>('query', { sql: 'SELECT 1', mode: 'read' })).rows).toEqual([[1]]);
    const unhandled: unknown[] = [];
    const hear = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', hear);
    onTestFinished(() => void process.off('unhandledRejection', hear));
    for (const wait of [-1, -1, 0, 5, 20, 60]) {
      const controller = new AbortController();
      const call = a.call<Page>('query', { sql: 'SELECT i FROM n', mode: 'read' }, { signal: controller.signal });
      if (wait >= 0) await new Promise((resolve) => setTimeout(resolve, wait));
      controller.abort(new Error('cancelled by the client'));
      await call.then(
        (page) => expect(page.rows).toHaveLength(11),
        (error: Error) => expect(error.message).toBe('cancelled by the client'),
      );
    }
    expect((await a.call<Page>('query', { sql: 'SELECT count(*) FROM n', mode: 'read' })).rows).toEqual([[11]]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });
});

describe('cursors and pages read ahead', () => {
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

  it('left unused past the idle time end, instead of going on', async () => {
    const a = await start(200);
    const first = await a.call<Page>('query', { sql: 'SELECT i FROM n', mode: 'read' });
    const second = await a.call<Page>('next', { cursor: first.cursor }, { at: first.at });
    expect(second.rows).toEqual([[3], [4]]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await expect(a.call<Page>('next', { cursor: second.cursor }, { at: second.at })).rejects.toThrow(/expired/);
  });

  it('a page read ahead that never ends is stopped at the time limit, and the cursor says so', async () => {
    const a = await start(30_000, 500);
    // Rows 1-8 come at once, then the query runs on forever looking for a ninth: a page
    // read ahead never ends. The rows that came are the first ones, in order.
    const sql = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x < 9 OR x < 0';
    let page = await a.call<Page>('query', { sql, mode: 'read' });
    const rows = [...page.rows];
    let stopped: unknown;
    while (!stopped) {
      try {
        page = await a.call<Page>('next', { cursor: page.cursor }, { at: page.at });
        rows.push(...page.rows);
      } catch (error) {
        stopped = error;
      }
    }
    expect(String(stopped)).toMatch(/longer than 500 ms/);
    expect(rows.flat()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].slice(0, rows.length));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect((await a.call<Page>('query', { sql: 'SELECT 42', mode: 'read' })).rows).toEqual([[42]]);
  });

  it('are read only once the client pages on: a first page left alone costs nothing more', async () => {
    const a = await start(30_000, 300);
    // The second page of this query never ends: read ahead, it would run the engine
    // process into its time limit, which kills it (a new process, a new generation).
    const sql = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x < 5 OR x < 0';
    const endless = await a.call<Page>('query', { sql, mode: 'read' });
    expect(endless.rows).toEqual([[1], [2]]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const after = await a.call<Page>('query', { sql: 'SELECT count(*) FROM n', mode: 'read' });
    expect(after.at).toEqual(endless.at);
    // Asked for, the page runs into the time limit like any statement.
    await expect(a.call<Page>('next', { cursor: endless.cursor }, { at: endless.at })).rejects.toThrow(/longer than 300 ms/);
  });

  it('a statement that fails partway fails the call that asks for that page, whether it was read ahead or not; the rows before it came whole', async () => {
    const a = await start();
    // Row 6 overflows (abs of the smallest integer): pages of two rows, so the third page,
    // read ahead after the second is sent, is the one that meets it.
    const sql = 'SELECT i, CASE WHEN i = 6 THEN abs(-9223372036854775808) ELSE i * 10 END FROM n';
    for (const head of [undefined, 1]) {
      let page = await a.call<Page & { rowsJson?: Uint8Array }>('query', { sql, mode: 'read', head });
      const rows: unknown[][] = [];
      const take = (p: Page & { rowsJson?: Uint8Array }) => rows.push(...(p.rowsJson ? (JSON.parse(Buffer.from(p.rowsJson).toString('utf8')) as unknown[][]) : p.rows));
      take(page);
      page = await a.call<Page & { rowsJson?: Uint8Array }>('next', { cursor: page.cursor }, { at: page.at });
      take(page);
      expect(rows).toEqual([[1, 10], [2, 20], [3, 30], [4, 40]]);
      await expect(a.call<Page>('next', { cursor: page.cursor }, { at: page.at })).rejects.toThrow(/integer overflow/);
      // The failed cursor is gone; the engine serves the next statement.
      await expect(a.call<Page>('next', { cursor: page.cursor }, { at: page.at })).rejects.toThrow(/expired/);
      expect((await a.call<Page>('query', { sql: 'SELECT count(*) FROM n', mode: 'read' })).rows).toEqual([[11]]);
    }
  });

  it('pages sent as JSON text, read ahead in steps, come whole: every row exact, cut cells numbered in their page', async () => {
    // 9,000 rows and pages of 2,500: the third and fourth pages are read ahead, in steps of
    // 1,000 rows. Integers past 2^53 come as text, and one long cell (row 6,600) is cut.
    db = await makeSqliteDb(
      "CREATE TABLE t (i INTEGER PRIMARY KEY, big INTEGER, r REAL, s TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 9000) " +
        "INSERT INTO t SELECT x, x * 1000000000000007, x / 7.0, CASE WHEN x = 6600 THEN printf('%.3000c', 'z') ELSE 'é ' || x END FROM c;",
    );
    engine = createEngine({ dbPath: db.file, write: false, timeoutMs: 10_000, limits: { rows: 2500, bytes: 1e9, cellBytes: 1000 }, processes: 1 });
    const a = engineFor(engine, 'session-a');
    type TextPage = { rowsJson: Uint8Array; head: unknown[][]; count: number; more: boolean; cursor?: string; cuts: number[][]; at: EngineSlot };
    let page = await a.call<TextPage>('query', { sql: 'SELECT * FROM t', mode: 'read', head: 3 });
    const pages = [page];
    while (page.more) pages.push((page = await a.call<TextPage>('next', { cursor: page.cursor }, { at: page.at })));
    expect(pages.map((p) => p.count)).toEqual([2500, 2500, 2500, 1500]);
    const rows = pages.flatMap((p) => {
      const parsed = JSON.parse(Buffer.from(p.rowsJson).toString('utf8')) as unknown[][];
      expect(parsed).toHaveLength(p.count);
      expect(p.head).toEqual(parsed.slice(0, 3));
      return parsed;
    });
    const reader = new (await import('better-sqlite3')).default(db.file, { readonly: true });
    const expected = (reader.prepare('SELECT * FROM t').raw(true).safeIntegers(true).all() as unknown[][]).map((row) =>
      row.map((v) => (typeof v === 'bigint' ? (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : typeof v === 'string' && v.length > 1000 ? `${v.slice(0, 1000)}… [truncated: ${v.length} characters in all]` : v)),
    );
    reader.close();
    expect(rows).toEqual(expected);
    // Row 6,600 is the 1,600th of the third page (0-based 1,599), taken in its second step.
    expect(pages.map((p) => p.cuts)).toEqual([[], [], [[1599, 3, 3000]], []]);
  });
});

