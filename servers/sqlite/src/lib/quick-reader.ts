// What the server process answers itself, without the round trip to an engine process:
// work whose cost is bounded by construction, so no time limit can be needed for it.
// - The schema (list_tables, describe_table, ...): fixed statements over sqlite_schema.
// - A read statement whose compiled program has no loop and calls no function: SQLite's
//   EXPLAIN shows only straight-line opcodes that jump forward (constants, bound values,
//   a row found by its rowid), so it runs each instruction at most once and returns at
//   most a few rows. SELECT 1, VALUES-free constant expressions, PRAGMA user_version and
//   primary-key lookups qualify.
// - A read statement that walks one table or index and returns a row on every step of
//   the walk (no filter that skips rows, no OFFSET, no second loop, no function), with a
//   LIMIT within one page: `SELECT * FROM t LIMIT 100`, `... WHERE indexed > ? LIMIT 10`
//   (and `... ORDER BY indexed LIMIT 10`, but see the last point). Its work is bounded by
//   the rows it returns, and this reader stops at one page (rows and bytes): a result
//   that does not fit is handed to the engine, having cost at most a page.
//   Anything that filters, sorts, counts, recurses or calls a function goes to an engine
//   process, which the time limit can kill.
// - And only when the cells it returns from tables add up to at most a page: a cell can
//   hold up to 1 GB, and reading one of 300 MB here held every session for 2.5 s and grew
//   this process by 700 MB. Their lengths are read first, without their content
//   (lengthProbe); a statement whose cells cannot be measured so (an ORDER BY with a
//   LIMIT, an expression over a column) goes to the engine. (Not quite without: a text
//   stored in a column declared REAL is loaded to be measured.)
// The connection is read-only and never waits for a lock (busy timeout 0): a lock, an
// error of any kind, or a changed schema sends the call to the engine, which answers it
// as it always did. Nothing here decides what is allowed: the same guard
// (inspectStatement) runs first, and its refusals are the engine's.
import { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { bindArgs, inspectStatement, readSchema, takePage, type PageLimits } from './engine-child.js';

/** Opcodes that do a bounded amount of work each time they run. */
const STRAIGHT = new Set([
  'Init', 'Goto', 'Halt', 'HaltIfNull', 'Noop', 'Explain', 'Transaction', 'TableLock', 'ReadCookie', 'OpenRead', 'Close',
  'SeekRowid', 'NotExists', 'Column', 'Rowid', 'Affinity', 'RealAffinity', 'Cast', 'MustBeInt', 'ResultRow',
  'Integer', 'Int64', 'Real', 'String8', 'String', 'Null', 'SoftNull', 'Blob', 'Variable', 'Move', 'Copy', 'SCopy', 'IntCopy',
  'Add', 'Subtract', 'Multiply', 'Divide', 'Remainder', 'Concat', 'BitAnd', 'BitOr', 'ShiftLeft', 'ShiftRight', 'BitNot', 'Not', 'IsTrue',
  'Eq', 'Ne', 'Lt', 'Le', 'Gt', 'Ge', 'If', 'IfNot', 'IsNull', 'NotNull', 'ZeroOrNull', 'Once',
]);

/** Jumps whose target is p2. */
const JUMPS = new Set(['Init', 'Goto', 'SeekRowid', 'NotExists', 'MustBeInt', 'Eq', 'Ne', 'Lt', 'Le', 'Gt', 'Ge', 'If', 'IfNot', 'IsNull', 'NotNull', 'Once', 'HaltIfNull']);

export interface ProgramOp {
  addr: number;
  opcode: string;
  p1: number;
  p2: number;
  p3: number;
  p5: number;
}

/**
 * Whether a program (EXPLAIN rows) runs each instruction at most once: only STRAIGHT
 * opcodes, every jump forward, except the closing Goto that returns from the
 * transaction preamble to the start (run once), and tables opened in "main" only.
 */
export function straightLine(program: ProgramOp[]): boolean {
  const last = program.length - 1;
  return program.every((op, i) => {
    if (!STRAIGHT.has(op.opcode)) return false;
    if (op.opcode === 'OpenRead' && op.p3 !== 0) return false;
    if (!JUMPS.has(op.opcode) || op.p2 === 0) return true;
    if (op.p2 > op.addr) return true;
    return i === last && op.opcode === 'Goto' && program[0]?.opcode === 'Init' && program[0].p2 > op.p2;
  });
}

/** What a scan loop adds to STRAIGHT: walking a cursor, seeking it, ending the walk at a bound or a LIMIT. */
const SCAN = new Set(['Rewind', 'Last', 'Next', 'Prev', 'SeekGT', 'SeekGE', 'SeekLT', 'SeekLE', 'IdxGT', 'IdxGE', 'IdxLT', 'IdxLE', 'DeferredSeek', 'IdxRowid', 'DecrJumpZero']);

/** Scan opcodes whose p2 is a jump target. */
const SCAN_JUMPS = new Set(['Rewind', 'Last', 'Next', 'Prev', 'SeekGT', 'SeekGE', 'SeekLT', 'SeekLE', 'IdxGT', 'IdxGE', 'IdxLT', 'IdxLE', 'DecrJumpZero']);

/**
 * Whether a program is one walk of a cursor that returns a row on every step: one loop
 * (a Next or Prev jumping back to its body), every other jump forward; inside the body a
 * ResultRow that no jump before it skips while staying in the loop (a jump may only leave
 * the loop, which ends the walk). Each step then costs a bounded amount of work and
 * yields a row, so reading n rows runs the body at most n + 1 times, however large the
 * table. Tables opened in "main" only.
 */
export function rowPerStep(program: ProgramOp[]): boolean {
  const last = program.length - 1;
  let loop: { start: number; end: number } | undefined;
  for (const [i, op] of program.entries()) {
    if (!STRAIGHT.has(op.opcode) && !SCAN.has(op.opcode)) return false;
    if (op.opcode === 'OpenRead' && op.p3 !== 0) return false;
    const jumps = JUMPS.has(op.opcode) || SCAN_JUMPS.has(op.opcode);
    if (!jumps || op.p2 === 0 || op.p2 > op.addr) continue;
    if (i === last && op.opcode === 'Goto' && program[0]?.opcode === 'Init' && program[0].p2 > op.p2) continue;
    if ((op.opcode !== 'Next' && op.opcode !== 'Prev') || loop) return false;
    loop = { start: op.p2, end: op.addr };
  }
  if (!loop) return false;
  const { start, end } = loop;
  const body = program.filter((op) => op.addr >= start && op.addr < end);
  const results = body.filter((op) => op.opcode === 'ResultRow');
  if (results.length !== 1) return false;
  const row = results[0].addr;
  // Before the row: a jump lands before it or leaves the loop; one that lands between the
  // row and the loop's end skips a row and keeps walking (a filter, an OFFSET).
  return body.every((op) => op.addr >= row || !(JUMPS.has(op.opcode) || SCAN_JUMPS.has(op.opcode)) || op.p2 === 0 || op.p2 <= row || op.p2 > end);
}

/** The LIMIT of a program, when it is a constant (an Integer loaded into the register a DecrJumpZero counts down). */
export function constantLimit(program: ProgramOp[]): number | undefined {
  const counter = program.find((op) => op.opcode === 'DecrJumpZero');
  if (!counter) return undefined;
  const loads = program.filter((op) => op.opcode === 'Integer' && op.p2 === counter.p1);
  return loads.length === 1 ? loads[0].p1 : undefined;
}

/**
 * Whether rows read as plain numbers are exact: an integer beyond 2^53 may have lost
 * digits (a REAL that large is sent to the engine too, which reads it exactly as well).
 */
export function exact(rows: unknown[][]): boolean {
  for (const row of rows) {
    for (const cell of row) if (typeof cell === 'number' && (cell > Number.MAX_SAFE_INTEGER || cell < Number.MIN_SAFE_INTEGER)) return false;
  }
  return true;
}

/** Column's p5 bits (OPFLAG_BYTELENARG): only the value's length in bytes is used (octet_length). */
const BYTE_LENGTH_ONLY = 0xc0;
/** Column's p5 bits (OPFLAG_TYPEOFARG): only the value's type is used (typeof). */
const TYPE_ONLY = 0x80;

/**
 * A statement that returns, for each row `sql` returns, about how many bytes its cells
 * hold, without reading them: the length in bytes of a text or blob (SQLite's typeof and
 * octet_length of a column read the record header only: 0.1 ms for a cell of 300 MB), 8
 * for a number or NULL. It is `sql` as a common table expression whose columns are
 * measured, one number per row (reading 10,000 rows of five columns this way took 5-6 ms,
 * the rows themselves 12-16 ms). Undefined unless SQLite flattens it into the same walk of
 * the same tables, reading no cell's content: where it would not (a sort, a coroutine, an
 * expression or a filter over a column), the engine runs the statement.
 */
export function lengthProbe(conn: BetterSqlite3.Database, sql: string, columnCount: number, args: unknown[], program: ProgramOp[]): BetterSqlite3.Statement | undefined {
  const names = Array.from({ length: columnCount }, (_, i) => `c${i}`);
  // A trailing ";" would end the statement inside the parentheses; a trailing comment is ended by the newline.
  const body = sql.replace(/[\s;]+$/, '');
  const size = (name: string) => `(CASE WHEN typeof(${name}) IN ('text', 'blob') THEN octet_length(${name}) ELSE 8 END)`;
  // A name no table is likely to have: the statement's own tables keep theirs inside the expression.
  const probeSql = `WITH mcp_length_probe(${names.join(', ')}) AS (${body}\n) SELECT ${names.map(size).join(' + ')} FROM mcp_length_probe`;
  try {
    const probe = conn.prepare(probeSql);
    const probeProgram = conn.prepare(`EXPLAIN ${probeSql}`).all(...args) as ProgramOp[];
    const roots = (ops: ProgramOp[]) => ops.filter((op) => op.opcode === 'OpenRead').map((op) => op.p2).sort((a, b) => a - b).join(',');
    // SQLite loads a value of a column declared REAL to apply the affinity (an integer stored
    // there reads as a real) before octet_length sees it. Such a value is 8 bytes unless a
    // text or blob was stored in a REAL column: the one case measured by reading it.
    const lengthsOnly = probeProgram.every(
      (op, i) =>
        op.opcode !== 'Column' ||
        (op.p5 & BYTE_LENGTH_ONLY) === BYTE_LENGTH_ONLY ||
        (op.p5 & BYTE_LENGTH_ONLY) === TYPE_ONLY ||
        (probeProgram[i + 1]?.opcode === 'RealAffinity' && probeProgram[i + 1].p1 === op.p3),
    );
    const sameWalk = roots(probeProgram) === roots(program) && !probeProgram.some((op) => op.opcode === 'InitCoroutine' || op.opcode === 'OpenEphemeral' || op.opcode === 'SorterOpen');
    return lengthsOnly && sameWalk ? probe.pluck() : undefined;
  } catch {
    return undefined;
  }
}

export interface QuickPage {
  columns: { name: string; type: string | null }[];
  rows: unknown[][];
  tables: string[];
  cuts: number[][];
}

export interface QuickReader {
  /** The schema, or undefined when the engine must read it (no file, a lock, or more than MAX_QUICK_SCHEMA_OBJECTS objects). */
  schema(): unknown;
  /** The database's schema version (PRAGMA schema_version), or undefined when it cannot be read here. */
  schemaVersion(): unknown;
  /** The whole result of a bounded read statement, or undefined when the engine must run it. */
  read(sql: string, params: unknown): QuickPage | undefined;
  close(): void;
}

interface Entry {
  /** Undefined: not bounded, the engine runs it. */
  stmt?: BetterSqlite3.Statement;
  /** The byte length of every cell `stmt` reads from a table, for the same rows, read without the cells (see lengthProbe). */
  probe?: BetterSqlite3.Statement;
  /** A walk with a row per step (rowPerStep): read a page at most, else the engine runs it. */
  scan?: boolean;
  columns: QuickPage['columns'];
  tables: string[];
  /** The schema version it was judged under, when it reads tables (a schema change can turn a table into a view). */
  version?: unknown;
}

/** Statements longer than this are not looked at here (preparing one costs as much as the trip). */
const MAX_SQL = 4096;

/**
 * A schema of more objects (tables, views, indexes, triggers) is read by the engine: the
 * columns of each table cost about 0.1 ms to read (SQLite prepares a statement for each
 * pragma_table_info), so 20,000 tables held the server process for 3.3 s.
 */
export const MAX_QUICK_SCHEMA_OBJECTS = 500;

export function createQuickReader(options: { dbPath: string; limits: PageLimits }): QuickReader {
  let db: BetterSqlite3.Database | undefined;
  let opened: string | undefined;
  let version: BetterSqlite3.Statement | undefined;
  let schemaCache: { version: unknown; value: unknown } | undefined;
  /** The schema version found to have more than MAX_QUICK_SCHEMA_OBJECTS objects: not counted again. */
  let largeAt: unknown;
  const entries = new Map<string, Entry>();
  let broken = false;

  const fileId = () => {
    try {
      const stat = statSync(options.dbPath);
      return `${stat.dev}:${stat.ino}`;
    } catch {
      return undefined;
    }
  };
  const reset = () => {
    try {
      db?.close();
    } catch {}
    db = version = schemaCache = opened = largeAt = undefined;
    entries.clear();
  };
  // The connection, reopened when the file was replaced; undefined when there is none to open.
  const connection = (): BetterSqlite3.Database | undefined => {
    if (broken) return undefined;
    const id = fileId();
    if (id === undefined) {
      reset();
      return undefined;
    }
    if (db && id === opened) return db;
    reset();
    let Database: typeof BetterSqlite3;
    try {
      Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    } catch {
      broken = true;
      return undefined;
    }
    try {
      db = new Database(options.dbPath, { readonly: true, fileMustExist: true, timeout: 0 });
      // It reads a few pages per call: a small cache keeps the server process small.
      db.pragma('cache_size = -256');
      opened = id;
      version = db.prepare('PRAGMA schema_version').pluck();
      return db;
    } catch {
      // A file SQLite cannot open (yet): the engine says why.
      reset();
      return undefined;
    }
  };

  const judge = (conn: BetterSqlite3.Database, sql: string, args: unknown[]): Entry => {
    const verdict = inspectStatement(conn, sql, 'read', args);
    if (!verdict.reader) return { columns: [], tables: [] };
    const program = conn.prepare(`EXPLAIN ${sql}`).all(...args) as ProgramOp[];
    // A walk without a LIMIT within a page is left to the engine, which can page it: read
    // here, it would be read twice (a page here, then again there).
    const limit = constantLimit(program);
    const scan = !straightLine(program) && rowPerStep(program) && limit !== undefined && limit >= 0 && limit <= options.limits.rows;
    if (!scan && !straightLine(program)) return { columns: [], tables: [] };
    // A walk reads many rows: integers as numbers, not BigInts (a BigInt per cell doubles
    // the garbage of a page). One beyond 2^53 would have lost digits: see exact().
    const stmt = verdict.stmt.raw(true).safeIntegers(!scan);
    const roots = verdict.readRoots;
    const tables = roots.length
      ? [...new Set((conn.prepare('SELECT tbl_name, rootpage FROM sqlite_schema WHERE rootpage > 0').all() as { tbl_name: string; rootpage: number }[]).filter((r) => roots.includes(r.rootpage)).map((r) => r.tbl_name))].sort()
      : [];
    const readsTables = program.some((op) => op.opcode === 'OpenRead' || op.opcode === 'Transaction');
    const columns = stmt.columns().map((c) => ({ name: c.name, type: c.type ?? null }));
    // A cell read from a table has no size of its own bound (up to 1 GB): its length is
    // read first, without the cell, and a result larger than a page goes to the engine.
    let probe: BetterSqlite3.Statement | undefined;
    if (program.some((op) => op.opcode === 'Column')) {
      probe = lengthProbe(conn, sql, columns.length, args, program);
      if (!probe) return { columns: [], tables: [] };
    }
    return { stmt, probe, scan, columns, tables, version: readsTables ? version!.get() : undefined };
  };
  // Whether the cells of a result fit a page, by their lengths alone (a row a number: as
  // many as the statement returns, at most a page's rows).
  const fits = (probe: BetterSqlite3.Statement, args: unknown[]): boolean => {
    let bytes = 0;
    for (const size of probe.all(...args) as number[]) bytes += size;
    return bytes <= options.limits.bytes;
  };

  return {
    schema() {
      const conn = connection();
      if (!conn) return undefined;
      try {
        conn.exec('BEGIN');
        try {
          const now = version!.get();
          if (!schemaCache || schemaCache.version !== now) {
            if (largeAt === now) return undefined;
            if ((conn.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number) > MAX_QUICK_SCHEMA_OBJECTS) {
              largeAt = now;
              return undefined;
            }
            schemaCache = { version: now, value: readSchema(conn) };
          }
          return schemaCache.value;
        } finally {
          conn.exec('COMMIT');
        }
      } catch {
        if (conn.inTransaction) conn.exec('ROLLBACK');
        return undefined;
      }
    },
    schemaVersion() {
      const conn = connection();
      if (!conn) return undefined;
      try {
        return version!.get();
      } catch {
        return undefined;
      }
    },
    read(sql, params) {
      if (sql.length > MAX_SQL) return undefined;
      const cached = entries.get(sql);
      if (cached && !cached.stmt) return undefined;
      // A statement that reads no table (SELECT 1, constants, bound values) needs neither
      // the file nor a transaction: it is run as judged.
      if (cached?.stmt && cached.version === undefined && !cached.scan) {
        try {
          const page = takePage((cached.stmt.all(...bindArgs(params)) as unknown[][])[Symbol.iterator](), undefined, { ...options.limits, rows: Number.MAX_SAFE_INTEGER });
          return { columns: cached.columns, rows: page.rows, tables: cached.tables, cuts: page.cuts };
        } catch {
          return undefined;
        }
      }
      const conn = connection();
      if (!conn) return undefined;
      const args = bindArgs(params);
      try {
        let entry = entries.get(sql);
        // One read transaction for the version check and the statement: no other process
        // can change the schema between the two.
        conn.exec('BEGIN');
        try {
          if (entry?.version !== undefined && entry.version !== version!.get()) {
            entries.delete(sql);
            entry = undefined;
          }
          if (!entry) {
            entry = judge(conn, sql, args);
            if (entries.size >= 128) entries.delete(entries.keys().next().value as string);
            entries.set(sql, entry);
          }
          if (!entry.stmt) return undefined;
          if (entry.probe && !fits(entry.probe, args)) return undefined;
          if (entry.scan) {
            // Row by row, so a page of long cells stops at the byte budget: then the engine
            // answers (with a cursor for the rest).
            const rows = entry.stmt.iterate(...args) as IterableIterator<unknown[]>;
            try {
              const page = takePage(rows, undefined, options.limits);
              return page.more || !exact(page.rows) ? undefined : { columns: entry.columns, rows: page.rows, tables: entry.tables, cuts: page.cuts };
            } finally {
              rows.return?.();
            }
          }
          const page = takePage((entry.stmt.all(...args) as unknown[][])[Symbol.iterator](), undefined, { ...options.limits, rows: Number.MAX_SAFE_INTEGER });
          return { columns: entry.columns, rows: page.rows, tables: entry.tables, cuts: page.cuts };
        } finally {
          conn.exec('COMMIT');
        }
      } catch {
        // A refusal, a lock, a SQL error: the engine runs it and answers as it always has.
        if (conn.inTransaction) conn.exec('ROLLBACK');
        return undefined;
      }
    },
    close() {
      reset();
    },
  };
}
