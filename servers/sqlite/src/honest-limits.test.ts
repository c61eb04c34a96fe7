// Issue 26 items 17-19 and issue 21 item 14 (cursors): limits that hold per call, answers
// that say what happened (cut cells, another process's lock, a database file replaced),
// and cursors that belong to the session that made them.
import { rename, rm, copyFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, isWellFormedText, makeSqliteDb, type SqliteFixture } from '@mcp-reference/test-harness';
import { open, shopDb, textOf, type QueryOut, type Session } from './test-support.js';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

describe('the time limit counts per call, and one session cannot starve the others', () => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await shopDb();
    s = await open({ dbPath: db.file, timeoutMs: 2000, processes: 3 });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  it("another session's query is answered while five runaways of one session run", async () => {
    let settled = 0;
    const runaways = Array.from({ length: 5 }, () => s.call('read_query', { query: RUNAWAY }).finally(() => settled++));
    const other = await connectInMemory(s.server);
    try {
      const quick = (await other.client.callTool({ name: 'read_query', arguments: { query: 'SELECT 42 AS answer' } })) as { structuredContent?: QueryOut };
      expect(quick.structuredContent?.rows).toEqual([[42]]);
      // Answered on a child the runaways could not take, before any of them ended.
      expect(settled).toBe(0);
    } finally {
      await other.close();
    }
    const results = await Promise.all(runaways);
    // Every runaway is answered at the time limit of its own call, queued ones included.
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/longer than 2000 ms|waited 2000 ms for a free engine process/);
    }
  });
});

describe('cells over 64 KiB', () => {
  it('says which cells were cut and how to read the rest; the text table still shows the row', async () => {
    const db = await makeSqliteDb(`CREATE TABLE doc (id INTEGER PRIMARY KEY, body TEXT);
      INSERT INTO doc VALUES (1, 'short'), (2, printf('%.*c', 200000, 'a') || 'END');`);
    const s = await open({ dbPath: db.file });
    try {
      const result = await s.call('read_query', { query: 'SELECT id, body FROM doc ORDER BY id' });
      const out = result.structuredContent as unknown as QueryOut & { cells_cut?: unknown };
      expect(out.truncated).toBe(false);
      expect(out.cells_cut).toEqual([{ row: 1, column: 'body', length: 200003 }]);
      const text = textOf(result);
      expect(text).not.toMatch(/0 of the/);
      expect(text).toMatch(/\| 2 \| a{200}… \(/);
      expect(text).toMatch(/1 cell\(s\) were cut at 65,536 characters \(row 1, column body: 200,003\)/);
      expect(text).toMatch(/substr\("body", 65537, 65536\)/);
      // The advice works: the rest is there.
      const rest = await s.ok<QueryOut>('read_query', { query: 'SELECT substr(body, 196609, 65536) FROM doc WHERE id = 2' });
      expect(String(rest.rows[0][0]).endsWith('END')).toBe(true);
      expect((await s.ok<QueryOut & { cells_cut?: unknown }>('read_query', { query: 'SELECT body FROM doc WHERE id = 1' })).cells_cut).toBeUndefined();
      // A walk with a LIMIT (answered in the server process) cuts the same cell the same way.
      const walk = (await s.ok<QueryOut & { cells_cut?: unknown }>('read_query', { query: 'SELECT id, body FROM doc ORDER BY id LIMIT 2' }));
      expect(walk.cells_cut).toEqual([{ row: 1, column: 'body', length: 200003 }]);
      expect(String(walk.rows[1][1])).toMatch(/^a{65536}… \[truncated: 200003 characters in all\]$/);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});

describe('cells over 64 KiB of characters above U+FFFF', () => {
  it('are cut after 65,536 characters as SQL counts them, so that substr() reads on exactly there', async () => {
    // 'a', 100,000 emoji (two UTF-16 units each, one character to SQLite), 'END'.
    const db = await makeSqliteDb(`CREATE TABLE doc (id INTEGER PRIMARY KEY, body TEXT);
      INSERT INTO doc VALUES (1, 'a' || replace(printf('%.*c', 100000, 'x'), 'x', '😀') || 'END');`);
    const whole = 'a' + '😀'.repeat(100_000) + 'END';
    const s = await open({ dbPath: db.file });
    try {
      for (const query of ['SELECT body FROM doc', 'SELECT body FROM doc LIMIT 1']) {
        const out = await s.ok<QueryOut & { cells_cut?: Array<{ length: number }> }>('read_query', { query });
        expect(out.cells_cut).toEqual([{ row: 0, column: 'body', length: 100_004 }]);
        const cut = String(out.rows[0][0]);
        // The text table's preview counts the cell as SQL does too, not in UTF-16 units.
        expect(textOf(await s.call('read_query', { query }))).toContain(`(${[...cut].length.toLocaleString('en')} characters in structuredContent)`);
        expect(isWellFormedText(cut)).toBe(true);
        const kept = cut.slice(0, cut.indexOf('… [truncated: 100004 characters in all]'));
        expect([...kept]).toHaveLength(65_536);
        // Reading on as the answer says gives the rest, nothing skipped or repeated.
        let rebuilt = kept;
        for (let start = 65_537; start <= 100_004; start += 65_536) {
          rebuilt += String((await s.ok<QueryOut>('read_query', { query: `SELECT substr(body, ${start}, 65536) FROM doc` })).rows[0][0]);
        }
        expect(rebuilt).toBe(whole);
      }
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT length(body) FROM doc' })).rows[0][0]).toBe(100_004);
      // 40,000 emoji are 80,000 units but 40,000 characters: not cut.
      const fits = await s.ok<QueryOut & { cells_cut?: unknown }>('read_query', { query: "SELECT replace(printf('%.*c', 40000, 'x'), 'x', '😀')" });
      expect(fits.cells_cut).toBeUndefined();
      expect(fits.rows[0][0]).toBe('😀'.repeat(40_000));
      expect(textOf(await s.call('read_query', { query: "SELECT replace(printf('%.*c', 40000, 'x'), 'x', '😀')" }))).toContain('(40,000 characters in structuredContent)');
      // 150 emoji are 300 units but 150 characters: shown whole.
      expect(textOf(await s.call('read_query', { query: "SELECT replace(printf('%.*c', 150, 'x'), 'x', '😀')" }))).toContain('😀'.repeat(150));
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});

describe("another process's lock", () => {
  it('is named when a statement waited for it until the time limit', async () => {
    const db = await shopDb();
    const s = await open({ dbPath: db.file, write: true, timeoutMs: 600 });
    const other = new Database(db.file);
    try {
      other.exec('BEGIN EXCLUSIVE');
      expect(await s.refused('read_query', { query: 'SELECT count(*) FROM users' })).toMatch(/locked by another process/);
      expect(await s.refused('write_query', { query: "INSERT INTO users (name) VALUES ('x')" })).toMatch(/locked by another process/);
      other.exec('ROLLBACK');
      other.exec('BEGIN IMMEDIATE');
      expect(await s.refused('write_query', { query: "INSERT INTO users (name) VALUES ('y')" })).toMatch(/locked by another process \(it holds the write lock\)/);
      other.exec('ROLLBACK');
      // A query that is simply long still gets the time-limit answer.
      expect(await s.refused('read_query', { query: RUNAWAY })).toMatch(/longer than 600 ms/);
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM users' })).rows).toEqual([[3]]);
    } finally {
      other.close();
      await s.close();
      await db.cleanup();
    }
  });
});

describe('a database file deleted or replaced under the server', () => {
  it('is reopened when replaced, and reported when deleted', async () => {
    const db = await shopDb();
    const replacement = await makeSqliteDb("CREATE TABLE fresh (a); INSERT INTO fresh VALUES ('new file');");
    const s = await open({ dbPath: db.file });
    try {
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM users' })).rows).toEqual([[3]]);
      await copyFile(replacement.file, `${db.file}.new`);
      await rename(`${db.file}.new`, db.file);
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT a FROM fresh' })).rows).toEqual([['new file']]);
      expect((await s.ok<{ tables: { name: string }[] }>('list_tables', {})).tables.map((t) => t.name)).toEqual(['fresh']);
      await rm(db.file);
      expect(await s.refused('read_query', { query: 'SELECT 1 FROM fresh' })).toMatch(/was deleted or moved while the server was running/);
      await copyFile(replacement.file, db.file);
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT a FROM fresh' })).rows).toEqual([['new file']]);
    } finally {
      await s.close();
      await db.cleanup();
      await replacement.cleanup();
    }
  });
});

describe('cursors belong to their session', () => {
  it("refuses another session's cursor, which stays usable by its own session", async () => {
    const db = await makeSqliteDb(`CREATE TABLE n (i INTEGER PRIMARY KEY);
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30) INSERT INTO n SELECT x FROM c;`);
    const s = await open({ dbPath: db.file, maxRows: 10 });
    const other = await connectInMemory(s.server);
    try {
      const first = await s.ok<QueryOut>('read_query', { query: 'SELECT i FROM n' });
      expect(first.nextCursor).toBeDefined();
      const stolen = (await other.client.callTool({ name: 'read_query', arguments: { query: 'SELECT i FROM n', cursor: first.nextCursor } })) as { isError?: boolean; content: { type: string; text?: string }[] };
      expect(stolen.isError).toBe(true);
      expect(stolen.content.map((c) => c.text).join('')).toMatch(/belongs to another session/);
      const second = await s.ok<QueryOut>('read_query', { query: 'SELECT i FROM n', cursor: first.nextCursor });
      expect(second.rows[0]).toEqual([11]);
    } finally {
      await other.close();
      await s.close();
      await db.cleanup();
    }
  });
});

describe('bounded reads answered in the server process', () => {
  it('a straight-line statement is answered while the only engine process runs a runaway; a table turned into a view is not', async () => {
    const db = await makeSqliteDb("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'two');");
    const s = await open({ dbPath: db.file, processes: 1, timeoutMs: 3000 });
    try {
      let settled = false;
      const runaway = s.call('read_query', { query: RUNAWAY }).finally(() => (settled = true));
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT 1 AS one' })).rows).toEqual([[1]]);
      const lookup = await s.ok<QueryOut>('read_query', { query: 'SELECT a FROM t WHERE id = ?', params: [2] });
      expect(lookup).toMatchObject({ rows: [['two']], tables: ['t'], truncated: false });
      expect((await s.ok<{ tables: { name: string }[] }>('list_tables', {})).tables.map((t) => t.name)).toEqual(['t']);
      expect(settled).toBe(false);
      expect((await runaway).isError).toBe(true);
      // The same text now reads a view that never ends: it goes to the engine, which stops it.
      db.exec(`DROP TABLE t; CREATE VIEW t AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id, 'v' AS a FROM c WHERE x < 0 OR x > 0;`);
      expect(await s.refused('read_query', { query: 'SELECT a FROM t WHERE id = ?', params: [2] })).toMatch(/longer than 3000 ms/);
      await expect(s.client.ping()).resolves.toBeDefined();
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});

describe('walks with a LIMIT within a page, answered in the server process', () => {
  const ROWS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300) INSERT INTO t SELECT x, 'row ' || x, x % 7 FROM c;";

  it('is answered while the only engine process runs a runaway; a LIMIT with a filter waits for the engine', async () => {
    const db = await makeSqliteDb(`CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER); CREATE INDEX t_b ON t (b); ${ROWS}`);
    const s = await open({ dbPath: db.file, processes: 1 });
    try {
      const stop = new AbortController();
      const runaway = s.call('read_query', { query: RUNAWAY }, { signal: stop.signal }).catch(() => 'cancelled');
      const walk = await s.ok<QueryOut>('read_query', { query: 'SELECT * FROM t LIMIT 200' });
      expect(walk).toMatchObject({ row_count: 200, truncated: false, tables: ['t'] });
      expect(walk.rows[199]).toEqual([200, 'row 200', 200 % 7]);
      const byIndex = await s.ok<QueryOut>('read_query', { query: 'SELECT id FROM t WHERE b BETWEEN 3 AND 3 ORDER BY b LIMIT 4' });
      expect(byIndex.rows).toEqual([[3], [10], [17], [24]]);
      // A filter can skip any number of rows per row returned: that one is the engine's,
      // answered only once the runaway has given the engine process back.
      let stopped = false;
      const filtered = s.ok<QueryOut>('read_query', { query: "SELECT id FROM t WHERE a = 'row 9' LIMIT 1" }).then((out) => ({ out, stopped }));
      await s.client.ping();
      stopped = true;
      stop.abort();
      expect(await filtered).toEqual({ out: expect.objectContaining({ rows: [[9]] }), stopped: true });
      await runaway;
    } finally {
      await s.close();
      await db.cleanup();
    }
  });

  it('hands a result over the page budget to the engine, which pages it; integers past 2^53 keep every digit', async () => {
    const db = await makeSqliteDb(`CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER); ${ROWS}
      CREATE TABLE big (n INTEGER); INSERT INTO big VALUES (1), (1152921504606846977);`);
    const s = await open({ dbPath: db.file, maxPageBytes: 2000 });
    try {
      const first = await s.ok<QueryOut>('read_query', { query: 'SELECT * FROM t LIMIT 250' });
      expect(first.truncated).toBe(true);
      const rows = [...first.rows];
      for (let cursor = first.nextCursor; cursor; ) {
        const page = await s.ok<QueryOut>('read_query', { query: 'SELECT * FROM t LIMIT 250', cursor });
        rows.push(...page.rows);
        cursor = page.nextCursor;
      }
      expect(rows.map((row) => row[0])).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT n FROM big LIMIT 2' })).rows).toEqual([[1], ['1152921504606846977']]);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});
