import { createServer, type Logger, type LogLevel, type McpServer } from '@mcp-reference/shared';
import type { FsContext } from './context.js';
import { createPathPolicy } from './lib/path-policy.js';
import { allowedDirectories } from './lib/access.js';
import { createRecentEdits } from './lib/recent-edits.js';
import { createPathLocks } from './lib/path-locks.js';
import { createByteBudget } from './lib/byte-budget.js';
import { createListingSnapshots } from './lib/listing-snapshots.js';
import { createGlobSettings } from './lib/case-sensitivity.js';
import { FsError } from './lib/errors.js';
import { canWatchFileUri, watchFileUri } from './resources/watch.js';
import pkg from '../package.json' with { type: 'json' };

export interface CreateFilesystemServerOptions {
  /** Allowed directories as absolute real paths (the CLI resolves them); may be empty. */
  dirs: string[];
  /**
   * Directories the command line named that cannot be used (`path: reason`). When every
   * one was unusable, nothing is allowed, whatever the client's roots say: the operator
   * meant a ceiling, and a stale one must neither stop the server nor vanish into "no DIR".
   */
  unusableDirs?: string[];
  readOnly?: boolean;
  maxReadBytes?: number;
  /** Bytes of file content all reads together hold at once (default 32 MiB); more wait their turn. */
  maxReadBytesInFlight?: number;
  pageSize?: number;
  /** Largest serialized tool result (the base's budget); the tools keep well under the default. */
  maxResultBytes?: number;
  logLevel?: LogLevel;
  logger?: Logger;
  /** How globs read a backslash (a separator on 'win32'); default process.platform. For tests. */
  platform?: NodeJS.Platform;
}

/**
 * The filesystem server: the official server's tools, confined to the allowed
 * directories of each session (CLI ceiling narrowed by client roots), plus grep, copy,
 * file resources with subscriptions, and prompts.
 */
export function createFilesystemServer(options: CreateFilesystemServerOptions): McpServer {
  const ceiling = [...options.dirs];
  const recentEdits = createRecentEdits();
  const locks = createPathLocks();
  const readBudget = createByteBudget(options.maxReadBytesInFlight ?? 32 * 1024 * 1024);
  const listings = createListingSnapshots<unknown>();
  const globs = createGlobSettings(options.platform);
  return createServer<FsContext>({
    name: 'mcp-server-filesystem',
    version: pkg.version,
    instructions:
      'Files under the allowed directories (see list_allowed_directories). Paths may be absolute or relative to the first allowed directory. ' +
      'Use grep_files to search contents and search_files to find names; large results come in pages (pass nextCursor back as cursor).',
    // Loaded on first use, so their schemas are not built before `initialize` is answered.
    async tools() {
      const { readTools, writeTools } = await import('./tools/index.js');
      return options.readOnly ? readTools : [...readTools, ...writeTools];
    },
    views: async () => (await import('./views.js')).views,
    templates: async () => (await import('./resources/index.js')).templates,
    async prompts() {
      const { readPrompts, writePrompts } = await import('./prompts/index.js');
      return options.readOnly ? readPrompts : [...readPrompts, ...writePrompts];
    },
    context(session) {
      // Recomputed only when the session's roots change.
      let cached: { version: number; dirs: Promise<string[]> } | undefined;
      const getAllowed = () => {
        if (ceiling.length === 0 && options.unusableDirs?.length) {
          throw new FsError(
            'NO_ALLOWED_DIRECTORIES',
            `None of the directories this server was started with can be used (${options.unusableDirs.join('; ')}), so no path can be. ` +
              'Fix the DIR arguments in the client\'s configuration and restart the server.',
          );
        }
        if (cached?.version !== session.rootsVersion) {
          const version = session.rootsVersion;
          cached = { version, dirs: session.roots().then((roots) => allowedDirectories(ceiling, roots)) };
        }
        return cached.dirs;
      };
      return { policy: createPathPolicy(getAllowed), maxReadBytes: options.maxReadBytes ?? 10 * 1024 * 1024, recentEdits, locks, readBudget, listings, globs };
    },
    // Only subscribed paths are watched: a file (or, until it exists, its directory), or a directory's direct entries.
    watch: (uri, changed, ctx) => watchFileUri(uri, changed, ctx),
    // A watcher is shared by the sessions subscribed to it; each must be allowed the path.
    canWatch: (uri, ctx) => canWatchFileUri(uri, ctx),
    describeError: (error) => (error instanceof FsError ? error.message : undefined),
    pageSize: options.pageSize,
    maxResultBytes: options.maxResultBytes,
    logLevel: options.logLevel,
    logger: options.logger,
  });
}
