// Each attack is refused AND leaves the database file and its directory byte-identical.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERAS, type SqliteFixture } from '@mcp-reference/test-harness';
import { open, shopDb, shopSession, snapshotDir, type QueryOut, type Session } from './test-support.js';

// Each table runs with both clients (2025 and 2026-07-28), in memory.
describe.each(
  ERAS.flatMap((era) => [
    { mode: 'read-only', write: false, era },
    { mode: '--write', write: true, era },
  ]),
)('attacks ($mode, $era client)', ({ write, era }) => {
  let db: SqliteFixture;
  let s: Session;
  let outside: string;
  let victim: string;
  let before: Record<string, string>;

  beforeAll(async () => {
    db = await shopDb();
    outside = await mkdtemp(path.join(tmpdir(), 'mcp-sqlite-outside-'));
    // Another database on the machine that ATTACH would open.
    victim = path.join(outside, 'victim.db');
    const other = new Database(victim);
    other.exec("CREATE TABLE secrets (s TEXT); INSERT INTO secrets VALUES ('hunter2');");
    other.close();
    s = await open({ dbPath: db.file, write }, { era });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
    await rm(outside, { recursive: true, force: true });
  });
  beforeEach(async () => {
    before = await snapshotDir(db.dir);
  });
  afterEach(async () => {
    expect(await snapshotDir(db.dir)).toEqual(before);
  });

  const tools = write ? ['read_query', 'write_query'] : ['read_query'];

  it.each(tools)('%s refuses ATTACH of an existing file and of a new one, and DETACH', async (tool) => {
    expect(await s.refused(tool, { query: `ATTACH DATABASE '${victim}' AS v` })).toMatch(/ATTACH/);
    const created = path.join(outside, 'created.db');
    expect(await s.refused(tool, { query: `ATTACH '${created}' AS c` })).toMatch(/ATTACH/);
    expect(existsSync(created)).toBe(false);
    expect(await s.refused(tool, { query: 'DETACH DATABASE main' })).toMatch(/ATTACH and DETACH|DETACH/);
    // The attach did not happen: the victim's table is unknown.
    expect(await s.refused('read_query', { query: 'SELECT * FROM v.secrets' })).toMatch(/no such table|unknown database/);
  });

  it.each(tools)('%s refuses VACUUM INTO and writes no file', async (tool) => {
    const target = path.join(outside, 'copy.db');
    expect(await s.refused(tool, { query: `VACUUM INTO '${target}'` })).toMatch(/VACUUM/);
    expect(await s.refused(tool, { query: `VACUUM main INTO ?`, params: [target] })).toMatch(/VACUUM/);
    expect(existsSync(target)).toBe(false);
  });

  it.each(tools)('%s refuses load_extension', async (tool) => {
    expect(await s.refused(tool, { query: "SELECT load_extension('/tmp/evil.so')" })).toMatch(/extension|not authorized/i);
  });

  it.each(tools)('%s refuses pragmas that change state or files, however spelled', async (tool) => {
    for (const query of [
      'PRAGMA writable_schema = ON',
      'PRAGMA main.journal_mode = WAL',
      'pragma  /* c */ journal_mode=delete',
      'PRAGMA "journal_mode" = wal',
      'PRAGMA user_version = 7',
      'PRAGMA schema_version = 1',
      'PRAGMA locking_mode = EXCLUSIVE',
      'PRAGMA temp_store_directory = \'/tmp\'',
      'PRAGMA query_only = 0',
      'PRAGMA foreign_keys = OFF',
      'PRAGMA wal_checkpoint(TRUNCATE)',
    ]) {
      expect(await s.refused(tool, { query }), query).toMatch(/not allowed/);
    }
  });

  it.each(tools)('%s refuses a second statement instead of ignoring it', async (tool) => {
    expect(await s.refused(tool, { query: "SELECT 1; DROP TABLE users" })).toMatch(/exactly one SQL statement/);
    expect(await s.refused(tool, { query: "INSERT INTO users(name) VALUES ('x'); SELECT 1" })).toMatch(/exactly one SQL statement/);
  });

  it.each(tools)('%s refuses transaction control (a transaction left open would hold locks)', async (tool) => {
    for (const query of ['BEGIN', 'BEGIN IMMEDIATE', 'COMMIT', 'SAVEPOINT a', 'RELEASE a', 'ROLLBACK']) {
      expect(await s.refused(tool, { query }), query).toMatch(/Transaction control/);
    }
  });

  it('read_query refuses every write, whatever the text looks like', async () => {
    for (const query of [
      "INSERT INTO users(name) VALUES ('mallory')",
      "WITH x AS (SELECT 1) INSERT INTO users(name) SELECT 'm' FROM x",
      "/* SELECT */ DELETE FROM orders",
      'UPDATE users SET name = name',
      'DROP TABLE orders',
      'CREATE TABLE t (a)',
      'CREATE TEMP TABLE t (a)',
      "REPLACE INTO users(id, name) VALUES (1, 'x')",
      'ANALYZE',
      'REINDEX',
    ]) {
      const message = await s.refused('read_query', { query });
      expect(message, query).toMatch(/writes|not allowed|read_query runs statements/);
    }
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM users' })).rows).toEqual([[3]]);
  });

  it('checks identifiers against the schema instead of splicing them', async () => {
    expect(await s.refused('describe_table', { table_name: 'users"; DROP TABLE users; --' })).toMatch(/no table/);
    expect(await s.refused('sample_rows', { table: 'users) UNION SELECT sql FROM sqlite_schema --', n: 1 })).toMatch(/no table/);
    const read = await s.client.readResource({ uri: 'sqlite://table/users%22%3B%20DROP%20TABLE%20users' }).then(
      () => 'read',
      (error: Error) => error.message,
    );
    expect(read).toMatch(/no table|not found/i);
  });
});

describe('read-only by default', () => {
  const current = shopSession();

  it('offers no write tools without --write', async () => {
    const names = (await current.s.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('read_query');
    expect(names).not.toContain('write_query');
    expect(names).not.toContain('create_table');
  });
});

describe('the insights memo', () => {
  const current = shopSession();
  const memo = async () => ((await current.s.client.readResource({ uri: 'memo://insights' })).contents[0] as { text: string }).text;

  it('refuses an insight over 10,000 characters or past 1,000,000 in all, adds nothing, and stays readable', async () => {
    const { s } = current;
    expect(await s.refused('append_insight', { insight: 'x'.repeat(10_001) })).toMatch(/10,001 characters; one holds at most 10,000.*Nothing was added/);
    expect(await memo()).toBe('No business insights have been discovered yet.');
    // Filled by many calls (as many sessions would): 100 of 10,000 characters is the whole memo.
    for (let i = 0; i < 100; i++) await s.ok('append_insight', { insight: `${i % 10}`.repeat(10_000) });
    const full = await memo();
    expect(await s.refused('append_insight', { insight: 'one more' })).toMatch(/memo is full: its 100 insights hold 1,000,000 characters.*Nothing was added/);
    expect(await memo()).toBe(full);
    expect(full).not.toContain('one more');
    expect(full).toContain('Analysis has revealed 100 key business insights');
  });
});

describe('a missing database file', () => {
  it('is an error without --write, and is not created', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcp-sqlite-missing-'));
    const file = path.join(dir, 'missing.db');
    const s = await open({ dbPath: file });
    try {
      expect(await s.refused('list_tables', {})).toMatch(/Cannot open|unable to open/i);
      expect(existsSync(file)).toBe(false);
      await expect(s.client.ping()).resolves.toBeDefined();
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is created with --write', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcp-sqlite-new-'));
    const file = path.join(dir, 'new.db');
    const s = await open({ dbPath: file, write: true });
    try {
      await s.ok('create_table', { query: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)' });
      await s.ok('write_query', { query: 'INSERT INTO notes (body) VALUES (?)', params: ['hello'] });
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT body FROM notes' })).rows).toEqual([['hello']]);
      expect(existsSync(file)).toBe(true);
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
