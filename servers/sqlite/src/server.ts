import path from 'node:path';
import { createServer, type Logger, type LogLevel, type McpServer } from '@mcp-reference/shared';
import type { SqliteContext } from './context.js';
import { createEngine, engineFor } from './lib/engine.js';
import { createQuickReader } from './lib/quick-reader.js';
import { createInsights } from './lib/insights.js';
import { createChangeWatch, type Fingerprints } from './lib/change-watch.js';
import { SqlError } from './lib/errors.js';
import { createSchemaSource } from './lib/schema-source.js';
import { SCHEMA_URI, tableOfUri } from './lib/uris.js';
import { CELL_CHARS } from './lib/engine-child.js';
import pkg from '../package.json' with { type: 'json' };

export interface CreateSqliteServerOptions {
  /** The database file; it must exist unless `write` is set (then it is created). */
  dbPath: string;
  write?: boolean;
  /** Time limit of each query (default 30 s). */
  timeoutMs?: number;
  /** Most rows in one result page (default 10,000). */
  maxRows?: number;
  /** Rough ceiling of a result page's JSON (default 2 MB), whatever the rows hold. */
  maxPageBytes?: number;
  /** Engine processes that may run queries at once (default 3). */
  processes?: number;
  /** Budget of one serialized result (the base's default is below the SDK client's 10 MiB). */
  maxResultBytes?: number;
  pageSize?: number;
  logLevel?: LogLevel;
  logger?: Logger;
}

/**
 * The SQLite server: the official server's tools, read-only unless `write` is set (and
 * then read_query still reads only), every statement checked by SQLite itself and run in
 * a child process that a time limit or cancellation kills; tables as resources with
 * subscriptions that fire whoever changed them.
 */
export function createSqliteServer(options: CreateSqliteServerOptions): McpServer {
  const dbPath = path.resolve(options.dbPath);
  const write = options.write ?? false;
  const limits = { rows: options.maxRows ?? 10_000, bytes: options.maxPageBytes ?? 2 * 1024 * 1024, cellBytes: CELL_CHARS };
  const engine = createEngine({
    dbPath,
    write,
    timeoutMs: options.timeoutMs ?? 30_000,
    limits,
    processes: options.processes,
  });
  const insights = createInsights();
  // Bounded work (a small schema, straight-line statements) is answered here; the rest by the engine.
  const quick = createQuickReader({ dbPath, limits });
  const schema = createSchemaSource(quick, engine);
  const changes = createChangeWatch({
    dbPath,
    fingerprint: (tables) => engine.call<Fingerprints>('fingerprint', { tables }),
    onError: (error) => options.logger?.log('debug', `change check failed: ${String(error)}`),
  });
  let server: McpServer;
  server = createServer<SqliteContext>({
    name: 'mcp-server-sqlite',
    version: pkg.version,
    instructions:
      `SQLite database ${path.basename(dbPath)}${write ? '' : ' (read-only)'}. Start with list_tables or search_schema, then describe_table; ` +
      'run one statement per read_query call and bind values with params. Large results come in pages (pass nextCursor back as cursor).',
    // Loaded on first use, so their schemas are not built before `initialize` is answered.
    async tools() {
      const { readTools, writeTools } = await import('./tools/index.js');
      return write ? [...readTools, ...writeTools] : readTools;
    },
    resources: async () => (await import('./resources/index.js')).resources,
    templates: async () => (await import('./resources/index.js')).templates,
    prompts: async () => (await import('./prompts/index.js')).prompts,
    views: async () => (await import('./views.js')).views,
    // A view's handle names a query of this database: instances sharing MCP_REQUEST_STATE_KEY but
    // serving another database refuse it.
    viewScope: `sqlite:${dbPath}`,
    context: (session) => ({ engine: engineFor(engine, session.id), quick, schema, insights, write, dbPath, wrote: () => changes.poke() }),
    // Only subscribed tables (and the schema) are fingerprinted, and only while subscribed.
    async watch(uri, changed) {
      if (uri === SCHEMA_URI) {
        return changes.watch(undefined, () => {
          changed();
          server.notifyResourceListChanged();
        });
      }
      const table = tableOfUri(uri);
      return table === undefined ? undefined : changes.watch(table, changed);
    },
    describeError: (error) => (error instanceof SqlError ? error.message : undefined),
    useRoots: false,
    onClose: async () => {
      changes.close();
      quick.close();
      await engine.close();
    },
    maxResultBytes: options.maxResultBytes,
    pageSize: options.pageSize,
    logLevel: options.logLevel,
    logger: options.logger,
  });
  return server;
}
