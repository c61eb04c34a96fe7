import { z } from 'zod';

/** The server's own flags; the common ones (--http, --port, --log-level...) come from the base. */
export const sqliteOptions = z.object({
  dbPath: z.string().min(1).describe('The SQLite database file (required; created only with --write)'),
  write: z.boolean().default(false).describe('Add write_query and create_table, on a read-write connection used only by them'),
  timeoutMs: z.number().int().min(100).max(3_600_000).default(30_000).describe('Time limit of each query, in ms (a runaway query is stopped)'),
  maxRows: z.number().int().min(1).max(1_000_000).default(10_000).describe('Most rows in one result page; more come with a cursor and truncated: true'),
});

export type SqliteOptions = z.output<typeof sqliteOptions>;
