import { createServer, directorySet, rootPaths, type DirectorySet, type Logger, type LogLevel, type McpServer } from '@mcp-reference/shared';
import type { GitContext, RepoAccess } from './context.js';
import { allowedAreas, resolveRepo, repoId, findRepoRoot, type Repo } from './lib/repo.js';
import type { MetadataCache } from './lib/metadata-guard.js';
import { createGitRunner } from './lib/safe-git.js';
import { describeGitError } from './lib/errors.js';
import { parseUri } from './lib/uris.js';
import { watchRef } from './lib/watch-ref.js';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pkg from '../package.json' with { type: 'json' };

export interface CreateGitServerOptions {
  /** Work-tree roots of the allowed repositories, as real paths (the CLI resolves them); may be empty. */
  repositories: string[];
  readOnly?: boolean;
  maxOutputBytes?: number;
  /** How often subscribed refs are checked for moves, in ms. */
  pollIntervalMs?: number;
  pageSize?: number;
  /** Largest serialized tool result (the base's budget, default 8 MiB). */
  maxResultBytes?: number;
  logLevel?: LogLevel;
  logger?: Logger;
}

/** Repositories directly under a root directory (when no --repository is given). */
async function repositoriesIn(area: string): Promise<string[]> {
  if ((await findRepoRoot(area)) === area) return [area];
  const entries = await readdir(area, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(area, entry.name);
    if ((await findRepoRoot(dir)) === dir) found.push(dir);
  }
  return found;
}

/**
 * The git server: the official server's tools on the allowed repositories of each
 * session (--repository ceiling narrowed by client roots), plus blame, grep, tags, files
 * at a ref, stash, worktrees, ref resources with subscriptions, and prompts.
 */
export function createGitServer(options: CreateGitServerOptions): McpServer {
  const ceiling = [...options.repositories];
  const git = createGitRunner();
  // What the per-call metadata check (resolveRepo) already read, for every session.
  const metadata: MetadataCache = new Map();
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  return createServer<GitContext>({
    name: 'mcp-server-git',
    version: pkg.version,
    instructions:
      'Git repositories: every tool takes repo_path (a repository, or a directory inside one). ' +
      'Read commits, diffs, blame and files at any ref; search with git_grep; large results come in pages (pass nextCursor back as cursor).',
    async tools() {
      const { readTools, writeTools } = await import('./tools/index.js');
      return options.readOnly ? readTools : [...readTools, ...writeTools];
    },
    views: async () => (await import('./views.js')).views,
    // Handles of one set of repositories are refused by instances serving another (shared MCP_REQUEST_STATE_KEY).
    viewScope: `git:${ceiling.join('\0')}`,
    templates: async () => (await import('./resources/index.js')).templates,
    prompts: async () => (await import('./prompts/index.js')).prompts,
    context(session) {
      let cached: { version: number; areas: Promise<DirectorySet> } | undefined;
      const allowed = () => {
        if (cached?.version !== session.rootsVersion) {
          const version = session.rootsVersion;
          cached = { version, areas: session.roots().then(async (roots) => directorySet(await allowedAreas(ceiling, rootPaths(roots)))) };
        }
        return cached.areas;
      };
      const repos: RepoAccess = {
        allowed,
        async resolve(repoPath) {
          return resolveRepo(repoPath, await allowed(), metadata);
        },
        async repositories() {
          const areas = await allowed();
          const out: Repo[] = [];
          const seen = new Set<string>();
          for (const area of areas.dirs) {
            for (const dir of await repositoriesIn(area)) {
              if (seen.has(dir)) continue;
              seen.add(dir);
              const repo = await resolveRepo(dir, areas, metadata).catch(() => undefined);
              if (repo) out.push(repo);
            }
          }
          return out;
        },
        async byId(id) {
          return (await repos.repositories()).find((repo) => repo.id === id);
        },
      };
      return { repos, git, maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024 };
    },
    // Only subscribed refs are watched (ref files, packed-refs, HEAD; the index for status).
    async watch(uri, changed, ctx) {
      const parsed = parseUri(uri);
      if (!parsed || (parsed.kind !== 'branch' && parsed.kind !== 'head' && parsed.kind !== 'status' && parsed.kind !== 'tag')) return undefined;
      const repo = await ctx.repos.byId(parsed.repo);
      if (!repo) return undefined;
      return watchRef(repo, parsed, changed, { intervalMs: pollIntervalMs, git });
    },
    async canWatch(uri, ctx) {
      const parsed = parseUri(uri);
      if (!parsed) return true;
      return (await ctx.repos.byId(parsed.repo)) !== undefined;
    },
    describeError: describeGitError,
    onClose: () => git.close(),
    pageSize: options.pageSize,
    maxResultBytes: options.maxResultBytes,
    logLevel: options.logLevel,
    logger: options.logger,
  });
}

export { repoId };
