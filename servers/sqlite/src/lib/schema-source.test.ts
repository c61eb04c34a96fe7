// Where the schema comes from: a small one read in the server process, a large one by an
// engine process (off the server's event loop) and then kept until the schema changes.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSqliteDb, type SqliteFixture } from '@mcp-reference/test-harness';
import { createEngine, type Engine } from './engine.js';
import { createQuickReader, MAX_QUICK_SCHEMA_OBJECTS, type QuickReader } from './quick-reader.js';
import { createSchemaSource } from './schema-source.js';

const tables = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `CREATE TABLE t${from + i} (id INTEGER PRIMARY KEY, name TEXT NOT NULL);`).join('');

describe('the schema', () => {
  let db: SqliteFixture | undefined;
  let engine: Engine | undefined;
  let quick: QuickReader | undefined;
  afterEach(async () => {
    quick?.close();
    await engine?.close();
    await db?.cleanup();
  });

  const start = async (sql: string) => {
    db = await makeSqliteDb(sql);
    engine = createEngine({ dbPath: db.file, write: false, timeoutMs: 30_000, limits: { rows: 100, bytes: 1e6, cellBytes: 1000 }, processes: 1 });
    quick = createQuickReader({ dbPath: db.file, limits: { rows: 100, bytes: 1e6, cellBytes: 1000 } });
    // The engine's own calls, counted: which reads went to an engine process.
    const asked: string[] = [];
    const counted: Engine = { call: (op, request, options) => (asked.push(op), engine!.call(op, request, options)), close: () => engine!.close() };
    return { schema: createSchemaSource(quick, counted), asked };
  };

  it(`of at most ${MAX_QUICK_SCHEMA_OBJECTS} objects is read in the server process`, async () => {
    const { schema, asked } = await start(tables(3));
    expect((await schema()).tables.map((t) => t.name).sort()).toEqual(['t0', 't1', 't2']);
    expect(quick!.schema()).toBeDefined();
    expect(asked).toEqual([]);
  });

  it('of more is read by an engine process once, kept until it changes, then read again', async () => {
    const { schema, asked } = await start(tables(MAX_QUICK_SCHEMA_OBJECTS + 1));
    expect(quick!.schema()).toBeUndefined();
    const first = await schema();
    expect(first.tables).toHaveLength(MAX_QUICK_SCHEMA_OBJECTS + 1);
    expect(first.tables.find((t) => t.name === 't7')?.columns.map((c) => [c.name, c.type, c.notNull, c.pk])).toEqual([
      ['id', 'INTEGER', false, 1],
      ['name', 'TEXT', true, 0],
    ]);
    expect(await schema()).toBe(first);
    expect(asked).toEqual(['schema']);

    // Another process changes the schema: the next read sees it.
    const other = new Database(db!.file);
    other.exec('CREATE TABLE added (x)');
    other.close();
    const second = await schema();
    expect(second.tables.some((t) => t.name === 'added')).toBe(true);
    expect(asked).toEqual(['schema', 'schema']);
  });
  it('of more is read once for the calls that need it at the same time', async () => {
    // 100 concurrent list_tables on 20,000 tables each read it: every engine process was
    // taken for 30 s, and 46 of the calls failed waiting for one.
    const { schema, asked } = await start(tables(MAX_QUICK_SCHEMA_OBJECTS + 1));
    const all = await Promise.all(Array.from({ length: 20 }, () => schema()));
    expect(asked).toEqual(['schema']);
    for (const one of all) expect(one).toBe(all[0]);
  });

  it('a call that leaves does not stop the read for the others; when all have left it stops, and the next call reads again', async () => {
    const { schema, asked } = await start(tables(MAX_QUICK_SCHEMA_OBJECTS + 1));
    const leaving = new AbortController();
    const left = schema(leaving.signal);
    const staying = schema();
    leaving.abort(new Error('cancelled by the client'));
    await expect(left).rejects.toThrow('cancelled by the client');
    expect((await staying).tables).toHaveLength(MAX_QUICK_SCHEMA_OBJECTS + 1);
    expect(asked).toEqual(['schema']);

    const other = new Database(db!.file);
    other.exec('CREATE TABLE added (x)');
    other.close();
    const first = new AbortController();
    const second = new AbortController();
    const both = [schema(first.signal), schema(second.signal)];
    first.abort(new Error('first left'));
    second.abort(new Error('second left'));
    await expect(both[0]).rejects.toThrow('first left');
    await expect(both[1]).rejects.toThrow('second left');
    const again = await schema();
    expect(again.tables.some((t) => t.name === 'added')).toBe(true);
    expect(asked).toEqual(['schema', 'schema', 'schema']);
  });
});
