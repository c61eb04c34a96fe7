// Helpers shared by the server-level test files (*.test.ts beside this one). Not part of
// the bundle: only cli.ts is bundled.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { connectInMemory, makeSqliteDb, type ClientOptions, type Connection, type SqliteFixture } from '@mcp-reference/test-harness';
import { createSqliteServer, type CreateSqliteServerOptions } from './server.js';

export const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

export interface ToolResult {
  content: Array<{ type: string; text?: string; uri?: string; mimeType?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface QueryOut {
  columns: { name: string; type: string | null }[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  nextCursor?: string;
  tables: string[];
  changes?: number;
}

export interface Session extends Connection {
  server: ReturnType<typeof createSqliteServer>;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Calls a tool that must succeed and returns its structuredContent. */
  ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must be refused and returns the message. */
  refused(name: string, args: Record<string, unknown>): Promise<string>;
}

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
export async function open(options: CreateSqliteServerOptions, client: ClientOptions = {}): Promise<Session> {
  const server = createSqliteServer({ logLevel: 'error', ...options });
  const connection = await connectInMemory(server, client);
  const close = connection.close;
  const call = async (name: string, args: Record<string, unknown>) => (await connection.client.callTool({ name, arguments: args })) as ToolResult;
  return Object.assign(connection, {
    server,
    call,
    async ok<T>(name: string, args: Record<string, unknown>): Promise<T> {
      const result = await call(name, args);
      expect(result.isError, `${name} failed: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as T;
    },
    async refused(name: string, args: Record<string, unknown>): Promise<string> {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)} was not refused: ${textOf(result)}`).toBe(true);
      return textOf(result);
    },
    async close() {
      await close().catch(() => undefined);
      await server.close();
    },
  });
}

export function textOf(result: ToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

export function linksOf(result: ToolResult): string[] {
  return result.content.filter((block) => block.type === 'resource_link').map((block) => block.uri!);
}

/** Every file in `dir` with its bytes (base64), to prove an attack changed nothing. */
export async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = (await readFile(path.join(dir, name))).toString('base64');
  return out;
}
