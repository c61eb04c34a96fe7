// Whether another process holds a lock on the database that a statement would wait for:
// asked once a statement has been stopped at the time limit, so the answer can name the
// lock instead of blaming the query. Loads better-sqlite3 only then.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * True when a reader (or, with `write`, a writer) could not get its lock at once right
 * now: another connection holds the database's write lock (or is committing).
 */
export function databaseLocked(dbPath: string, write: boolean): boolean {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new Database(dbPath, { readonly: !write, fileMustExist: true, timeout: 0 });
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    if (write) {
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
    }
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
  } finally {
    db?.close();
  }
}
