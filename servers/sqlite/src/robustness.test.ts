import { readdir, readFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { describeServerRobustness, makeSqliteDb, type CallAnswer } from '@mcp-reference/test-harness';
import { createSqliteServer } from './server.js';
import { bin } from './test-support.js';

/** CPU ticks used so far by the engine processes of the database at `file` (their command line names it). */
async function engineTicks(file: string): Promise<number> {
  let ticks = 0;
  for (const pid of (await readdir('/proc').catch(() => [])).filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('engineMain(') || !cmdline.includes(file)) continue;
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
}

describeServerRobustness('sqlite', {
  bin,
  async setup() {
    const db = await makeSqliteDb(`
      CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);
      INSERT INTO users (name) VALUES ('ada'), ('grace');
      CREATE TABLE lines (id INTEGER PRIMARY KEY, body TEXT);
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 400) INSERT INTO lines SELECT x, printf('%.*c', 50, 'x') FROM c;
      CREATE TABLE mixed (id INTEGER PRIMARY KEY, t TEXT, r REAL, n INTEGER);
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500)
        INSERT INTO mixed SELECT x,
          CASE x % 4 WHEN 0 THEN NULL WHEN 1 THEN 'é€😀 ' || x WHEN 2 THEN printf('%.*c', x, 'y') ELSE char(13, 10) || x END,
          x / 7.0, CASE WHEN x % 5 = 0 THEN NULL ELSE x * 1000003 END
        FROM c;
      CREATE TABLE asked (id INTEGER PRIMARY KEY, note TEXT);
      INSERT INTO asked (note) VALUES ('one'), ('two'), ('three');
      CREATE TABLE asked_log (entry TEXT);
      INSERT INTO asked_log VALUES ('kept');
    `);
    /** The two tables the confirmation check is about, read on a connection of its own. */
    const askedTables = () => {
      const raw = new Database(db.file, { readonly: true });
      try {
        return JSON.stringify([raw.prepare('SELECT * FROM asked').raw(true).all(), raw.prepare('SELECT * FROM asked_log').raw(true).all()]);
      } finally {
        raw.close();
      }
    };
    /** Rows as JSON lines: what the pages of read_query put together must be. */
    const jsonLines = (rows: unknown[][]) => rows.map((row) => `${JSON.stringify(row)}\n`).join('');
    return {
      args: ['--db-path', db.file, '--timeout-ms', '120000'],
      create: ({ maxResultBytes }) => createSqliteServer({ dbPath: db.file, maxResultBytes, logLevel: 'error' }),
      quickCall: { name: 'read_query', arguments: { query: 'SELECT name FROM users WHERE id = ?', params: [1] } },
      // About 30 KB of rows against a 2 KB budget.
      bigCall: { name: 'read_query', arguments: { query: 'SELECT * FROM lines' }, maxResultBytes: 2_048 },
      // A recursive CTE that counts forever, inside SQLite, in an engine process.
      slowCall: { name: 'read_query', arguments: { query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c' } },
      // The work runs in an engine process, not in the server's: it has stopped when those use no more CPU.
      async workStopped() {
        const before = await engineTicks(db.file);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return (await engineTicks(db.file)) - before <= 3;
      },
      // 500 rows of text, reals, integers and NULLs in pages of 37, by nextCursor: the pages are the table.
      continuations: [
        {
          label: 'a table of 500 rows in pages of 37',
          create: () => createSqliteServer({ dbPath: db.file, maxRows: 37, logLevel: 'error' }),
          first: { name: 'read_query', arguments: { query: 'SELECT * FROM mixed' } },
          next: (answer: CallAnswer) => {
            const cursor = answer.structuredContent?.nextCursor as string | undefined;
            return cursor === undefined ? undefined : { name: 'read_query', arguments: { query: 'SELECT * FROM mixed', cursor } };
          },
          piece: (answer: CallAnswer) => jsonLines(answer.structuredContent?.rows as unknown[][]),
          whole: () => {
            const raw = new Database(db.file, { readonly: true });
            try {
              return jsonLines(raw.prepare('SELECT * FROM mixed').raw(true).all() as unknown[][]);
            } finally {
              raw.close();
            }
          },
          minPieces: 10,
        },
      ],
      // A DELETE asks first; while the user thinks, another session adds a trigger that would
      // make it also empty another table, which the user was not asked about.
      confirmation: {
        create: () => createSqliteServer({ dbPath: db.file, write: true, logLevel: 'error' }),
        call: { name: 'write_query', arguments: { query: 'DELETE FROM asked WHERE id = 1' } },
        meanwhile: { name: 'write_query', arguments: { query: 'CREATE TRIGGER asked_wipe AFTER DELETE ON asked BEGIN DELETE FROM asked_log; END' } },
        state: askedTables,
      },
      cleanup: db.cleanup,
    };
  },
});
