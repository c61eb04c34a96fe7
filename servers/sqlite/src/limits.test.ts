import { writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSqliteDb, type SqliteFixture } from '@mcp-reference/test-harness';
import { open, shopDb, snapshotDir, textOf, type QueryOut, type Session } from './test-support.js';
import { LIST_TABLES_PAGE } from './tools/list-tables.js';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

describe('time limit', () => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await shopDb();
    s = await open({ dbPath: db.file, write: true, timeoutMs: 500 });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  it('stops a runaway query, keeps answering, and leaves the database unlocked for another process', async () => {
    const before = await snapshotDir(db.dir);
    expect(await s.refused('read_query', { query: RUNAWAY })).toMatch(/longer than 500 ms/);
    expect(await snapshotDir(db.dir)).toEqual(before);
    await expect(s.client.ping()).resolves.toBeDefined();
    // Another connection (as another process would) writes at once: no lock is left behind.
    const other = new Database(db.file, { timeout: 0 });
    other.exec("INSERT INTO users (name) VALUES ('after')");
    other.close();
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM users' })).rows).toEqual([[4]]);
  });

  it('a runaway write is stopped and rolled back; the database stays consistent and writable', async () => {
    expect(await s.refused('write_query', { query: `INSERT INTO orders (user_id, total) ${RUNAWAY.replace('count(*)', 'x, x')}` })).toMatch(/longer than/);
    const other = new Database(db.file, { timeout: 0 });
    expect(other.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    expect(other.prepare('SELECT count(*) FROM orders').pluck().get()).toBe(3);
    other.exec('INSERT INTO orders (user_id, total) VALUES (2, 1)');
    other.close();
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM orders' })).rows).toEqual([[4]]);
  });

  it('cancellation stops the query too', async () => {
    const controller = new AbortController();
    const call = s.client.callTool({ name: 'read_query', arguments: { query: RUNAWAY } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toThrow();
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT 42' })).rows).toEqual([[42]]);
  });

  it('a page that never ends is stopped at the time limit, even when the engine reads it ahead of the call', async () => {
    const paged = await open({ dbPath: db.file, timeoutMs: 500, maxRows: 2 });
    try {
      // Rows 1-4 come at once, then the query runs on forever looking for a fifth.
      const query = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x < 5 OR x < 0';
      const first = await paged.ok<QueryOut>('read_query', { query });
      expect(first.rows).toEqual([[1], [2]]);
      expect(first.nextCursor).toBeDefined();
      expect(await paged.refused('read_query', { query, cursor: first.nextCursor })).toMatch(/longer than 500 ms/);
      expect((await paged.ok<QueryOut>('read_query', { query: 'SELECT 42' })).rows).toEqual([[42]]);
    } finally {
      await paged.close();
    }
  });

  it('a runaway query does not hold up other calls while another engine process is free', async () => {
    const slow = s.call('read_query', { query: RUNAWAY });
    const fast = await s.ok<QueryOut>('read_query', { query: 'SELECT name FROM users WHERE id = 1' });
    expect(fast.rows).toEqual([['ada']]);
    expect((await slow).isError).toBe(true);
  });
});

describe('row cap and pages', () => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await makeSqliteDb(`
      CREATE TABLE n (i INTEGER PRIMARY KEY, t TEXT);
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2500) INSERT INTO n SELECT x, 'row ' || x FROM c;
      CREATE TABLE big (id INTEGER PRIMARY KEY, body TEXT, data BLOB);
      INSERT INTO big VALUES (1, printf('%.*c', 50000000, 'x'), zeroblob(50000000));
    `);
    s = await open({ dbPath: db.file, maxRows: 1000 });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  it('caps a page at --max-rows with truncated: true and continues from the cursor without repeating rows', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const out: QueryOut = await s.ok<QueryOut>('read_query', { query: 'SELECT i FROM n ORDER BY i', ...(cursor ? { cursor } : {}) });
      expect(out.row_count).toBeLessThanOrEqual(1000);
      expect(out.truncated).toBe(out.nextCursor !== undefined);
      seen.push(...out.rows.map((r) => r[0] as number));
      cursor = out.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
  });

  it('refuses a cursor it did not make', async () => {
    expect(await s.refused('read_query', { query: 'SELECT 1', cursor: 'bogus' })).toMatch(/Invalid cursor/);
  });

  it('cuts a 50 MB TEXT or BLOB cell with a marker, keeping the response small', async () => {
    const result = await s.call('read_query', { query: 'SELECT body, data FROM big' });
    const out = result.structuredContent as unknown as QueryOut;
    const [body, data] = out.rows[0] as string[];
    expect(body).toMatch(/… \[truncated: 50000000 characters in all\]$/);
    expect(data).toMatch(/^x'0000.*\[truncated: 50000000 bytes in all\]$/);
    expect(JSON.stringify(result).length).toBeLessThan(1024 * 1024);
  });

  it('keeps integers beyond 2^53 exact as strings', async () => {
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT 9007199254740993, 5' })).rows).toEqual([['9007199254740993', 5]]);
  });
});

describe('damaged, locked and WAL databases', () => {
  it('a file that is not a database gives a clear error and the server keeps serving', async () => {
    const db = await makeSqliteDb('CREATE TABLE t (a)');
    await writeFile(db.file, Buffer.alloc(8192, 7));
    const s = await open({ dbPath: db.file });
    try {
      expect(await s.refused('read_query', { query: 'SELECT 1 FROM t' })).toMatch(/not a SQLite database, or it is encrypted/);
      await expect(s.client.ping()).resolves.toBeDefined();
      expect(await s.refused('list_tables', {})).toMatch(/not a SQLite database/);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });

  it('retries SQLITE_BUSY within the time limit, then reports the lock clearly', async () => {
    const db = await shopDb();
    const s = await open({ dbPath: db.file, write: true, timeoutMs: 1500 });
    const locker = new Database(db.file);
    try {
      locker.exec('BEGIN EXCLUSIVE');
      const waiting = s.call('write_query', { query: "INSERT INTO users (name) VALUES ('w')" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      locker.exec('COMMIT');
      const result = await waiting;
      expect(result.isError, textOf(result)).toBeFalsy();
      locker.exec('BEGIN EXCLUSIVE');
      expect(await s.refused('read_query', { query: 'SELECT count(*) FROM users' })).toMatch(/locked|longer than/);
      locker.exec('COMMIT');
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM users' })).rows).toEqual([[4]]);
    } finally {
      locker.close();
      await s.close();
      await db.cleanup();
    }
  });

  it('reads a WAL database another process is writing', async () => {
    const db = await shopDb();
    const writer = new Database(db.file);
    writer.pragma('journal_mode = WAL');
    writer.exec("INSERT INTO users (name) VALUES ('in-wal')");
    const s = await open({ dbPath: db.file });
    try {
      expect((await s.ok<QueryOut>('read_query', { query: "SELECT count(*) FROM users WHERE name = 'in-wal'" })).rows).toEqual([[1]]);
      writer.exec("INSERT INTO users (name) VALUES ('later')");
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM users' })).rows).toEqual([[5]]);
    } finally {
      writer.close();
      await s.close();
      await db.cleanup();
    }
  });
});

describe('concurrent sessions', () => {
  it('50 sessions reading while one writes get no SQLITE_BUSY (the busy timeout absorbs the waits)', async () => {
    const db = await shopDb();
    const { connectInMemory } = await import('@mcp-reference/test-harness');
    const { createSqliteServer } = await import('./server.js');
    const server = createSqliteServer({ dbPath: db.file, write: true, logLevel: 'error' });
    const sessions = await Promise.all(Array.from({ length: 51 }, () => connectInMemory(server)));
    try {
      const [writer, ...readers] = sessions;
      const writes = (async () => {
        for (let i = 0; i < 30; i++) {
          const r = await writer.client.callTool({ name: 'write_query', arguments: { query: 'INSERT INTO orders (user_id, total) VALUES (?, ?)', params: [1, i] } });
          expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
        }
      })();
      const reads = readers.map(async (reader) => {
        for (let i = 0; i < 3; i++) {
          const r = await reader.client.callTool({ name: 'read_query', arguments: { query: 'SELECT count(*), sum(total) FROM orders' } });
          expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
        }
      });
      await Promise.all([writes, ...reads]);
      const count = await readers[0].client.callTool({ name: 'read_query', arguments: { query: 'SELECT count(*) FROM orders' } });
      expect((count.structuredContent as { rows: number[][] }).rows).toEqual([[33]]);
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
      await server.close();
      await db.cleanup();
    }
  }, 60_000);
});

describe('a database of many tables', () => {
  const n = LIST_TABLES_PAGE + 3;
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    // One transaction: a commit per CREATE TABLE took 14 s.
    db = await makeSqliteDb(`BEGIN;${Array.from({ length: n }, (_, i) => `CREATE TABLE t${String(i).padStart(5, "0")} (id INTEGER PRIMARY KEY, name TEXT);`).join("")}COMMIT;`);
    s = await open({ dbPath: db.file });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  type Tables = { tables: { name: string; columns: number }[]; nextCursor?: string };

  it(`lists its tables in pages of ${LIST_TABLES_PAGE.toLocaleString('en')}, resuming after the last name even when it was dropped meanwhile`, async () => {
    const first = await s.ok<Tables>('list_tables', {});
    expect(first.tables).toHaveLength(LIST_TABLES_PAGE);
    expect(first.tables[0]).toEqual(expect.objectContaining({ name: 't00000', columns: 2 }));
    expect(first.nextCursor).toEqual(expect.any(String));
    // Another process drops the last table of the page and adds one at the end.
    const other = new Database(db.file);
    other.exec(`DROP TABLE ${first.tables[LIST_TABLES_PAGE - 1].name}; CREATE TABLE zz (x);`);
    other.close();
    const second = await s.ok<Tables>('list_tables', { cursor: first.nextCursor });
    expect(second.tables.map((t) => t.name)).toEqual(['t05000', 't05001', 't05002', 'zz']);
    expect(second.nextCursor).toBeUndefined();
    expect(await s.refused('list_tables', { cursor: 'not-a-cursor' })).toMatch(/Invalid cursor/);
  });

  type Matches = { matches: { table: string; column?: string }[]; nextCursor?: string };

  it('pages search_schema on after the table of the last match when that table was dropped meanwhile', async () => {
    const first = await s.ok<Matches>('search_schema', { term: 'name' });
    expect(first.matches[0]).toEqual(expect.objectContaining({ table: 't00000', column: 'name' }));
    const last = first.matches[first.matches.length - 1].table;
    const other = new Database(db.file);
    other.exec(`DROP TABLE ${last}`);
    other.close();
    const second = await s.ok<Matches>('search_schema', { term: 'name', cursor: first.nextCursor });
    expect(second.matches[0].table > last).toBe(true);
    expect(second.matches.filter((m) => first.matches.some((f) => f.table === m.table))).toEqual([]);
  });
});
