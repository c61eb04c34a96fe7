import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSqliteDb, type SqliteFixture } from '@mcp-reference/test-harness';
import { open, shopDb, type Session } from './test-support.js';

const text = (read: { contents: unknown[] }) => (read.contents[0] as { text: string }).text;

describe('resources', () => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await makeSqliteDb(`
      CREATE TABLE n (i INTEGER PRIMARY KEY, t TEXT);
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1200) INSERT INTO n SELECT x, 'row ' || x FROM c;
      CREATE TABLE "odd name" (a);
      CREATE VIEW v AS SELECT i FROM n WHERE i < 3;
    `);
    s = await open({ dbPath: db.file, pageSize: 2 });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  it('lists the memo, the schema and every table, paged', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.client.listResources(cursor ? { cursor } : undefined);
      expect(page.resources.length).toBeLessThanOrEqual(2);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(uris).toEqual(['memo://insights', 'sqlite://schema', 'sqlite://table/n', 'sqlite://table/odd%20name', 'sqlite://table/v']);
  });

  it('reads the schema and a table (columns, sample, rows URI)', async () => {
    expect(text(await s.client.readResource({ uri: 'sqlite://schema' }))).toContain('CREATE TABLE n (i INTEGER PRIMARY KEY, t TEXT)');
    const table = JSON.parse(text(await s.client.readResource({ uri: 'sqlite://table/odd%20name' })));
    expect(table).toMatchObject({ name: 'odd name', type: 'table', columns: [{ name: 'a' }], rows: 'sqlite://rows/odd%20name/0' });
  });

  it('pages rows by rowid through the rows template', async () => {
    const seen: number[] = [];
    let uri: string | undefined = 'sqlite://rows/n/0';
    while (uri) {
      const page = JSON.parse(text(await s.client.readResource({ uri }))) as { rows: number[][]; next?: string };
      seen.push(...page.rows.map((r) => r[0]));
      uri = page.next;
    }
    expect(seen).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1));
    const view = JSON.parse(text(await s.client.readResource({ uri: 'sqlite://rows/v/0' })));
    expect(view.rows).toEqual([[1], [2]]);
  });

  it('completes table names in templates and column names in prompts', async () => {
    const tables = await s.client.complete({ ref: { type: 'ref/resource', uri: 'sqlite://table/{name}' }, argument: { name: 'name', value: 'o' } });
    expect(tables.completion.values).toEqual(['odd name']);
    const columns = await s.client.complete({
      ref: { type: 'ref/prompt', name: 'explore_table' },
      argument: { name: 'column', value: '' },
      context: { arguments: { table: 'n' } },
    });
    expect(columns.completion.values).toEqual(['i', 't']);
  });

  it('answers an unknown table with a not-found error', async () => {
    await expect(s.client.readResource({ uri: 'sqlite://table/nope' })).rejects.toThrow(/no table/);
  });
});

describe('subscriptions', () => {
  let db: SqliteFixture;
  let s: Session;
  beforeAll(async () => {
    db = await shopDb();
    s = await open({ dbPath: db.file, write: true });
  });
  afterAll(async () => {
    await s.close();
    await db.cleanup();
  });

  const updated = (uri: string, since: number) =>
    s.waitForNotification('notifications/resources/updated', (p) => p?.uri === uri && s.notifications.length > since, 5000);

  it('fires for the table another process changed, not for the others', async () => {
    await s.client.subscribeResource({ uri: 'sqlite://table/users' });
    await s.client.subscribeResource({ uri: 'sqlite://table/orders' });
    const since = s.notifications.length;
    db.exec("INSERT INTO users (name) VALUES ('outside')");
    await updated('sqlite://table/users', since);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(s.notifications.slice(since).filter((n) => n.params?.uri === 'sqlite://table/orders')).toEqual([]);
    await s.client.unsubscribeResource({ uri: 'sqlite://table/orders' });
  });

  it('fires when this server writes', async () => {
    const since = s.notifications.length;
    await s.ok('write_query', { query: "UPDATE users SET email = 'z' WHERE id = 2" });
    await updated('sqlite://table/users', since);
  });

  it('fires for the schema and list_changed on DDL', async () => {
    await s.client.subscribeResource({ uri: 'sqlite://schema' });
    const since = s.notifications.length;
    db.exec('CREATE TABLE fresh (a)');
    await updated('sqlite://schema', since);
    await s.waitForNotification('notifications/resources/list_changed', () => s.notifications.length > since, 5000);
    expect((await s.client.listResources()).resources.map((r) => r.uri)).toContain('sqlite://table/fresh');
  });

  it('fires for a WAL database written by another process', async () => {
    const wal = await shopDb();
    const writer = (await import('better-sqlite3')).default(wal.file);
    writer.pragma('journal_mode = WAL');
    const t = await open({ dbPath: wal.file });
    try {
      await t.client.subscribeResource({ uri: 'sqlite://table/orders' });
      const since = t.notifications.length;
      writer.exec('INSERT INTO orders (user_id, total) VALUES (3, 1)');
      await t.waitForNotification('notifications/resources/updated', (p) => p?.uri === 'sqlite://table/orders' && t.notifications.length > since, 5000);
    } finally {
      writer.close();
      await t.close();
      await wal.cleanup();
    }
  });
});
