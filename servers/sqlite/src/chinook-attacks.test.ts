// Issue 26 (SQLite): a write is never wider than asked, and a refused statement has no
// effect. Each attack runs against a Chinook-shaped database file (test-harness) and is
// checked twice: it was refused (or asked about), and the database is byte-identical with
// its integrity and foreign keys intact.
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHINOOK_LOVE_TRACKS,
  CHINOOK_ROWS,
  DESTRUCTIVE,
  STATE_PRAGMAS,
  TEMP_OBJECTS,
  WIDER_THAN_ASKED,
  databaseState,
  makeChinookDb,
  type DatabaseState,
  type SqliteFixture,
} from '@mcp-reference/test-harness';
import { open, type QueryOut, type Session } from './test-support.js';

const LOVE = "SELECT count(*) FROM Track WHERE Name LIKE '%love%'";

describe('a write is never wider than asked (Chinook, --write)', () => {
  let db: SqliteFixture;
  let s: Session;
  const asked: string[] = [];
  let before: DatabaseState;
  beforeAll(async () => {
    db = await makeChinookDb();
    s = await open({ dbPath: db.file, write: true, processes: 1 }, { elicit: (message) => (asked.push(message), { action: 'decline' }) });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });
  beforeEach(() => {
    asked.length = 0;
    before = databaseState(db.file);
  });
  afterEach(() => {
    const after = databaseState(db.file);
    expect(after).toEqual(before);
    expect(after.integrity).toBe('ok');
    expect(after.foreignKeyViolations).toBe(0);
  });

  it.each(WIDER_THAN_ASKED)('refuses a NUL inside a statement ($name) and changes nothing', async ({ query }) => {
    expect(await s.refused('write_query', { query })).toMatch(/NUL/);
    expect(await s.refused('read_query', { query: 'SELECT count(*) FROM Track\u0000 WHERE 0' })).toMatch(/NUL/);
    expect(await s.refused('explain_query', { query: 'SELECT * FROM Track\u0000 WHERE 0' })).toMatch(/NUL/);
    expect(await s.refused('create_table', { query: 'CREATE TABLE x (a)\u0000 garbage' })).toMatch(/NUL/);
    expect(asked).toEqual([]);
  });

  it.each(DESTRUCTIVE)('asks before $name, and changes nothing when the user declines', async ({ query }) => {
    expect(await s.refused('write_query', { query })).toMatch(/declined/);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(query);
  });

  it.each(TEMP_OBJECTS)('refuses $name, which would outlive the call unseen', async ({ query }) => {
    expect(await s.refused('write_query', { query })).toMatch(/TEMP/);
  });

  it('no TEMP trigger is left to fire: the next innocent INSERT changes only its row', async () => {
    await s.refused('write_query', { query: TEMP_OBJECTS[0].query });
    await s.ok('write_query', { query: "INSERT INTO Genre (Name) VALUES ('Polka')" });
    const after = databaseState(db.file);
    expect(after.counts).toEqual({ ...before.counts, Genre: CHINOOK_ROWS.Genre + 1 });
    db.exec("DELETE FROM Genre WHERE Name = 'Polka'");
    before = databaseState(db.file);
  });
});

describe('a destructive statement runs once the user accepts', () => {
  it('asks for DELETE with a WHERE and deletes just that row; a plain INSERT does not ask', async () => {
    const db = await makeChinookDb();
    const asked: string[] = [];
    const s = await open({ dbPath: db.file, write: true }, { elicit: (message) => (asked.push(message), { action: 'accept', content: { confirm: true } }) });
    try {
      const out = await s.ok<QueryOut>('write_query', { query: 'DELETE FROM InvoiceLine WHERE InvoiceLineId = 1' });
      expect(out.changes).toBe(1);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/deletes rows \(it writes InvoiceLine\)/);
      await s.ok('write_query', { query: "INSERT INTO Genre (Name) VALUES ('Polka')" });
      expect(asked).toHaveLength(1);
      expect(databaseState(db.file).counts.InvoiceLine).toBe(CHINOOK_ROWS.InvoiceLine - 1);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });

  it('an INSERT that fires an existing trigger asks, since the trigger may change other rows', async () => {
    const db = await makeChinookDb();
    db.exec('CREATE TRIGGER wipe AFTER INSERT ON Genre BEGIN DELETE FROM PlaylistTrack; END');
    const asked: string[] = [];
    const s = await open({ dbPath: db.file, write: true }, { elicit: (message) => (asked.push(message), { action: 'decline' }) });
    try {
      const before = databaseState(db.file);
      expect(await s.refused('write_query', { query: "INSERT INTO Genre (Name) VALUES ('Polka')" })).toMatch(/declined/);
      expect(asked[0]).toMatch(/fires triggers/);
      expect(databaseState(db.file)).toEqual(before);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});

describe.each([
  { mode: 'read-only', write: false },
  { mode: '--write', write: true },
])('a refused PRAGMA has no effect on any connection ($mode)', ({ write }) => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await makeChinookDb();
    // One engine process: every later call runs on the connections the refused pragmas reached.
    s = await open({ dbPath: db.file, write, processes: 1 });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  it('refuses each pragma before SQLite prepares it, and every connection behaves as before', async () => {
    const before = databaseState(db.file);
    expect((await s.ok<QueryOut>('read_query', { query: LOVE })).rows).toEqual([[CHINOOK_LOVE_TRACKS]]);
    const tools = write ? ['read_query', 'write_query', 'explain_query'] : ['read_query', 'explain_query'];
    for (const tool of tools) {
      for (const query of STATE_PRAGMAS) expect(await s.refused(tool, { query }), `${tool}: ${query}`).toMatch(/not allowed|explain_query tool/);
    }
    expect(databaseState(db.file)).toEqual(before);
    // case_sensitive_like: LIKE still ignores case.
    expect((await s.ok<QueryOut>('read_query', { query: LOVE })).rows).toEqual([[CHINOOK_LOVE_TRACKS]]);
    // reverse_unordered_selects: rows still come in rowid order.
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT GenreId FROM Genre LIMIT 3' })).rows).toEqual([[1], [2], [3]]);
    // locking_mode = EXCLUSIVE: after those reads, another process still writes at once.
    const other = new Database(db.file, { timeout: 0 });
    other.exec("INSERT INTO Genre (Name) VALUES ('Other process')");
    other.close();
    if (!write) return;
    // foreign_keys: a referenced row still cannot be deleted.
    expect(await s.refused('write_query', { query: 'DELETE FROM Genre WHERE GenreId = 1' })).toMatch(/FOREIGN KEY/);
    // ignore_check_constraints: a forbidden row is still refused.
    expect(await s.refused('write_query', { query: 'INSERT INTO InvoiceLine VALUES (99999, 1, 1, 0.99, 0)' })).toMatch(/CHECK constraint/);
    // query_only: writes still work.
    expect((await s.ok<QueryOut>('write_query', { query: "INSERT INTO Genre (Name) VALUES ('Polka')" })).changes).toBe(1);
    const after = databaseState(db.file);
    expect(after.integrity).toBe('ok');
    expect(after.foreignKeyViolations).toBe(0);
    expect(after.counts).toEqual({ ...before.counts, Genre: CHINOOK_ROWS.Genre + 2 });
  });
});
