// Issue 26 (SQLite): a write is never wider than asked, and a refused statement has no
// effect. The shared database attack suite (test-harness) runs every class against a
// Chinook-shaped database file and checks each attack twice: it was refused (or asked
// about), and the database is byte-identical with its integrity and foreign keys intact.
import { describe, expect, it } from 'vitest';
import { CHINOOK_ROWS, databaseState, describeDatabaseAttacks, makeChinookDb } from '@mcp-reference/test-harness';
import { open, type QueryOut } from './test-support.js';

describeDatabaseAttacks({
  name: 'sqlite',
  // One engine process: every later call runs on the connections an attack reached.
  open: (file, write, client) => open({ dbPath: file, write, processes: 1 }, client),
  tools: { read: 'read_query', write: 'write_query', others: ['explain_query'] },
});

describe('create_table takes no NUL either', () => {
  it('refuses it and creates nothing', async () => {
    const db = await makeChinookDb();
    const s = await open({ dbPath: db.file, write: true });
    try {
      const before = databaseState(db.file);
      expect(await s.refused('create_table', { query: 'CREATE TABLE x (a)\u0000 garbage' })).toMatch(/NUL/);
      expect(databaseState(db.file)).toEqual(before);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});

describe('a destructive statement runs once the user accepts', () => {
  it('asks for DELETE with a WHERE and deletes just that row; a plain INSERT does not ask', async () => {
    const db = await makeChinookDb();
    const asked: string[] = [];
    const s = await open({ dbPath: db.file, write: true }, { elicit: (message) => (asked.push(message), { action: 'accept', content: { confirm: true } }) });
    try {
      const out = await s.ok<QueryOut>('write_query', { query: 'DELETE FROM InvoiceLine WHERE InvoiceLineId = 1' });
      expect(out.changes).toBe(1);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/deletes rows \(it writes InvoiceLine\)/);
      await s.ok('write_query', { query: "INSERT INTO Genre (Name) VALUES ('Polka')" });
      expect(asked).toHaveLength(1);
      expect(databaseState(db.file).counts.InvoiceLine).toBe(CHINOOK_ROWS.InvoiceLine - 1);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });

  it('an INSERT that fires an existing trigger asks, since the trigger may change other rows', async () => {
    const db = await makeChinookDb();
    db.exec('CREATE TRIGGER wipe AFTER INSERT ON Genre BEGIN DELETE FROM PlaylistTrack; END');
    const asked: string[] = [];
    const s = await open({ dbPath: db.file, write: true }, { elicit: (message) => (asked.push(message), { action: 'decline' }) });
    try {
      const before = databaseState(db.file);
      expect(await s.refused('write_query', { query: "INSERT INTO Genre (Name) VALUES ('Polka')" })).toMatch(/declined/);
      expect(asked[0]).toMatch(/fires triggers/);
      expect(databaseState(db.file)).toEqual(before);
    } finally {
      await s.close();
      await db.cleanup();
    }
  });
});
