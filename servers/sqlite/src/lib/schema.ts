// The database's schema as the engine reports it, and lookups that check a client's
// identifiers against it (they are quoted by the engine, never spliced).
import { SqlError } from './errors.js';

export interface Column {
  name: string;
  type: string;
  notNull: boolean;
  defaultValue: string | null;
  /** Position in the primary key (1-based), 0 when not part of it. */
  pk: number;
}

export interface Table {
  name: string;
  type: 'table' | 'view';
  sql: string | null;
  columns: Column[];
}

export interface Index {
  name: string;
  table: string;
  sql: string | null;
  unique: boolean;
  columns: string[];
}

export interface Schema {
  tables: Table[];
  indexes: Index[];
  triggers: { name: string; table: string; sql: string | null }[];
}

/** The table or view named exactly `name` (or, failing that, differing only in case, as SQLite matches). */
export function findTable(schema: Schema, name: string): Table {
  // Lowered once: once a table, a 2 MB name against 20,000 tables took 40 s of the event loop.
  const lower = name.toLowerCase();
  const table = schema.tables.find((t) => t.name === name) ?? schema.tables.find((t) => t.name.toLowerCase() === lower);
  if (!table) {
    const known = schema.tables.map((t) => t.name);
    const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
    throw new SqlError(
      `There is no table or view named "${shown}". ` +
        (known.length ? `Known: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''} (see list_tables or search_schema).` : 'The database has no tables.'),
    );
  }
  return table;
}

/** The CREATE statements of everything, as one SQL script. */
export function schemaSql(schema: Schema): string {
  const statements = [...schema.tables, ...schema.indexes, ...schema.triggers].map((o) => o.sql).filter((sql): sql is string => !!sql);
  return statements.length ? `${statements.join(';\n\n')};\n` : '-- The database is empty.\n';
}

/** Tables and columns whose names contain `term` (case-insensitive). */
export function searchSchema(schema: Schema, term: string): { table: string; type: string; column?: string; columnType?: string }[] {
  const needle = term.toLowerCase();
  const hits: { table: string; type: string; column?: string; columnType?: string }[] = [];
  for (const table of schema.tables) {
    if (table.name.toLowerCase().includes(needle)) hits.push({ table: table.name, type: table.type });
    for (const column of table.columns) {
      if (column.name.toLowerCase().includes(needle)) hits.push({ table: table.name, type: table.type, column: column.name, columnType: column.type });
    }
  }
  return hits;
}
