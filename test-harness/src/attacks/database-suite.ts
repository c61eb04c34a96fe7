// The attack suite every server that runs SQL on a database file inherits: each class of
// database.ts through the server's own tools, checked twice (refused or asked about, AND
// the database byte-identical with integrity and foreign keys intact). It runs on the
// Chinook-shaped database (sqlite-chinook.ts).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERAS } from '../contract.js';
import type { ClientOptions } from '@mcp-reference/shared/client';
import type { ToolSession } from '../tool-session.js';
import type { SqliteFixture } from '../fixtures/sqlite-db.js';
import { CHINOOK_LOVE_TRACKS, CHINOOK_ROWS, makeChinookDb } from './sqlite-chinook.js';
import { DESTRUCTIVE, STATE_PRAGMAS, TEMP_OBJECTS, WIDER_THAN_ASKED, databaseState, type DatabaseState } from './database.js';

export interface DatabaseAttackOptions {
  name: string;
  /**
   * A session on a server of `file`, read-only or with write tools. With write tools,
   * there must be one engine connection per kind, so later calls meet the connections an
   * attack reached (for SQLite: one engine process).
   */
  open(file: string, write: boolean, client: ClientOptions): Promise<ToolSession>;
  /** The tool that reads, the one that writes, and any other tool that takes SQL. */
  tools: { read: string; write: string; others?: string[] };
  /** The refusal of a NUL, of a TEMP object and of a pragma (default: /NUL/, /TEMP/, /not allowed/). */
  messages?: { nul?: RegExp; temp?: RegExp; pragma?: RegExp };
}

const LOVE = "SELECT count(*) FROM Track WHERE Name LIKE '%love%'";

export function describeDatabaseAttacks(options: DatabaseAttackOptions): void {
  const { read, write, others = [] } = options.tools;
  const nul = options.messages?.nul ?? /NUL/;
  const temp = options.messages?.temp ?? /TEMP/;
  const pragma = options.messages?.pragma ?? /not allowed/;

  // Every table runs with both clients (2025 and 2026-07-28), in memory.
  describe.each(ERAS)(`${options.name}: a write is never wider than asked (Chinook, write tools, %s client)`, (era) => {
    let db: SqliteFixture;
    let s: ToolSession;
    const asked: string[] = [];
    let before: DatabaseState;
    beforeAll(async () => {
      db = await makeChinookDb();
      s = await options.open(db.file, true, { era, elicit: (message) => (asked.push(message), { action: 'decline' }) });
    });
    afterAll(async () => {
      await s.close();
      await db.cleanup();
    });
    beforeEach(() => {
      asked.length = 0;
      before = databaseState(db.file);
    });
    afterEach(() => {
      const after = databaseState(db.file);
      expect(after).toEqual(before);
      expect(after.integrity).toBe('ok');
      expect(after.foreignKeyViolations).toBe(0);
    });

    it.each(WIDER_THAN_ASKED)('refuses a NUL inside a statement ($name) and changes nothing', async ({ query }) => {
      expect(await s.refused(write, { query })).toMatch(nul);
      expect(await s.refused(read, { query: 'SELECT count(*) FROM Track\u0000 WHERE 0' })).toMatch(nul);
      for (const tool of others) expect(await s.refused(tool, { query: 'SELECT * FROM Track\u0000 WHERE 0' }), tool).toMatch(nul);
      expect(asked).toEqual([]);
    });

    it.each(DESTRUCTIVE)('asks before $name, and changes nothing when the user declines', async ({ query }) => {
      expect(await s.refused(write, { query })).toMatch(/declined/);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain(query);
    });

    it.each(TEMP_OBJECTS)('refuses $name, which would outlive the call unseen', async ({ query }) => {
      expect(await s.refused(write, { query })).toMatch(temp);
    });

    it('no TEMP trigger is left to fire: the next innocent INSERT changes only its row', async () => {
      await s.refused(write, { query: TEMP_OBJECTS[0].query });
      await s.ok(write, { query: "INSERT INTO Genre (Name) VALUES ('Polka')" });
      expect(databaseState(db.file).counts).toEqual({ ...before.counts, Genre: CHINOOK_ROWS.Genre + 1 });
      db.exec("DELETE FROM Genre WHERE Name = 'Polka'");
      before = databaseState(db.file);
    });
  });

  describe.each(
    ERAS.flatMap((era) => [
      { mode: 'read-only', writable: false, era },
      { mode: 'write tools', writable: true, era },
    ]),
  )(`${options.name}: a refused PRAGMA has no effect on any connection ($mode, $era client)`, ({ writable, era }) => {
    let db: SqliteFixture;
    let s: ToolSession;
    beforeAll(async () => {
      db = await makeChinookDb();
      s = await options.open(db.file, writable, { era });
    });
    afterAll(async () => {
      await s.close();
      await db.cleanup();
    });

    it('refuses each pragma before it takes effect, and every connection behaves as before', async () => {
      const before = databaseState(db.file);
      const rows = async (query: string) => ((await s.ok<{ rows: unknown[][] }>(read, { query })).rows);
      expect(await rows(LOVE)).toEqual([[CHINOOK_LOVE_TRACKS]]);
      for (const tool of [read, ...(writable ? [write] : []), ...others]) {
        for (const query of STATE_PRAGMAS) expect(await s.refused(tool, { query }), `${tool}: ${query}`).toMatch(new RegExp(`${pragma.source}|explain_query tool`));
      }
      expect(databaseState(db.file)).toEqual(before);
      // case_sensitive_like: LIKE still ignores case.
      expect(await rows(LOVE)).toEqual([[CHINOOK_LOVE_TRACKS]]);
      // reverse_unordered_selects: rows still come in rowid order.
      expect(await rows('SELECT GenreId FROM Genre LIMIT 3')).toEqual([[1], [2], [3]]);
      // locking_mode = EXCLUSIVE: after those reads, another process still writes at once.
      db.exec("INSERT INTO Genre (Name) VALUES ('Other process')");
      if (!writable) return;
      // foreign_keys: a referenced row still cannot be deleted.
      expect(await s.refused(write, { query: 'DELETE FROM Genre WHERE GenreId = 1' })).toMatch(/FOREIGN KEY/);
      // ignore_check_constraints: a forbidden row is still refused.
      expect(await s.refused(write, { query: 'INSERT INTO InvoiceLine VALUES (99999, 1, 1, 0.99, 0)' })).toMatch(/CHECK constraint/);
      // query_only: writes still work.
      await s.ok(write, { query: "INSERT INTO Genre (Name) VALUES ('Polka')" });
      const after = databaseState(db.file);
      expect(after.integrity).toBe('ok');
      expect(after.foreignKeyViolations).toBe(0);
      expect(after.counts).toEqual({ ...before.counts, Genre: CHINOOK_ROWS.Genre + 2 });
    });
  });
}
