import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectInMemory, slowPerson, type SqliteFixture } from '@mcp-reference/test-harness';
import { linksOf, open, textOf, shopDb, snapshotDir, type QueryOut, type Session } from './test-support.js';

describe('write tools (--write)', () => {
  let db: SqliteFixture;
  let s: Session | undefined;
  beforeEach(async () => {
    db = await shopDb();
  });
  afterEach(async () => {
    await s?.close();
    s = undefined;
    await db.cleanup();
  });

  it('write_query changes data with bound params and reports changes; read_query still only reads', async () => {
    s = await open({ dbPath: db.file, write: true });
    const out = await s.ok<QueryOut>('write_query', { query: 'UPDATE users SET email = :email WHERE id = :id', params: { email: 'x@y', id: 3 } });
    expect(out.changes).toBe(1);
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT email FROM users WHERE id = 3' })).rows).toEqual([['x@y']]);
    expect(await s.refused('read_query', { query: 'DELETE FROM users WHERE id = 3' })).toMatch(/writes/);
    expect(await s.refused('write_query', { query: 'SELECT * FROM users' })).toMatch(/read_query/);
  });

  it('write_query returns the rows of INSERT ... RETURNING', async () => {
    s = await open({ dbPath: db.file, write: true });
    const out = await s.ok<QueryOut>('write_query', { query: 'INSERT INTO users (name) VALUES (?) RETURNING id, name', params: ['new'] });
    expect(out.rows).toEqual([[4, 'new']]);
  });

  it('create_table creates a table and links to it; it refuses other statements', async () => {
    s = await open({ dbPath: db.file, write: true });
    const result = await s.call('create_table', { query: 'CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT)' });
    expect(result.structuredContent).toEqual({ table: 'tags', uri: 'sqlite://table/tags', created: true });
    expect(linksOf(result)).toEqual(['sqlite://table/tags']);
    expect(await s.refused('create_table', { query: "INSERT INTO users (name) VALUES ('x')" })).toMatch(/CREATE TABLE/);
  });

  it('create_table on an existing table with IF NOT EXISTS names it and says nothing changed', async () => {
    s = await open({ dbPath: db.file, write: true });
    const result = await s.call('create_table', { query: 'CREATE TABLE IF NOT EXISTS "Users" (id INTEGER PRIMARY KEY)' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ table: 'users', uri: 'sqlite://table/users', created: false });
    expect(textOf(result)).toMatch(/Table users already exists; nothing was changed/);
  });

  it.each([
    ['DROP TABLE orders', /drops table/],
    ['DELETE FROM orders', /deletes rows/],
    ['UPDATE users SET name = upper(name)', /updates rows/],
    ['DELETE FROM orders -- WHERE id = 1', /deletes rows/],
    ["UPDATE users SET name = (SELECT 'x' WHERE 1)", /updates rows/],
    ['DELETE FROM orders WHERE 1', /deletes rows/],
    ['UPDATE users SET name = NULL WHERE 1 = 1', /updates rows/],
  ])('asks before %s, and changes nothing when the user declines', async (query, question) => {
    const asked: string[] = [];
    s = await open({ dbPath: db.file, write: true }, { elicit: (message) => (asked.push(message), { action: 'decline' }) });
    const before = await snapshotDir(db.dir);
    expect(await s.refused('write_query', { query })).toMatch(/declined/);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(question);
    expect(await snapshotDir(db.dir)).toEqual(before);
  });

  it('names in its question every table a statement empties, directly or through a trigger', async () => {
    db.exec('CREATE TABLE audit (entry TEXT); INSERT INTO audit VALUES (1); CREATE TRIGGER wipe AFTER DELETE ON orders BEGIN DELETE FROM audit; END');
    const asked: string[] = [];
    s = await open({ dbPath: db.file, write: true }, { elicit: (message) => (asked.push(message), { action: 'decline' }) });
    await s.refused('write_query', { query: 'DELETE FROM orders WHERE id = 1' });
    await s.refused('write_query', { query: 'DELETE FROM audit' });
    // SQLite empties a table with no WHERE by one Clear of it, never opening it for writing.
    expect(asked).toEqual([expect.stringMatching(/^This statement deletes rows \(it writes audit, orders\):/), expect.stringMatching(/^This statement deletes rows \(it writes audit\):/)]);
  });

  it('runs a destructive statement once the user accepts; an INSERT does not ask', async () => {
    const asked: string[] = [];
    s = await open({ dbPath: db.file, write: true }, { elicit: (message) => (asked.push(message), { action: 'accept', content: { confirm: true } }) });
    await s.ok('write_query', { query: "INSERT INTO orders (user_id, total) VALUES (3, 1)" });
    expect(asked).toHaveLength(0);
    await s.ok('write_query', { query: 'DELETE FROM orders WHERE id = 1' });
    expect(asked).toHaveLength(1);
    await s.ok('write_query', { query: 'DELETE FROM orders' });
    expect(asked).toHaveLength(2);
    expect((await s.ok<QueryOut>('read_query', { query: 'SELECT count(*) FROM orders' })).rows).toEqual([[0]]);
  });

  it('refuses a confirmed statement that the database changed into something else while the user was asked (issue 21, item 4)', async () => {
    const person = slowPerson();
    s = await open({ dbPath: db.file, write: true }, { elicit: person.elicit });
    const other = await connectInMemory(s.server);
    try {
      const deleting = s.call('write_query', { query: 'DELETE FROM orders WHERE id = 1' });
      expect(await person.asked).toMatch(/deletes rows \(it writes orders\)/);
      // Another session writes meanwhile (nothing waits on the person), and another program
      // adds a trigger: the DELETE would now delete users too, which nobody was asked about.
      const inserted = await other.client.callTool({ name: 'write_query', arguments: { query: "INSERT INTO users (name) VALUES ('meanwhile')" } });
      expect(inserted.isError, textOf(inserted as never)).toBeFalsy();
      db.exec('CREATE TRIGGER wipe AFTER DELETE ON orders BEGIN DELETE FROM users WHERE id NOT IN (SELECT user_id FROM orders); END');
      const before = await snapshotDir(db.dir);
      person.answer();
      const result = await deleting;
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toMatch(/changed while the user was being asked: this statement now .*it writes .*users.*Nothing was changed/);
      expect(await snapshotDir(db.dir)).toEqual(before);
      expect((await s.ok<QueryOut>('read_query', { query: 'SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM users)' })).rows).toEqual([[3, 4]]);
    } finally {
      person.answer();
      await other.close();
    }
  }, 30_000);
});
