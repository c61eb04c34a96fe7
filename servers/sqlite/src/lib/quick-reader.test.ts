import { rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { makeSqliteDb } from '@mcp-reference/test-harness';
import { constantLimit, createQuickReader, exact, lengthProbe, rowPerStep, straightLine, type ProgramOp } from './quick-reader.js';

const db = new Database(':memory:');
db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER); CREATE INDEX t_b ON t (b); CREATE VIEW v AS SELECT * FROM t; CREATE TABLE p (id INTEGER PRIMARY KEY, price REAL, note); CREATE TABLE q (id INTEGER PRIMARY KEY, c0);');
const program = (sql: string, args: unknown[] = []) => db.prepare(`EXPLAIN ${sql}`).all(...args) as ProgramOp[];

describe('straightLine: which compiled programs run each instruction at most once', () => {
  it.each([
    ['SELECT 1'],
    ["SELECT ? + 1, 'a' || ?", [1, 'b']],
    ['SELECT * FROM t WHERE id = 2'],
    ['SELECT a FROM t WHERE id = ? AND b IS NOT NULL', [1]],
    ['SELECT CASE WHEN 1 > 2 THEN 3 ELSE 4 END'],
    ['PRAGMA user_version'],
    ['SELECT * FROM v WHERE id = 1'],
  ])('%s is straight-line', (sql, args = []) => {
    expect(straightLine(program(sql, args as unknown[]))).toBe(true);
  });

  it.each([
    ['SELECT * FROM t'],
    ['SELECT count(*) FROM t'],
    ['SELECT * FROM t WHERE b = 1'],
    ['SELECT abs(-1)'],
    ['VALUES (1), (2)'],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c'],
    ['SELECT (SELECT max(b) FROM t)'],
    ['SELECT * FROM pragma_table_info(\'t\')'],
    ['SELECT * FROM t ORDER BY a LIMIT 1'],
  ])('%s is not', (sql) => {
    expect(straightLine(program(sql))).toBe(false);
  });
});

describe('rowPerStep: which programs walk one cursor and return a row on every step', () => {
  it.each([
    ['SELECT * FROM t LIMIT 5'],
    ['SELECT * FROM t'],
    ['SELECT * FROM t ORDER BY b LIMIT 5'],
    ['SELECT * FROM t ORDER BY id DESC LIMIT 5'],
    ['SELECT * FROM t WHERE b BETWEEN 2 AND 9 LIMIT 3'],
    ['SELECT a FROM t WHERE id > ? LIMIT 2', [3]],
    ['SELECT * FROM v LIMIT 5'],
    ['SELECT id, a || b FROM t LIMIT 5'],
  ])('%s does', (sql, args = []) => {
    expect(rowPerStep(program(sql, args as unknown[]))).toBe(true);
  });

  it.each([
    // A filter skips rows without returning them: a step can return nothing.
    ["SELECT * FROM t WHERE a = 'x' LIMIT 5"],
    ['SELECT * FROM t WHERE b > 2 AND a IS NULL LIMIT 5'],
    // An OFFSET skips rows the same way.
    ['SELECT * FROM t LIMIT 5 OFFSET 1000000'],
    // Two loops (a join), a sort, an aggregate, a function, a subquery, recursion, a table-valued function.
    ['SELECT * FROM t, t AS u LIMIT 3'],
    ['SELECT * FROM t ORDER BY a LIMIT 5'],
    ['SELECT count(*) FROM t'],
    ['SELECT abs(b) FROM t LIMIT 5'],
    ['SELECT (SELECT max(b) FROM t) FROM t LIMIT 5'],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c LIMIT 5'],
    ["SELECT * FROM pragma_table_info('t') LIMIT 5"],
    ['SELECT 1'],
  ])('%s does not', (sql) => {
    expect(rowPerStep(program(sql))).toBe(false);
  });

  it('reads the LIMIT only when it is a constant', () => {
    expect(constantLimit(program('SELECT * FROM t LIMIT 5'))).toBe(5);
    expect(constantLimit(program('SELECT * FROM t'))).toBeUndefined();
    expect(constantLimit(program('SELECT * FROM t LIMIT ?', [5]))).toBeUndefined();
  });

  it('knows when plain numbers may have lost digits', () => {
    expect(exact([[1, 'a', 2.5, null, -(2 ** 53) + 1]])).toBe(true);
    expect(exact([[1], [2 ** 53 + 2]])).toBe(false);
    expect(exact([[-(2 ** 60)]])).toBe(false);
  });
});

describe('lengthProbe: the size of the cells a statement reads, without reading them', () => {
  const probe = (sql: string, args: unknown[] = []) => lengthProbe(db, sql, db.prepare(sql).columns().length, args, program(sql, args));

  it.each([
    ['SELECT * FROM t WHERE id = 2'],
    ['SELECT * FROM t LIMIT 5'],
    ['SELECT a FROM t WHERE id > ? LIMIT 2', [3]],
    ['SELECT * FROM t WHERE b BETWEEN 2 AND 9 LIMIT 3'],
    ['SELECT * FROM v LIMIT 5'],
    ['SELECT * FROM t LIMIT 5;  '],
    ['SELECT a FROM t LIMIT 1 -- the first'],
    ['SELECT * FROM p WHERE id = 1'],
    // Names a table might have, inside the measured statement.
    ['SELECT c0 FROM q WHERE id = 1'],
    // IS NOT NULL looks at the type only.
    ['SELECT a FROM t WHERE id = 1 AND b IS NOT NULL'],
  ])('%s has one', (sql, args = []) => {
    const statement = probe(sql, args as unknown[]);
    expect(statement).toBeDefined();
    expect(statement!.all(...(args as unknown[]))).toEqual([]);
  });

  it.each([
    // An expression over a column needs its content.
    ['SELECT id, a || b FROM t LIMIT 5'],
    // SQLite runs these as a coroutine that loads every cell it yields.
    ['SELECT * FROM t ORDER BY b LIMIT 5'],
    ['SELECT * FROM t ORDER BY id DESC LIMIT 5'],
  ])('%s has none (the engine runs it)', (sql) => {
    expect(probe(sql)).toBeUndefined();
  });

  it('measures what the statement returns, row by row', () => {
    const mem = new Database(':memory:');
    mem.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b BLOB); INSERT INTO t VALUES (1, 'héllo', x'0102'), (2, NULL, zeroblob(70000)), (3, 'c', NULL);");
    const sql = 'SELECT a, b FROM t WHERE id >= ? LIMIT 2';
    const statement = lengthProbe(mem, sql, 2, [2], mem.prepare(`EXPLAIN ${sql}`).all(2) as ProgramOp[]);
    // Bytes of text and blobs, 8 for a number or NULL: one figure a row.
    expect(statement!.all(1)).toEqual([6 + 2, 8 + 70000]);
  });

  it('measures a text stored in a column declared REAL too (which SQLite loads to measure)', () => {
    const mem = new Database(':memory:');
    mem.exec("CREATE TABLE p (id INTEGER PRIMARY KEY, price REAL); INSERT INTO p VALUES (1, 2), (2, printf('%.*c', 9000, 'x'));");
    const sql = 'SELECT price FROM p WHERE id = ?';
    const statement = lengthProbe(mem, sql, 1, [1], mem.prepare(`EXPLAIN ${sql}`).all(1) as ProgramOp[]);
    expect(statement!.all(1)).toEqual([8]);
    expect(statement!.all(2)).toEqual([9000]);
  });
});

describe('createQuickReader', () => {
  it('sends a result whose cells add up to more than a page to the engine, whatever their size (a cell can hold 1 GB)', async () => {
    const fixture = await makeSqliteDb(`CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'short'), (2, printf('%.*c', 5000, 'x')), (3, 'y');`);
    const quick = createQuickReader({ dbPath: fixture.file, limits: { rows: 100, bytes: 4096, cellBytes: 1000 } });
    try {
      expect(quick.read('SELECT a FROM t WHERE id = 1', undefined)?.rows).toEqual([['short']]);
      expect(quick.read('SELECT * FROM t LIMIT 1', undefined)?.rows).toEqual([[1, 'short']]);
      // Cut to 1,000 characters it would fit a page; read whole first, it would not.
      expect(quick.read('SELECT a FROM t WHERE id = 2', undefined)).toBeUndefined();
      expect(quick.read('SELECT a FROM t WHERE id = ?;', [2])).toBeUndefined();
      expect(quick.read('SELECT * FROM t LIMIT 3', undefined)).toBeUndefined();
      expect(quick.read('SELECT a FROM t WHERE id = ?', [3])?.rows).toEqual([['y']]);
    } finally {
      quick.close();
      await fixture.cleanup();
    }
  });


  it('runs a statement that reads no table without the file or a transaction; a table read needs the file', async () => {
    const fixture = await makeSqliteDb("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'one');");
    const quick = createQuickReader({ dbPath: fixture.file, limits: { rows: 100, bytes: 1e6, cellBytes: 1000 } });
    try {
      expect(quick.read('SELECT 1 AS one, ? AS two', [2])?.rows).toEqual([[1, 2]]);
      expect(quick.read('SELECT a FROM t WHERE id = 1', undefined)?.rows).toEqual([['one']]);
      await rm(fixture.file);
      // Judged once, it is run as judged: the answer cannot depend on the file.
      expect(quick.read('SELECT 1 AS one, ? AS two', [3])?.rows).toEqual([[1, 3]]);
      // The engine answers this one (and says the file is gone).
      expect(quick.read('SELECT a FROM t WHERE id = 1', undefined)).toBeUndefined();
    } finally {
      quick.close();
      await fixture.cleanup();
    }
  });
});
