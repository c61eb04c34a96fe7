// The built bin (run `turbo run build --filter @mcp-reference/server-sqlite...` first):
// what only a real process shows.
import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, type SqliteFixture } from '@mcp-reference/test-harness';
import { bin, shopDb } from './test-support.js';

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
