// Helpers shared by the server-level test files. Not part of the bundle.
import path from 'node:path';
import { realpath } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, openToolSession, type ClientOptions, type GitRepo, type ToolSession } from '@mcp-reference/test-harness';
import { createGitServer, type CreateGitServerOptions } from './server.js';

export { linksOf, refusal, textOf, type ToolResult } from '@mcp-reference/test-harness';

// Commits made through the server need an identity; CI machines may have no global one.
for (const [key, value] of Object.entries({
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
})) process.env[key] ??= value;

export const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

export type Session = ToolSession<ReturnType<typeof createGitServer>>;

export function open(options: Partial<CreateGitServerOptions> & { repositories: string[] }, client: ClientOptions = {}): Promise<Session> {
  return openToolSession(createGitServer({ logLevel: 'error', pollIntervalMs: 100, ...options }), client);
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
