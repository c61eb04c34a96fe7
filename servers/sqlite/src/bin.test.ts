// The built bin (run `turbo run build --filter @mcp-reference/server-sqlite...` first):
// what only a real process shows.
import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, type SqliteFixture } from '@mcp-reference/test-harness';
import { bin, open, shopDb, type QueryOut } from './test-support.js';

const run = promisify(execFile);

async function start(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, [bin, ...args], { timeout: 20_000 });
    return { code: 0, stderr: '' };
  } catch (error) {
    const e = error as { code?: number; stderr?: string };
    return { code: e.code ?? -1, stderr: e.stderr ?? '' };
  }
}

describe('a database path that cannot be opened fails at start', () => {
  let db: SqliteFixture;
  beforeAll(async () => {
    db = await shopDb();
  });
  afterAll(async () => {
    await db.cleanup();
  });

  it.each([
    ['a missing file without --write', (dir: string) => [path.join(dir, 'missing.db')], /no such file/],
    ['a file in a missing directory with --write', (dir: string) => [path.join(dir, 'no', 'such', 'x.db'), '--write'], /no such directory/],
    ['a directory with --write', (dir: string) => [dir, '--write'], /not a file/],
  ])('%s', async (_name, args, message) => {
    const [file, ...rest] = args(db.dir);
    const result = await start(['--db-path', file, ...rest]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
  });

  it.skipIf(process.getuid?.() === 0)('a read-only file with --write', async () => {
    const dir = db.path('locked');
    await mkdir(dir);
    await chmod(dir, 0o500);
    const result = await start(['--db-path', path.join(dir, 'x.db'), '--write']);
    expect(result.stderr).toMatch(/not writable/);
  });
});

describe('a request over the message limit (16 MiB over stdio)', () => {
  it('gets an error answer to its own id, and the server keeps serving', async () => {
    const db = await shopDb();
    const client = await connectStdio(process.execPath, [bin, '--db-path', db.file]);
    try {
      const query = `SELECT '${'x'.repeat(17 * 1024 * 1024)}'`;
      await expect(client.client.callTool({ name: 'read_query', arguments: { query } }, undefined, { timeout: 60_000 })).rejects.toThrow(/exceeds/);
      const small = await client.client.callTool({ name: 'read_query', arguments: { query: 'SELECT 1 AS one' } });
      expect(small.structuredContent).toMatchObject({ rows: [[1]] });
    } finally {
      await client.close();
      await db.cleanup();
    }
  }, 90_000);
});

describe('pages of read_query over stdio (rows written in as the engine serialized them)', () => {
  // Cells JSON escapes, non-ASCII and astral text, integers past 2^53 (sent as text), reals,
  // blobs, NULL, and a cell long enough to be cut; several pages.
  const CELLS = `
    CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, r REAL, b BLOB, big INTEGER);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
    INSERT INTO t SELECT i,
      CASE i % 5 WHEN 0 THEN 'quote " backslash \\ tab ' || char(9) || ' nul ' || char(0) || ' nl ' || char(10)
                 WHEN 1 THEN 'é 中文 ' || char(119070) || ' ' || char(8232)
                 WHEN 2 THEN NULL
                 WHEN 3 THEN printf('%.*c', 70000, 'x')
                 ELSE 'raw-json:' || i END,
      i * 1.25, CASE WHEN i % 7 = 0 THEN x'00ff10' END, 9007199254740993 + i
    FROM n;`;

  it('are the rows a client reads in memory, page for page, ending where the table ends', async () => {
    const db = await shopDb(CELLS);
    const args = ['--db-path', db.file, '--max-rows', '1000'];
    const stdio = await connectStdio(process.execPath, [bin, ...args]);
    const memory = await open({ dbPath: db.file, maxRows: 1000 });
    try {
      const pages = async (call: (cursor?: string) => Promise<unknown>) => {
        const out: QueryOut[] = [];
        let cursor: string | undefined;
        do {
          const page = ((await call(cursor)) as { structuredContent: QueryOut }).structuredContent;
          out.push(page);
          cursor = page.nextCursor;
        } while (cursor);
        return out;
      };
      const query = 'SELECT * FROM t ORDER BY id';
      const overStdio = await pages((cursor) => stdio.client.callTool({ name: 'read_query', arguments: { query, ...(cursor ? { cursor } : {}) } }, undefined, { timeout: 60_000 }));
      const inMemory = await pages((cursor) => memory.call('read_query', { query, ...(cursor ? { cursor } : {}) }));
      // Pages end at 1,000 rows or at the page's byte budget (the long cells fill it first).
      expect(overStdio.length).toBeGreaterThan(2);
      expect(overStdio.map((page) => page.row_count)).toEqual(inMemory.map((page) => page.row_count));
      expect(overStdio.map((page) => page.rows.length)).toEqual(overStdio.map((page) => page.row_count));
      const rows = (pages: QueryOut[]) => pages.flatMap((page) => page.rows);
      expect(rows(overStdio)).toEqual(rows(inMemory));
      expect(rows(overStdio).map((row) => row[0])).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
      const sample = rows(overStdio);
      expect(sample[4][1]).toBe('quote " backslash \\ tab \t nul \u0000 nl \n');
      expect(sample[0][1]).toBe('é 中文 \u{1D11E} \u2028');
      expect(sample[0][4]).toBe('9007199254740994');
      expect(sample[6][3]).toBe("x'00ff10'");
      expect(String(sample[2][1])).toMatch(/truncated: 70000 characters/);
      expect(overStdio.map((page) => page.cells_cut?.length)).toEqual(inMemory.map((page) => page.cells_cut?.length));
    } finally {
      await stdio.close();
      await memory.close();
      await db.cleanup();
    }
  });
});
