import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { straightLine, type ProgramOp } from './quick-reader.js';

describe('straightLine: which compiled programs run each instruction at most once', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER); CREATE INDEX t_b ON t (b); CREATE VIEW v AS SELECT * FROM t;');
  const program = (sql: string, args: unknown[] = []) => db.prepare(`EXPLAIN ${sql}`).all(...args) as ProgramOp[];

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
