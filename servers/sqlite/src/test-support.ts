// Helpers shared by the server-level test files (*.test.ts beside this one). Not part of
// the bundle: only cli.ts is bundled.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { makeSqliteDb, openToolSession, type ClientOptions, type SqliteFixture, type ToolSession } from '@mcp-reference/test-harness';

import { createSqliteServer, type CreateSqliteServerOptions } from './server.js';

export { linksOf, textOf, type ToolResult } from '@mcp-reference/test-harness';

export const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

export interface QueryOut {
  columns: { name: string; type: string | null }[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  nextCursor?: string;
  tables: string[];
  changes?: number;
  cells_cut?: { row: number; column: string; length: number }[];
}

export type Session = ToolSession<ReturnType<typeof createSqliteServer>>;

/** The shop database most tests use. */
export const SHOP_SQL = `
  CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT);
  CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users(id), total REAL);
  CREATE INDEX orders_user ON orders(user_id);
  INSERT INTO users (name, email) VALUES ('ada', 'ada@example.com'), ('grace', 'grace@example.com'), ('linus', NULL);
  INSERT INTO orders (user_id, total) VALUES (1, 10.5), (1, 20), (2, 7.25);
`;

export function shopDb(sql = SHOP_SQL): Promise<SqliteFixture> {
  return makeSqliteDb(sql);
}

/** A factory-built server with a real in-memory client. Close it in afterEach/afterAll. */
export function open(options: CreateSqliteServerOptions, client: ClientOptions = {}): Promise<Session> {
  return openToolSession(createSqliteServer({ logLevel: 'error', ...options }), client);
}

/**
 * A session on a fresh shop database for the tests of one describe block: opened before
 * them, closed (and the database removed) after. Read `current.s` and `current.db` inside the tests.
 */
export function shopSession(options: Omit<CreateSqliteServerOptions, 'dbPath'> = {}): { s: Session; db: SqliteFixture } {
  const current = {} as { s: Session; db: SqliteFixture };
  beforeAll(async () => {
    current.db = await shopDb();
    current.s = await open({ dbPath: current.db.file, ...options });
  });
  afterAll(async () => {
    await current.s.close();
    await current.db.cleanup();
  });
  return current;
}

/** Every file in `dir` with its bytes (base64), to prove an attack changed nothing. */
export async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = (await readFile(path.join(dir, name))).toString('base64');
  return out;
}
