// Attack classes every server that runs SQL against a database file must refuse, and the
// check that a refusal had no effect. A new database server inherits the pattern: run each
// class through its tools, then compare `databaseState` before and after.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** A write that is wider than it looks: the text judged is not the text run, or its WHERE is always true. */
export const WIDER_THAN_ASKED = [
  { name: 'NUL truncates an UPDATE to every row', query: 'UPDATE Track SET Composer = NULL\u0000 WHERE TrackId = 1' },
  { name: 'NUL truncates a DELETE to every row', query: 'DELETE FROM InvoiceLine\u0000 WHERE InvoiceLineId = 1' },
] as const;

/** Statements that remove or rewrite data or schema: each must ask the user first. */
export const DESTRUCTIVE = [
  { name: 'DELETE with an always-true WHERE', query: 'DELETE FROM InvoiceLine WHERE 1' },
  { name: 'UPDATE with an always-true WHERE', query: 'UPDATE Track SET Composer = NULL WHERE 1 = 1' },
  { name: 'DELETE of one row', query: 'DELETE FROM InvoiceLine WHERE InvoiceLineId = 1' },
  { name: 'ALTER TABLE DROP COLUMN', query: 'ALTER TABLE Track DROP COLUMN Composer' },
  { name: 'ALTER TABLE RENAME', query: 'ALTER TABLE Genre RENAME TO Genre2' },
  { name: 'a trigger that wipes a table on the next innocent INSERT', query: 'CREATE TRIGGER wipe AFTER INSERT ON Genre BEGIN DELETE FROM PlaylistTrack; END' },
  { name: 'INSERT OR REPLACE over an existing row', query: "INSERT OR REPLACE INTO Genre (GenreId, Name) VALUES (1, 'x')" },
  { name: 'an upsert', query: "INSERT INTO Genre (GenreId, Name) VALUES (1, 'x') ON CONFLICT DO UPDATE SET Name = excluded.Name" },
  { name: 'DROP TABLE', query: 'DROP TABLE PlaylistTrack' },
] as const;

/** Objects that would outlive the call invisibly in the server's connection. */
export const TEMP_OBJECTS = [
  { name: 'a TEMP trigger', query: 'CREATE TEMP TRIGGER wipe AFTER INSERT ON Genre BEGIN DELETE FROM PlaylistTrack; END' },
  { name: 'a TEMP table', query: 'CREATE TEMP TABLE scratch (a)' },
  { name: 'a TEMP view', query: 'CREATE TEMP VIEW v AS SELECT 1' },
  { name: 'a trigger in the temp schema by name', query: 'CREATE TRIGGER temp.wipe AFTER INSERT ON main.Genre BEGIN DELETE FROM PlaylistTrack; END' },
] as const;

/**
 * Pragmas that change a connection's state, each with how to see that it did not. A server
 * must refuse them before SQLite prepares them (SQLite applies many at prepare time).
 */
export const STATE_PRAGMAS = [
  'PRAGMA foreign_keys = OFF',
  'PRAGMA ignore_check_constraints = ON',
  'PRAGMA query_only = ON',
  'PRAGMA locking_mode = EXCLUSIVE',
  'PRAGMA case_sensitive_like = ON',
  'PRAGMA recursive_triggers = ON',
  'PRAGMA defer_foreign_keys = ON',
  'PRAGMA reverse_unordered_selects = ON',
  'PRAGMA writable_schema = ON',
  'PRAGMA journal_mode = MEMORY',
  ';PRAGMA foreign_keys = OFF',
  '/* x */ PRAGMA main.foreign_keys = 0',
  'EXPLAIN PRAGMA foreign_keys = OFF',
  'EXPLAIN QUERY PLAN PRAGMA case_sensitive_like = ON',
] as const;

export interface DatabaseState {
  /** sha256 of every file in the database's directory (the file, its journal or WAL). */
  files: Record<string, string>;
  integrity: string;
  foreignKeyViolations: number;
  counts: Record<string, number>;
}

/** What a refused attack must leave as it was, read on a fresh connection of this process. */
export function databaseState(file: string): DatabaseState {
  const dir = path.dirname(file);
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) files[name] = createHash('sha256').update(readFileSync(path.join(dir, name))).digest('hex');
  const db = new Database(file, { readonly: true, timeout: 5000 });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = db.prepare(`SELECT count(*) FROM "${table.replaceAll('"', '""')}"`).pluck().get() as number;
    return {
      files,
      integrity: db.prepare('PRAGMA integrity_check').pluck().get() as string,
      foreignKeyViolations: db.prepare('PRAGMA foreign_key_check').all().length,
      counts,
    };
  } finally {
    db.close();
  }
}
