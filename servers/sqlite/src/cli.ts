import { runCli, UsageError } from '@mcp-reference/shared';
import { createSqliteServer } from './server.js';
import { sqliteOptions } from './options.js';
import { dbPathProblem } from './lib/db-path.js';
import pkg from '../package.json' with { type: 'json' };

void runCli(
  {
    name: 'mcp-server-sqlite',
    version: pkg.version,
    description: pkg.description,
    options: sqliteOptions,
    epilog:
      'Read-only unless --write is given; read_query reads only in every mode.\n' +
      'Example: mcp-server-sqlite --db-path ~/data/shop.db --timeout-ms 10000',
  },
  (options, logger) => {
    const problem = dbPathProblem(options.dbPath, options.write);
    if (problem) throw new UsageError(`--db-path ${options.dbPath}: ${problem}`);
    return createSqliteServer({ ...options, logLevel: options.logLevel as 'info', logger });
  },
);
