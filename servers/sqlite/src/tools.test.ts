import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteFixture } from '@mcp-reference/test-harness';
import { linksOf, open, shopDb, textOf, type QueryOut, type Session } from './test-support.js';

describe('read tools', () => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await shopDb();
    s = await open({ dbPath: db.file });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  it('read_query returns columns with declared types, rows, row_count and a text table, linking the tables read', async () => {
    const result = await s.call('read_query', { query: 'SELECT u.name, o.total FROM users u JOIN orders o ON o.user_id = u.id ORDER BY o.id' });
    const out = result.structuredContent as unknown as QueryOut;
    expect(out.columns).toEqual([{ name: 'name', type: 'TEXT' }, { name: 'total', type: 'REAL' }]);
    expect(out.rows).toEqual([['ada', 10.5], ['ada', 20], ['grace', 7.25]]);
    expect(out.row_count).toBe(3);
    expect(out.truncated).toBe(false);
    expect(textOf(result)).toContain('| name | total |');
    expect(linksOf(result).sort()).toEqual(['sqlite://table/orders', 'sqlite://table/users']);
  });

  it('binds positional and named params', async () => {
    const a = await s.ok<QueryOut>('read_query', { query: 'SELECT name FROM users WHERE id = ?', params: [2] });
    expect(a.rows).toEqual([['grace']]);
    const b = await s.ok<QueryOut>('read_query', { query: 'SELECT name FROM users WHERE name = :n OR id = @id', params: { n: 'ada', '@id': 3 } });
    expect(b.rows).toEqual([['ada'], ['linus']]);
  });

  it('list_tables links every table; describe_table gives columns and indexes', async () => {
    const result = await s.call('list_tables', {});
    expect(linksOf(result)).toEqual(['sqlite://table/orders', 'sqlite://table/users']);
    const d = await s.ok<{ columns: { name: string; pk: number }[]; indexes: { name: string }[] }>('describe_table', { table_name: 'orders' });
    expect(d.columns.map((c) => c.name)).toEqual(['id', 'user_id', 'total']);
    expect(d.indexes.map((i) => i.name)).toEqual(['orders_user']);
  });

  it('describe_table and sample_rows refuse a table that does not exist, naming the known ones', async () => {
    expect(await s.refused('describe_table', { table_name: 'users; DROP TABLE users' })).toMatch(/no table.*Known: orders, users/);
    expect(await s.refused('sample_rows', { table: 'nope"x', n: 2 })).toMatch(/no table/);
  });

  it('sample_rows, list_indexes, search_schema and explain_query', async () => {
    expect((await s.ok<QueryOut>('sample_rows', { table: 'users', n: 2 })).rows).toEqual([[1, 'ada', 'ada@example.com'], [2, 'grace', 'grace@example.com']]);
    expect((await s.ok<{ indexes: { name: string }[] }>('list_indexes', { table_name: 'orders' })).indexes.map((i) => i.name)).toEqual(['orders_user']);
    expect((await s.ok<{ matches: unknown[] }>('search_schema', { term: 'user' })).matches).toEqual([
      { table: 'orders', type: 'table', column: 'user_id', columnType: 'INTEGER' },
      { table: 'users', type: 'table' },
    ]);
    const plan = await s.call('explain_query', { query: 'SELECT * FROM orders WHERE user_id = ?', params: [1] });
    expect(textOf(plan)).toMatch(/SEARCH orders USING (COVERING )?INDEX orders_user/);
  });

  it('append_insight adds to memo://insights', async () => {
    await s.ok('append_insight', { insight: 'ada buys most' });
    const memo = await s.client.readResource({ uri: 'memo://insights' });
    expect((memo.contents[0] as { text: string }).text).toContain('ada buys most');
  });
});

describe('text rendering of a large page', () => {
  it('previews the first rows in text and keeps every row in structuredContent', async () => {
    const { makeSqliteDb } = await import('@mcp-reference/test-harness');
    const db = await makeSqliteDb(
      'CREATE TABLE n (i INTEGER PRIMARY KEY); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500) INSERT INTO n SELECT x FROM c;',
    );
    const s = await open({ dbPath: db.file });
    try {
      const result = await s.call('read_query', { query: 'SELECT i FROM n' });
      expect((result.structuredContent as unknown as QueryOut).rows).toHaveLength(500);
      const text = textOf(result);
      expect(text).toContain('| 200 |');
      expect(text).not.toContain('| 201 |');
      expect(text).toContain('200 of the 500 rows of this page are shown here');
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});
