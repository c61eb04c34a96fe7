import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destructiveReason, fillPage, inspectStatement, jsonArrayWriter, jsonCell, pragmaOf, sqlTokens, statementVerb, takePage, pageCollector, type PageFill } from './engine-child.js';

const tokens = (sql: string) => sqlTokens(sql);

describe('sqlTokens and what is read from them', () => {
  it('skips comments and strings, and tracks parenthesis depth', () => {
    expect(tokens("SELECT 'a;b' -- x\n /* DROP */ FROM \"t\"").map((t) => t.text)).toEqual(['SELECT', 'STRING', 'FROM', 'IDENT']);
    expect(tokens('SELECT (a) FROM t').map((t) => t.depth)).toEqual([0, 0, 1, 0, 0, 0]);
  });

  it('finds the verb past a WITH clause', () => {
    expect(statementVerb(tokens('WITH x AS (SELECT 1) DELETE FROM t'))).toBe('DELETE');
    expect(statementVerb(tokens('  select 1'))).toBe('SELECT');
  });

  it('calls every statement that can remove or rewrite data or schema destructive, whatever its WHERE', () => {
    expect(destructiveReason(tokens('DROP TABLE t'))).toMatch(/drops table/);
    expect(destructiveReason(tokens('DELETE FROM t'))).toMatch(/deletes rows/);
    expect(destructiveReason(tokens("DELETE FROM t -- WHERE id = 1"))).toMatch(/deletes rows/);
    expect(destructiveReason(tokens('DELETE FROM t WHERE 1'))).toMatch(/deletes rows/);
    expect(destructiveReason(tokens("UPDATE t SET a = 'WHERE'"))).toMatch(/updates rows/);
    expect(destructiveReason(tokens('UPDATE t SET a = 1 WHERE 1 = 1'))).toMatch(/updates rows/);
    expect(destructiveReason(tokens('ALTER TABLE t DROP COLUMN a'))).toMatch(/drops a column/);
    expect(destructiveReason(tokens('ALTER TABLE t RENAME TO u'))).toMatch(/renames/);
    expect(destructiveReason(tokens('ALTER TABLE t ADD COLUMN "drop"'))).toBeUndefined();
    expect(destructiveReason(tokens('CREATE TRIGGER x AFTER INSERT ON t BEGIN DELETE FROM u; END'))).toMatch(/trigger/);
    expect(destructiveReason(tokens('INSERT OR REPLACE INTO t VALUES (1)'))).toMatch(/replaces/);
    expect(destructiveReason(tokens('REPLACE INTO t VALUES (1)'))).toMatch(/replaces/);
    expect(destructiveReason(tokens('INSERT INTO t VALUES (1) ON CONFLICT DO UPDATE SET a = 2'))).toMatch(/upsert/);
    expect(destructiveReason(tokens('INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING'))).toBeUndefined();
    expect(destructiveReason(tokens('CREATE TABLE u (a)'))).toBeUndefined();
    expect(destructiveReason(tokens('INSERT INTO t VALUES (1)'))).toBeUndefined();
  });

  it('names the pragma and whether it carries a value', () => {
    expect(pragmaOf(tokens('PRAGMA main.journal_mode = WAL'))).toEqual({ name: 'journal_mode', hasArgument: true });
    expect(pragmaOf(tokens('pragma table_info(users)'))).toEqual({ name: 'table_info', hasArgument: true });
    expect(pragmaOf(tokens('PRAGMA user_version'))).toEqual({ name: 'user_version', hasArgument: false });
    expect(pragmaOf(tokens('SELECT 1'))).toBeUndefined();
  });
});

describe('inspectStatement on a real connection', () => {
  let db: Database.Database;
  beforeAll(() => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); CREATE TABLE u (b)');
  });
  afterAll(() => db.close());

  it('passes a read and names the root pages it reads', () => {
    const verdict = inspectStatement(db, 'SELECT * FROM t JOIN u', 'read');
    expect(verdict.readonly).toBe(true);
    expect(verdict.reader).toBe(true);
    const roots = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name IN ('t', 'u') ORDER BY rootpage").pluck().all();
    expect([...verdict.readRoots].sort()).toEqual(roots);
  });

  it('refuses writes in read mode by SQLite verdict, whatever the text says', () => {
    expect(() => inspectStatement(db, '/* SELECT */ INSERT INTO t (a) VALUES (1)', 'read')).toThrow(/writes to the database/);
    expect(() => inspectStatement(db, 'INSERT INTO t (a) VALUES (1)', 'write')).not.toThrow();
  });

  it('refuses ATTACH, DETACH, VACUUM and transaction control in every mode', () => {
    for (const mode of ['read', 'write'] as const) {
      expect(() => inspectStatement(db, "ATTACH '/tmp/x.db' AS x", mode)).toThrow(/ATTACH and DETACH/);
      expect(() => inspectStatement(db, 'DETACH x', mode)).toThrow(/ATTACH and DETACH/);
      expect(() => inspectStatement(db, "VACUUM INTO '/tmp/y.db'", mode)).toThrow(/VACUUM/);
      expect(() => inspectStatement(db, 'BEGIN', mode)).toThrow(/Transaction control/);
    }
  });

  it('refuses a second statement and an empty one', () => {
    expect(() => inspectStatement(db, 'SELECT 1; SELECT 2', 'read')).toThrow(/exactly one SQL statement/);
    expect(() => inspectStatement(db, ' ; -- nothing', 'read')).toThrow(/empty/);
    expect(() => inspectStatement(db, 'SELECT 1; -- trailing comment', 'read')).not.toThrow();
  });

  it('binds params for EXPLAIN too', () => {
    expect(inspectStatement(db, 'SELECT * FROM t WHERE id = ?', 'read', [1]).reader).toBe(true);
    expect(inspectStatement(db, 'SELECT * FROM t WHERE id = :id', 'read', [{ id: 1 }]).reader).toBe(true);
  });
});

describe('cells and pages', () => {
  it('keeps JSON exact and bounded', () => {
    expect(jsonCell(2n ** 60n, 100)).toBe('1152921504606846976');
    expect(jsonCell(5n, 100)).toBe(5);
    expect(jsonCell(Buffer.from([1, 2]), 100)).toBe("x'0102'");
    expect(jsonCell('x'.repeat(10), 4)).toBe('xxxx… [truncated: 10 characters in all]');
    expect(jsonCell(Infinity, 10)).toBe('Infinity');
  });

  it('stops a page at the row cap or the byte cap, keeping the next row for the next page', () => {
    const rows = [[1], [2], [3], [4], [5]][Symbol.iterator]();
    const first = takePage(rows, undefined, { rows: 2, bytes: 1e6, cellBytes: 10 });
    expect(first).toEqual({ rows: [[1], [2]], more: true, pending: [3], cuts: [] });
    const second = takePage(rows, first.pending, { rows: 10, bytes: 1e6, cellBytes: 10 });
    expect(second).toEqual({ rows: [[3], [4], [5]], more: false, pending: undefined, cuts: [] });
    const big = takePage([['a'.repeat(100)], ['b']][Symbol.iterator](), undefined, { rows: 10, bytes: 50, cellBytes: 1000 });
    expect(big.rows).toHaveLength(1);
    expect(big.more).toBe(true);
  });

  it('fills a page in steps exactly as in one go: rows, cut cells (numbered in the page), the row after it', () => {
    const source = () => Array.from({ length: 25 }, (_, i) => [BigInt(i), i === 13 ? 'x'.repeat(20) : `r${i}`])[Symbol.iterator]();
    const limits = { rows: 20, bytes: 1e6, cellBytes: 10 };
    const whole = takePage(source(), undefined, limits);
    const iterator = source();
    const page: PageFill = { rows: [], cuts: [], bytes: 0, taken: 0, pending: undefined };
    const steps: number[] = [];
    const rows: unknown[][] = [];
    for (;;) {
      const { complete, more } = fillPage(iterator, page, limits, 6);
      steps.push(page.rows.length);
      rows.push(...page.rows);
      page.rows = [];
      if (complete) {
        expect(more).toBe(true);
        break;
      }
    }
    expect(steps).toEqual([6, 6, 6, 2]);
    expect(rows).toEqual(whole.rows);
    expect(page.cuts).toEqual([[13, 1, 20]]);
    expect(page.cuts).toEqual(whole.cuts);
    expect(page.pending).toEqual(whole.pending);
    expect(page.taken).toBe(20);
  });
});

describe('a page as JSON, written in slices', () => {
  const encoder = new TextEncoder();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it('is the JSON of all the rows, byte for byte, however the slices fall and whatever the text', () => {
    const rows = Array.from({ length: 50 }, (_, i) => [i, `é ${i} \u{1F600} "q" \\ ${'ü'.repeat(i)}`, i / 3, null]);
    for (const slice of [1, 7, 50]) {
      // A size hint far too small: the buffer grows, mid-character never.
      const writer = jsonArrayWriter(encoder, 16);
      for (let i = 0; i < rows.length; i += slice) writer.add(rows.slice(i, i + slice));
      const bytes = writer.bytes();
      expect(Buffer.from(bytes).equals(Buffer.from(JSON.stringify(rows), 'utf8'))).toBe(true);
      expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
    }
  });

  it('is [] for no rows, and skips empty slices', () => {
    expect(decode(jsonArrayWriter(encoder).bytes())).toBe('[]');
    const writer = jsonArrayWriter(encoder);
    writer.add([]);
    writer.add([[1]]);
    writer.add([]);
    writer.add([[2]]);
    expect(decode(writer.bytes())).toBe('[[1],[2]]');
  });
});

describe('a page collected whole or in steps', () => {
  const encoder = new TextEncoder();
  const rows = () => Array.from({ length: 23 }, (_, i) => [i, `row ${i} é \u{1F600}`]);
  const collectIn = (steps: number[], json: boolean, stepRows: number) => {
    const collector = pageCollector(json ? jsonArrayWriter(encoder, 16) : undefined, 4, stepRows);
    const all = rows();
    let at = 0;
    for (const size of steps) {
      collector.add(all.slice(at, at + size));
      at += size;
    }
    return collector.finish(true, [[2, 1, 99]]);
  };

  it('sends the same text page however the rows came: JSON of all of them, the first `head` parsed, the count', () => {
    const whole = collectIn([23], true, 5);
    expect(whole).toEqual({ rowsJson: expect.any(Uint8Array), head: rows().slice(0, 4), count: 23, more: true, cuts: [[2, 1, 99]] });
    if (!('rowsJson' in whole)) throw new Error('expected a text page');
    expect(Buffer.from(whole.rowsJson).toString('utf8')).toBe(JSON.stringify(rows()));
    for (const steps of [[1, 1, 1, 20], [5, 5, 5, 5, 3], [0, 23, 0]]) expect(collectIn(steps, true, 5)).toEqual(whole);
  });

  it('sends the rows themselves, in order, when the page is not text', () => {
    for (const steps of [[23], [3, 0, 20], [1, 22]]) expect(collectIn(steps, false, 5)).toEqual({ rows: rows(), more: true, cuts: [[2, 1, 99]] });
  });
});
