// Helpers shared by the server-level test files. Not part of the bundle.
import path from 'node:path';
import { realpath } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { connectInMemory, makeGitRepo, type ClientOptions, type Connection, type GitRepo } from '@mcp-reference/test-harness';
import { createGitServer, type CreateGitServerOptions } from './server.js';

// Commits made through the server need an identity; CI machines may have no global one.
for (const [key, value] of Object.entries({
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
})) process.env[key] ??= value;

export const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

export interface ToolResult {
  content: Array<{ type: string; text?: string; uri?: string; mimeType?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Session extends Connection {
  server: ReturnType<typeof createGitServer>;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  ok<T = Record<string, any>>(name: string, args: Record<string, unknown>): Promise<T>;
}

export async function open(options: Partial<CreateGitServerOptions> & { repositories: string[] }, client: ClientOptions = {}): Promise<Session> {
  const server = createGitServer({ logLevel: 'error', pollIntervalMs: 100, ...options });
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
    async close() {
      await close().catch(() => undefined);
      await server.close();
    },
  });
}

export function textOf(result: ToolResult): string {
  return result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

export function linksOf(result: ToolResult): string[] {
  return result.content.filter((b) => b.type === 'resource_link').map((b) => b.uri!);
}

/** The refusal message of a call that must fail (isError or a JSON-RPC error). */
export async function refusal(session: Session, name: string, args: Record<string, unknown>): Promise<string> {
  let result: ToolResult;
  try {
    result = await session.call(name, args);
  } catch (error) {
    return (error as Error).message;
  }
  expect(result.isError, `${name} ${JSON.stringify(args)} was not refused: ${textOf(result)}`).toBe(true);
  return textOf(result);
}

/** A repository with a few commits on main and a feature branch, at its real path. */
export async function sampleRepo(): Promise<GitRepo & { root: string }> {
  const repo = await makeGitRepo([
    { message: 'first', files: { 'README.md': '# Sample\n', 'src/a.txt': 'alpha\nbeta\ngamma\n' } },
    { message: 'second', files: { 'src/b.txt': 'bravo\n', 'docs/guide.md': 'guide\n' } },
  ]);
  await repo.git('branch', 'feature');
  await repo.git('tag', 'v1.0');
  return Object.assign(repo, { root: await realpath(repo.dir) });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
