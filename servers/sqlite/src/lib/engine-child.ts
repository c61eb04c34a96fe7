// The program of the engine's child process, which owns every SQLite connection: the
// statement guard, the page reader and the message loop. It is a process, not a worker
// thread: better-sqlite3 has no interrupt, and a worker stuck in a long sqlite3_step cannot
// be terminated (measured: Worker.terminate() never returns), while a process can be killed
// at any instruction; the OS then drops its locks and the next connection rolls back any
// half-written transaction from the journal.
//
// engine.ts sends this file's functions as source text to `node -e`, so they must stay
// self-contained: no imports (test runners rewrite imported names) and no module state;
// they call one another by name. They are exported for direct tests.
import type BetterSqlite3 from 'better-sqlite3';

// ---- Statement text: a careful tokenizer ----
// A careful tokenizer for the few things SQLite's own verdict does not tell: which pragma a
// statement names, and whether a DELETE or UPDATE has a WHERE (to ask before destroying
// data). Safety never rests on it: read-only is decided by SQLite (see inspectStatement).
//

/** A token outside comments: a keyword or bare word (upper-cased), or punctuation. Quoted text is 'STRING' or 'IDENT'. */
export interface SqlToken {
  text: string;
  /** Parenthesis depth at which the token stands. */
  depth: number;
}

export function sqlTokens(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let depth = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k < 0) {
          j = n;
          break;
        }
        // A doubled quote is an escaped quote (not for [brackets]).
        if (close !== ']' && sql[k + 1] === close) {
          j = k + 2;
          continue;
        }
        j = k + 1;
        break;
      }
      tokens.push({ text: c === "'" ? 'STRING' : 'IDENT', depth });
      i = j;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j])) j++;
      tokens.push({ text: sql.slice(i, j).toUpperCase(), depth });
      i = j;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      if (c === ')') depth = Math.max(0, depth - 1);
      tokens.push({ text: c, depth });
      if (c === '(') depth++;
      i++;
    }
  }
  return tokens;
}

/** The verb of a statement (SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, PRAGMA...), past a leading WITH clause. */
export function statementVerb(tokens: SqlToken[]): string | undefined {
  if (tokens.length === 0) return undefined;
  if (tokens[0].text === 'EXPLAIN') return 'EXPLAIN';
  if (tokens[0].text !== 'WITH') return tokens[0].text;
  const verbs = ['SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'VALUES'];
  for (const token of tokens.slice(1)) if (token.depth === 0 && verbs.includes(token.text)) return token.text;
  return undefined;
}

/**
 * Why a statement can remove or rewrite data or schema (write_query asks first), from its
 * kind, or undefined. The rule is deliberately simple: every UPDATE, DELETE, REPLACE,
 * INSERT OR REPLACE and upsert (ON CONFLICT DO UPDATE), DROP, ALTER TABLE other than ADD
 * COLUMN, and CREATE TRIGGER (a trigger's future effect is judged when it is created). A
 * WHERE clause does not make a statement harmless (`WHERE 1` is every row). The caller
 * adds what SQLite's compiled program shows (rows deleted, triggers or foreign-key
 * actions run), see inspectStatement.
 */
export function destructiveReason(tokens: SqlToken[]): string | undefined {
  const verb = statementVerb(tokens);
  const top = tokens.filter((token) => token.depth === 0).map((token) => token.text);
  if (verb === 'DROP') return `drops ${tokens[1]?.text.toLowerCase() ?? 'an object'}`;
  if (verb === 'DELETE') return 'deletes rows';
  if (verb === 'UPDATE') return 'updates rows';
  if (verb === 'REPLACE' || (verb === 'INSERT' && top[1] === 'OR' && top[2] === 'REPLACE')) return 'replaces rows';
  if (verb === 'INSERT') {
    const on = top.findIndex((text, i) => text === 'DO' && top[i + 1] === 'UPDATE');
    return on >= 0 ? 'updates rows on conflict (upsert)' : undefined;
  }
  if (verb === 'ALTER') {
    if (top.includes('DROP')) return 'drops a column';
    if (top.includes('RENAME')) return 'renames a table or column';
    return top.includes('ADD') ? undefined : 'alters a table';
  }
  if (verb === 'CREATE' && top.slice(0, 4).includes('TRIGGER')) return 'creates a trigger (it will change rows whenever it fires)';
  return undefined;
}

/** The pragma a PRAGMA statement names (lower-case, schema prefix removed) and whether it sets or passes a value. */
export function pragmaOf(tokens: SqlToken[]): { name: string; hasArgument: boolean } | undefined {
  if (tokens[0]?.text !== 'PRAGMA') return undefined;
  let at = 1;
  if (tokens[at + 1]?.text === '.') at += 2;
  const name = tokens[at]?.text.toLowerCase() ?? '';
  const next = tokens[at + 1]?.text;
  return { name, hasArgument: next === '=' || next === '(' };
}

// ---- The guard ----
// What a statement may do is SQLite's verdict, not a reading of its text: the connection
// for reads is opened read-only, `stmt.readonly` says whether the statement writes, and
// the opcodes of `EXPLAIN <stmt>` show what read-only cannot: ATTACH/DETACH (a Function
// call of sqlite_attach/sqlite_detach, which opens any existing file even on a read-only
// connection), VACUUM (INTO writes a new file anywhere, even from a read-only connection)
// and transaction control (an open transaction would hold locks between calls).
// Pragmas are allowed by name from a list of ones that only read.

export type StatementMode = 'read' | 'write';

export interface StatementVerdict {
  stmt: BetterSqlite3.Statement;
  /** The statement returns rows. */
  reader: boolean;
  /** SQLite says the statement does not write the database. */
  readonly: boolean;
  verb: string;
  /** Why it destroys data (asks the user first), or undefined. */
  destructive: string | undefined;
  /** Root pages of the main database that the statement opens to read. */
  readRoots: number[];
  /** Root pages of the main database that the statement opens to write. */
  writeRoots: number[];
}

/** Pragmas that only read; those marked 'argument' take a name (a table, an index). */
export function pragmaPolicy(name: string): 'plain' | 'argument' | undefined {
  const withArgument = ['table_info', 'table_xinfo', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list', 'foreign_key_check', 'integrity_check', 'quick_check', 'table_list'];
  const plain = [
    'application_id', 'auto_vacuum', 'collation_list', 'compile_options', 'data_version', 'database_list', 'encoding',
    'foreign_keys', 'freelist_count', 'function_list', 'journal_mode', 'module_list', 'page_count', 'page_size',
    'pragma_list', 'schema_version', 'user_version',
  ];
  if (withArgument.includes(name)) return 'argument';
  if (plain.includes(name)) return 'plain';
  return undefined;
}

/** An error the caller can fix: the message says what to do. */
export function refusal(message: string): Error {
  const error = new Error(message);
  error.name = 'SqlRefused';
  return error;
}

/**
 * better-sqlite3's native addon missing, or built for another platform, architecture or
 * Node (a Linux build in a Windows bundle fails with "Bad EXE format", one for another
 * Node with NODE_MODULE_VERSION): one line that says how to get the right one, instead
 * of the loader's text. Anything else is returned as it is.
 */
export function addonError(error: unknown): unknown {
  const e = error as { code?: string; message?: string } | null;
  const message = String(e?.message ?? '');
  const broken =
    e?.code === 'ERR_DLOPEN_FAILED' ||
    /Could not locate the bindings file/.test(message) ||
    (e?.code === 'MODULE_NOT_FOUND' && /'bindings'|better_sqlite3/.test(message));
  if (!broken) return error;
  const where = `${process.platform}-${process.arch}, Node ${process.versions.node}`;
  return new Error(
    `The SQLite engine (the better-sqlite3 native addon) is missing or was built for another platform than this one (${where}), so no database can be opened. ` +
      'Reinstall the server on this machine (npm install @mcp-reference/server-sqlite, or npm rebuild better-sqlite3), or install the Claude Desktop bundle built for this platform.',
  );
}

/**
 * Prepares exactly one statement and checks it against the mode: 'read' statements must
 * be read-only by SQLite's own verdict; in every mode ATTACH, DETACH, VACUUM, transaction
 * control, extension loading, TEMP objects and pragmas that change state are refused.
 * `args` are the values the statement will be bound to (EXPLAIN needs them too).
 *
 * Order matters. What SQLite reads must be exactly the text judged, so a NUL character
 * (where SQLite stops reading) is refused first. Then PRAGMA and EXPLAIN are judged before
 * anything is prepared: SQLite applies many pragmas (foreign_keys, query_only,
 * locking_mode, case_sensitive_like, ignore_check_constraints...) while it *prepares* the
 * statement, so a pragma refused after prepare would already have taken effect.
 */
export function inspectStatement(db: BetterSqlite3.Database, sql: string, mode: StatementMode, args: unknown[] = []): StatementVerdict {
  if (sql.indexOf(String.fromCharCode(0)) >= 0) {
    throw refusal('The statement contains a NUL character (\\u0000), where SQLite would stop reading it and run only the part before: remove it (bind binary values with params).');
  }
  const all: SqlToken[] = sqlTokens(sql);
  const first = all.findIndex((token) => token.text !== ';');
  if (first < 0) throw refusal('The query is empty: send one SQL statement.');
  const tokens = all.slice(first);
  const verb = statementVerb(tokens) ?? '';
  if (verb === 'EXPLAIN') throw refusal('Use the explain_query tool to see a query plan.');
  const pragma = pragmaOf(tokens);
  if (pragma) {
    const policy = pragmaPolicy(pragma.name);
    if (policy === undefined || (policy === 'plain' && pragma.hasArgument)) {
      throw refusal(`PRAGMA ${pragma.name}${pragma.hasArgument ? ' with a value' : ''} is not allowed: only pragmas that read (table_info, index_list, user_version, ...) can be run here. Nothing was run.`);
    }
  }
  // A statement that checks the schema cookie, so the connection reloads a schema another
  // connection changed: SQLite compiles (and EXPLAIN shows) against the schema it last
  // loaded, and EXPLAIN alone never notices it is stale.
  db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get();
  let stmt: BetterSqlite3.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (error) {
    const message = String((error as Error).message);
    if (/more than one statement/.test(message)) throw refusal('Send exactly one SQL statement per call (a second statement was found after the first).');
    throw error;
  }
  const program = db.prepare(`EXPLAIN ${sql}`).all(...args) as { opcode: string; p1: number; p2: number; p3: number; p4: unknown }[];
  const readRoots: number[] = [];
  const writeRoots: number[] = [];
  let deletes = false;
  let triggers = false;
  for (const op of program) {
    if ((op.opcode === 'Function' || op.opcode === 'PureFunc') && typeof op.p4 === 'string') {
      if (/^sqlite_(attach|detach)\b/.test(op.p4)) throw refusal('ATTACH and DETACH are not allowed: this server works on its one database file.');
      if (/^load_extension\b/.test(op.p4)) throw refusal('Loading extensions is not allowed.');
    }
    if (op.opcode === 'Vacuum') throw refusal('VACUUM is not allowed (VACUUM INTO would write a file outside the database).');
    if (op.opcode === 'AutoCommit' || op.opcode === 'Savepoint') throw refusal('Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE) is not allowed: each call runs in its own transaction.');
    // Database 1 is "temp": a TEMP table, view or trigger would live on, unseen, in this
    // server's connection (and a TEMP trigger would fire on later calls).
    // (ALTER TABLE opens the temp schema to update temp triggers, of which there are none.)
    if (verb !== 'ALTER' && ((op.opcode === 'OpenWrite' && op.p3 === 1) || (op.opcode === 'ParseSchema' && op.p1 === 1) || (op.opcode === 'CreateBtree' && op.p1 === 1))) {
      throw refusal('TEMP tables, views and triggers are not allowed: they would outlive this call unseen in the server\'s connection. Create a regular one (and drop it when done), or use a WITH clause.');
    }
    if (op.opcode === 'OpenRead' && op.p3 === 0) readRoots.push(op.p2);
    if (op.opcode === 'OpenWrite' && op.p3 === 0) writeRoots.push(op.p2);
    // A DELETE without WHERE empties the table with one Clear (root page P1, database P2), never opening it.
    if (op.opcode === 'Clear' && op.p2 === 0) writeRoots.push(op.p1);
    if (['Delete', 'IdxDelete', 'Clear', 'Destroy', 'DropTable', 'DropIndex', 'DropTrigger'].includes(op.opcode)) deletes = true;
    if (op.opcode === 'Program') triggers = true;
  }
  if (mode === 'read' && !stmt.readonly) {
    throw refusal('This statement writes to the database; read_query runs only statements that read. ' + 'Start the server with --write and use write_query to change data.');
  }
  // The statement's kind, then what its compiled program does: a statement that is
  // harmless by kind still asks if SQLite compiled row deletions, triggers or
  // foreign-key actions into it.
  const destructive = stmt.readonly
    ? undefined
    : (destructiveReason(tokens) ?? (triggers ? 'fires triggers or foreign-key actions that may change other rows' : deletes ? 'deletes rows' : undefined));
  return { stmt, reader: stmt.reader, readonly: stmt.readonly, verb, destructive, readRoots: [...new Set(readRoots)], writeRoots: [...new Set(writeRoots)] };
}

// ---- Cells and pages ----
// How rows leave the engine: JSON-safe cells and pages bounded by rows and bytes, so no
// response approaches the client's message limit whatever the table holds (a 50 MB TEXT
// or BLOB cell is cut with a marker).

/** The longest text cell kept whole in a result (a blob keeps half as many bytes, as hex). */
export const CELL_CHARS = 64 * 1024;

export interface PageLimits {
  /** Most rows in one page. */
  rows: number;
  /** Rough ceiling of a page's JSON size. */
  bytes: number;
  /** Longest text (characters) or blob (bytes) kept whole in a cell. */
  cellBytes: number;
}

/**
 * A text cut after `max` characters as SQLite counts them (code points: its length() and
 * substr() do; a JavaScript string counts a character above U+FFFF as two units), so that
 * `substr(column, max + 1, ...)` reads on exactly where the cut ended and no surrogate pair
 * is split; undefined when the text has at most `max` characters. Counting the whole text is
 * one pass over a string that is in memory already.
 */
export function cutText(value: string, max: number): { text: string; length: number } | undefined {
  if (value.length <= max) return undefined;
  const pairAt = (i: number) => {
    const unit = value.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) return false;
    const next = value.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  };
  let end = 0;
  for (let n = 0; n < max && end < value.length; n++) end += pairAt(end) ? 2 : 1;
  if (end >= value.length) return undefined;
  let length = max;
  for (let i = end; i < value.length; i++, length++) if (pairAt(i)) i++;
  return { text: `${value.slice(0, end)}… [truncated: ${length} characters in all]`, length };
}

/** A cell as JSON: integers beyond 2^53 become strings, blobs become x'hex' text, long values are cut with a marker. */
export function jsonCell(value: unknown, cellBytes: number): unknown {
  if (typeof value === 'bigint') return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value.toString();
  if (typeof value === 'string') return cutText(value, cellBytes)?.text ?? value;
  if (value instanceof Uint8Array) {
    const kept = Buffer.from(value.subarray(0, Math.floor(cellBytes / 2))).toString('hex');
    return value.length * 2 > cellBytes ? `x'${kept}…' [truncated: ${value.length} bytes in all]` : `x'${kept}'`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}

/** Its rough size in a JSON response. */
export function cellSize(cell: unknown): number {
  return typeof cell === 'string' ? cell.length + 4 : 12;
}

/**
 * A call's `params` as better-sqlite3 binds them: an array positionally, an object by name
 * (`:name`, `@name` and `$name` alike), booleans as 1 and 0 (SQLite has no boolean).
 */
export function bindArgs(params: unknown): unknown[] {
  const value = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);
  if (params === undefined || params === null) return [];
  if (Array.isArray(params)) return params.map(value);
  const named: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(params as Record<string, unknown>)) named[key.replace(/^[:@$]/, '')] = value(v);
  return [named];
}

/** A page being filled, possibly over several steps (see fillPage). */
export interface PageFill {
  /** Rows taken since the caller last emptied this array (a step's rows, or the whole page). */
  rows: unknown[][];
  /** [row in the page, column, full length] of each cell cut at limits.cellBytes. */
  cuts: number[][];
  /** Rough JSON size of the rows taken so far. */
  bytes: number;
  /** Rows in the page so far. */
  taken: number;
  /** A row taken from the iterator but not in the page (the look-ahead that tells whether rows remain). */
  pending: unknown[] | undefined;
}

/**
 * Takes rows from `iterator` into `page` until the page is full, the rows run out, or
 * `step` rows were taken by this call. `complete` says the page is done (then `more` says
 * whether rows remain, and the next one is `page.pending`); otherwise call again to go on.
 */
export function fillPage(iterator: Iterator<unknown[]>, page: PageFill, limits: PageLimits, step: number): { complete: boolean; more: boolean } {
  const { rows: maxRows, bytes: maxBytes, cellBytes } = limits;
  const { rows, cuts } = page;
  let bytes = page.bytes;
  let taken = page.taken;
  let next = page.pending;
  let stepped = 0;
  try {
    for (;;) {
      if (next === undefined) {
        const result = iterator.next();
        if (result.done) return { complete: true, more: false };
        next = result.value;
      }
      if (taken >= maxRows || (taken > 0 && bytes >= maxBytes)) return { complete: true, more: true };
      if (stepped >= step) return { complete: false, more: true };
      // The row is converted in place (the iterator hands out a new array per row): this loop
      // runs once per cell of every page, so the common cells (numbers, short text, null)
      // take one typeof and no call.
      const row = next;
      for (let column = 0; column < row.length; column++) {
        const value = row[column];
        switch (typeof value) {
          case 'string':
            if (value.length > cellBytes) {
              const cut = cutText(value, cellBytes);
              if (cut) {
                cuts.push([taken, column, cut.length]);
                row[column] = cut.text;
              }
            }
            bytes += cellSize(row[column]);
            break;
          case 'bigint':
            row[column] = jsonCell(value, cellBytes);
            bytes += 12;
            break;
          case 'number':
            if (!Number.isFinite(value)) row[column] = jsonCell(value, cellBytes);
            bytes += 12;
            break;
          default:
            if (value instanceof Uint8Array) {
              if (value.length * 2 > cellBytes) cuts.push([taken, column, value.length]);
              row[column] = jsonCell(value, cellBytes);
            }
            bytes += cellSize(row[column]);
        }
      }
      rows.push(row);
      taken++;
      stepped++;
      next = undefined;
    }
  } finally {
    page.bytes = bytes;
    page.taken = taken;
    page.pending = next;
  }
}

/**
 * Takes rows from `iterator` until a page is full. `pending` is a row already taken from
 * it (by the previous page's look-ahead). Returns the page and whether rows remain; the
 * row after the page, if any, is returned as the new `pending`.
 */
export function takePage(
  iterator: Iterator<unknown[]>,
  pending: unknown[] | undefined,
  limits: PageLimits,
): { rows: unknown[][]; more: boolean; pending: unknown[] | undefined; cuts: number[][] } {
  const page: PageFill = { rows: [], cuts: [], bytes: 0, taken: 0, pending };
  const { more } = fillPage(iterator, page, limits, Infinity);
  return { rows: page.rows, more, pending: page.pending, cuts: page.cuts };
}

/**
 * A JSON array written a slice of items at a time, as UTF-8 into one buffer: each slice's
 * JSON is a small string (JSON.stringify of a whole page of 10,000 rows made one large
 * string that was copied once more before it could be encoded), and `bytes()` is the
 * array's exact UTF-8. `sizeHint` is the expected size in bytes (the previous page's).
 */
export function jsonArrayWriter(
  encoder: { encodeInto(source: string, destination: Uint8Array): { read: number; written: number } },
  sizeHint = 64 * 1024,
): { add(items: readonly unknown[]): void; bytes(): Uint8Array } {
  let buffer = new Uint8Array(Math.max(16, sizeHint));
  let length = 0;
  return {
    add(items) {
      if (items.length === 0) return;
      let json = JSON.stringify(items);
      // After the first slice, the last "]" gives way to this slice's items, after a ",".
      const at = length === 0 ? 0 : length - 1;
      length = at;
      for (;;) {
        const { read, written } = encoder.encodeInto(json, buffer.subarray(length));
        length += written;
        if (read === json.length) break;
        json = json.slice(read);
        const grown = new Uint8Array(Math.max(buffer.length * 2, length + json.length * 3));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      if (at > 0) buffer[at] = 0x2c; // the slice's "[" -> ","
    },
    bytes() {
      if (length === 0) return new Uint8Array([0x5b, 0x5d]);
      return length === buffer.length ? buffer : buffer.slice(0, length);
    },
  };
}

/**
 * A page as the engine sends it: the rows themselves, or for read_query (`head` given) a
 * page whose parent writes the rows into its answer as they are: their JSON as UTF-8 bytes,
 * the first `head` rows parsed (for the text table) and how many there are. Serialized in
 * the engine, once, the rows cross the channel as one block of bytes (copied, not escaped,
 * by the channel's V8 serialization) and go out to the client as those bytes, instead of
 * being parsed into 10,000 arrays in the parent only to be serialized and encoded again.
 */
export type ChildPage =
  | { rows: unknown[][]; more: boolean; cuts: number[][] }
  | { rowsJson: Uint8Array; head: unknown[][]; count: number; more: boolean; cuts: number[][] };

/**
 * Collects a page's rows in the form it is sent, whether they come in one go (a page
 * taken at once) or a step at a time (a page read ahead): the one place a page is built.
 * With `json`, the rows' JSON is written `stepRows` rows at a time, so no slice makes a
 * large string, and only the first `head` rows are kept.
 */
export function pageCollector(
  json: { add(items: readonly unknown[]): void; bytes(): Uint8Array } | undefined,
  head: number,
  stepRows: number,
): { add(rows: unknown[][]): void; finish(more: boolean, cuts: number[][]): ChildPage } {
  let kept: unknown[][] = [];
  let count = 0;
  return {
    add(rows) {
      count += rows.length;
      if (!json) {
        if (kept.length === 0) kept = rows;
        else for (const row of rows) kept.push(row);
        return;
      }
      for (let i = 0; i < rows.length && kept.length < head; i++) kept.push(rows[i]);
      if (rows.length <= stepRows) json.add(rows);
      else for (let i = 0; i < rows.length; i += stepRows) json.add(rows.slice(i, i + stepRows));
    },
    finish(more, cuts) {
      if (!json) return { rows: kept, more, cuts };
      return { rowsJson: json.bytes(), head: kept, count, more, cuts };
    },
  };
}

/** The tables, views, indexes and triggers of the database, read with fixed statements (no client SQL). */
export function readSchema(db: BetterSqlite3.Database): unknown {
  const objects = db
    .prepare("SELECT type, name, tbl_name AS tableName, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type = 'index', name")
    .all() as { type: string; name: string; tableName: string; sql: string | null }[];
  const tables = objects
    .filter((o) => o.type === 'table' || o.type === 'view')
    .map((o) => ({
      name: o.name,
      type: o.type,
      sql: o.sql,
      columns: (db.prepare('SELECT name, type, "notnull" AS "notNull", dflt_value AS "defaultValue", pk FROM pragma_table_info(?)').all(o.name) as {
        name: string; type: string; notNull: number; defaultValue: string | null; pk: number;
      }[]).map((c) => ({ ...c, notNull: c.notNull === 1 })),
    }));
  const indexes = objects
    .filter((o) => o.type === 'index')
    .map((o) => ({
      name: o.name,
      table: o.tableName,
      sql: o.sql,
      unique: ((db.prepare('SELECT "unique" AS u FROM pragma_index_list(?) WHERE name = ?').get(o.tableName, o.name) as { u: number } | undefined)?.u ?? 0) === 1,
      columns: (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(o.name) as { name: string | null }[]).map((c) => c.name ?? '(expression)'),
    }));
  const triggers = objects.filter((o) => o.type === 'trigger').map((o) => ({ name: o.name, table: o.tableName, sql: o.sql }));
  return { tables, indexes, triggers };
}

// ---- The message loop ----

export interface ChildConfig {
  dbPath: string;
  write: boolean;
  busyTimeoutMs: number;
  limits: PageLimits;
  cursorIdleMs: number;
  maxCursors: number;
}

/**
 * `modules.require` resolves from the server's own module (engine.ts passes one made with
 * createRequire), so the child loads the better-sqlite3 the package depends on. A method
 * call, so bundlers leave it alone.
 */
export function engineMain(config: ChildConfig, modules: { require(id: string): unknown }): void {
  const Database = modules.require('better-sqlite3') as typeof BetterSqlite3;
  type Db = BetterSqlite3.Database;
  // `ahead` is the next page, read while the parent handles this one (see the message loop);
  // `failed` is the error reading it met, told on the call that asks for it.
  type Cursor = {
    db: Db;
    iterator: Iterator<unknown[]>;
    pending: unknown[] | undefined;
    columns: unknown;
    usedAt: number;
    owner: unknown;
    ahead?: ChildPage;
    failed?: unknown;
    /** Pages go as text, with this many rows parsed, when the query asked for them so (read_query). */
    head?: number;
  };
  // TextEncoder, not Buffer.from: it encodes a one-byte string (most pages) about ten times faster.
  const encoder = new TextEncoder();
  /** Rows taken, and their JSON written, in steps of this many (see readAhead). */
  const STEP_ROWS = 1000;
  /** The size of the last page's JSON: the next page's buffer is made that large at once. */
  let lastJsonBytes = 64 * 1024;
  /** A collector for one page of a cursor that sends pages as text when `head` is set. */
  const collect = (head: number | undefined) => pageCollector(head === undefined ? undefined : jsonArrayWriter(encoder, lastJsonBytes), head ?? 0, STEP_ROWS);
  const finished = (page: ChildPage): ChildPage => {
    if ('rowsJson' in page) lastJsonBytes = page.rowsJson.length;
    return page;
  };
  const fs = modules.require('node:fs') as typeof import('node:fs');
  // The file the connections have open (device and inode): a database deleted or replaced
  // under the server is noticed on the next call instead of being served from the old file.
  const fileId = (): string | undefined => {
    try {
      const stat = fs.statSync(config.dbPath);
      return `${stat.dev}:${stat.ino}`;
    } catch {
      return undefined;
    }
  };
  let opened: string | undefined;
  const open = (readonly: boolean): Db => {
    let db: Db;
    try {
      db = new Database(config.dbPath, { readonly, fileMustExist: readonly, timeout: config.busyTimeoutMs });
    } catch (error) {
      throw addonError(error);
    }
    opened ??= fileId();
    return db;
  };
  let writer: Db | undefined;
  let control: Db | undefined;
  const idle: Db[] = [];
  const cursors = new Map<string, Cursor>();
  let nextCursor = 1;
  const getWriter = () => (writer ??= open(false));
  // With --write the file is created by the read-write connection before anyone reads it.
  const getControl = () => {
    if (config.write) getWriter();
    return (control ??= open(true));
  };
  const acquire = () => {
    getControl();
    return idle.pop() ?? open(true);
  };
  const release = (db: Db) => {
    if (db.inTransaction) db.exec('ROLLBACK');
    if (idle.length < 2) idle.push(db);
    else db.close();
  };
  const closeCursor = (id: string) => {
    const cursor = cursors.get(id);
    if (!cursor) return;
    cursors.delete(id);
    try {
      cursor.iterator.return?.();
    } catch {}
    release(cursor.db);
  };
  // An open cursor holds a read transaction; idle ones are closed so writers are not held up.
  setInterval(() => {
    const now = Date.now();
    for (const [id, cursor] of cursors) if (now - cursor.usedAt > config.cursorIdleMs) closeCursor(id);
  }, Math.min(5000, config.cursorIdleMs)).unref();

  const columnsOf = (stmt: BetterSqlite3.Statement) => stmt.columns().map((c) => ({ name: c.name, type: c.type ?? null }));
  const rootNames = (db: Db, roots: number[]): string[] => {
    if (roots.length === 0) return [];
    const names = new Set<string>();
    const rows = db.prepare("SELECT type, tbl_name, rootpage FROM sqlite_schema WHERE rootpage > 0").all() as { type: string; tbl_name: string; rootpage: number }[];
    for (const row of rows) if (roots.includes(row.rootpage)) names.add(row.tbl_name);
    return [...names].sort();
  };
  const pageOf = (cursor: Cursor): ChildPage => {
    const { ahead, failed } = cursor;
    cursor.ahead = undefined;
    cursor.failed = undefined;
    if (failed !== undefined) throw failed;
    if (ahead) {
      cursor.usedAt = Date.now();
      return ahead;
    }
    const page = takePage(cursor.iterator, cursor.pending, config.limits);
    cursor.pending = page.pending;
    cursor.usedAt = Date.now();
    const collector = collect(cursor.head);
    collector.add(page.rows);
    return finished(collector.finish(page.more, page.cuts));
  };
  // Read statements already checked on a connection, while the schema is unchanged: a
  // repeated query skips the prepare and the EXPLAIN. (A statement SQLite called read-only
  // stays so; the cache only spares the work.)
  type Checked = { stmt: BetterSqlite3.Statement; columns: unknown; tables: string[] };
  const checked = new WeakMap<Db, { version: BetterSqlite3.Statement; at: unknown; entries: Map<string, Checked> }>();
  let schemaVersion: BetterSqlite3.Statement | undefined;
  let schemaCache: { version: unknown; value: unknown } | undefined;
  const readStatement = (db: Db, sql: string, args: unknown[]): Checked => {
    let cache = checked.get(db);
    if (!cache) checked.set(db, (cache = { version: db.prepare('PRAGMA schema_version').pluck(), at: undefined, entries: new Map() }));
    const version = cache.version.get();
    if (version !== cache.at) {
      cache.entries.clear();
      cache.at = version;
    }
    const hit = cache.entries.get(sql);
    if (hit) return hit;
    const verdict = inspectStatement(db, sql, 'read', args);
    if (!verdict.reader) throw refusal('read_query runs statements that return rows (SELECT, WITH ... SELECT, VALUES, read-only PRAGMA).');
    const stmt = verdict.stmt.raw(true).safeIntegers(true);
    const entry = { stmt, columns: columnsOf(stmt), tables: rootNames(getControl(), verdict.readRoots) };
    if (cache.entries.size >= 64) cache.entries.delete(cache.entries.keys().next().value as string);
    cache.entries.set(sql, entry);
    return entry;
  };
  const runWrite = (db: Db, verdict: StatementVerdict, args: unknown[]) => {
    if (verdict.reader) {
      const stmt = verdict.stmt.raw(true).safeIntegers(true);
      const columns = columnsOf(stmt);
      const page = takePage((stmt.all(...args) as unknown[][])[Symbol.iterator](), undefined, { rows: Number.MAX_SAFE_INTEGER, bytes: Number.MAX_SAFE_INTEGER, cellBytes: config.limits.cellBytes });
      return { columns, rows: page.rows, more: false, changes: page.rows.length, tables: [], cuts: page.cuts };
    }
    const info = verdict.stmt.safeIntegers(true).run(...args);
    if (db.inTransaction) db.exec('ROLLBACK');
    return { columns: [], rows: [], more: false, changes: Number(info.changes), lastInsertRowid: jsonCell(info.lastInsertRowid, 64), tables: [] };
  };
  const tableExists = (db: Db, name: string) =>
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type IN ('table','view') AND name = ?").get(name) !== undefined;
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

  const ops: Record<string, (request: any) => unknown> = {
    inspect({ sql, mode, params }) {
      const db = mode === 'write' ? getWriter() : getControl();
      const verdict = inspectStatement(db, sql, mode, bindArgs(params));
      return { reader: verdict.reader, readonly: verdict.readonly, verb: verdict.verb, destructive: verdict.destructive, writes: rootNames(db, verdict.writeRoots) };
    },
    query({ sql, params, mode, confirmed, owner, head }) {
      if (mode === 'write') {
        const db = getWriter();
        const args = bindArgs(params);
        const verdict = inspectStatement(db, sql, 'write', args);
        if (verdict.readonly) throw refusal('This statement does not change the database: run it with read_query.');
        // Judged again here, on what runs now: the schema may have changed since the question
        // (a trigger added, a table replaced by a view), and the person agreed to what they were shown.
        if (verdict.destructive) {
          if (!confirmed) throw refusal(`This statement ${verdict.destructive}, which needs a confirmation it did not get (the database changed since?): run it again.`);
          const writes = rootNames(db, verdict.writeRoots);
          if (confirmed.destructive !== verdict.destructive || confirmed.writes.join('\0') !== writes.join('\0')) {
            throw refusal(
              `The database changed while the user was being asked: this statement now ${verdict.destructive}${writes.length ? ` (it writes ${writes.join(', ')})` : ''}, ` +
                'not what they agreed to. Nothing was changed; run it again to ask about it as it is now.',
            );
          }
        }
        try {
          return runWrite(db, verdict, args);
        } finally {
          // Never reached through the guard; if a TEMP object got through anyway, it dies
          // with the connection instead of living on unseen.
          if ((db.prepare('SELECT count(*) FROM temp.sqlite_schema').pluck().get() as number) > 0) {
            db.close();
            writer = undefined;
          }
        }
      }
      const db = acquire();
      let kept = false;
      try {
        const args = bindArgs(params);
        const { stmt, columns, tables } = readStatement(db, sql, args);
        const cursor: Cursor = { db, iterator: stmt.iterate(...args) as Iterator<unknown[]>, pending: undefined, columns, usedAt: Date.now(), owner, head };
        const page = pageOf(cursor);
        if (!page.more) return { columns, ...page, tables };
        const id = `${process.pid}.${nextCursor++}`;
        cursors.set(id, cursor);
        kept = true;
        if (cursors.size > config.maxCursors) closeCursor(cursors.keys().next().value as string);
        return { columns, ...page, cursor: id, tables };
      } finally {
        if (!kept) release(db);
      }
    },
    next({ cursor: id, owner }) {
      const cursor = cursors.get(id);
      if (!cursor) throw refusal('This cursor has expired (cursors are kept for a short while, a few at a time): run the query again.');
      // A cursor is its session's: another session cannot read (or advance) it.
      if (cursor.owner !== owner) throw refusal('This cursor belongs to another session: run the query yourself, without cursor.');
      try {
        const page = pageOf(cursor);
        if (!page.more) closeCursor(id);
        return { columns: cursor.columns, ...page, cursor: page.more ? id : undefined, tables: [] };
      } catch (error) {
        closeCursor(id);
        throw error;
      }
    },
    closeCursor({ cursor }) {
      closeCursor(cursor);
      return {};
    },
    schema() {
      const db = getControl();
      // Read again only when the schema changed (whoever changed it).
      const version = (schemaVersion ??= db.prepare('PRAGMA schema_version').pluck()).get();
      if (schemaCache && schemaCache.version === version) return schemaCache.value;
      // As JSON text: one string crosses to the server process at the cost of a copy, where
      // V8's deserialization of the objects of 20,000 tables held it for 0.5 s.
      schemaCache = { version, value: { json: JSON.stringify(readSchema(db)) } };
      return schemaCache.value;
    },
    explain({ sql, params }) {
      const db = getControl();
      const args = bindArgs(params);
      inspectStatement(db, sql, config.write ? 'write' : 'read', args);
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { id: number; parent: number; detail: string }[];
      return { steps: rows.map((r) => ({ id: r.id, parent: r.parent, detail: r.detail })) };
    },
    rows({ table, after, limit }) {
      const db = getControl();
      if (!tableExists(db, table)) throw refusal(`There is no table named "${table}": call list_tables.`);
      let withRowid = true;
      try {
        db.prepare(`SELECT rowid FROM ${quote(table)} LIMIT 0`);
      } catch {
        withRowid = false;
      }
      // Keyset on the rowid: page N costs what page 1 costs. WITHOUT ROWID tables and views page by offset.
      const stmt = withRowid
        ? db.prepare(`SELECT rowid, * FROM ${quote(table)} WHERE rowid > ? ORDER BY rowid LIMIT ?`)
        : db.prepare(`SELECT NULL, * FROM ${quote(table)} LIMIT ? OFFSET ?`);
      stmt.raw(true).safeIntegers(true);
      const start = after === undefined ? 0 : Number(after);
      const iterator = (withRowid ? stmt.iterate(start, limit + 1) : stmt.iterate(limit + 1, start)) as Iterator<unknown[]>;
      const page = takePage(iterator, undefined, { ...config.limits, rows: limit });
      (iterator as { return?: () => void }).return?.();
      const columns = columnsOf(stmt).slice(1);
      const keys = page.rows.map((row) => row[0]);
      const rows = page.rows.map((row) => row.slice(1));
      const nextAfter = page.more ? String(withRowid ? keys[keys.length - 1] : start + rows.length) : undefined;
      return { columns, rows, nextAfter, cuts: page.cuts.map(([row, column, length]) => [row, column - 1, length]) };
    },
    fingerprint({ tables }) {
      const db = getControl();
      const version = (db.prepare('PRAGMA data_version').pluck().get() as number) + ':' + (db.prepare('PRAGMA schema_version').pluck().get() as number);
      const out: Record<string, string> = {};
      for (const table of tables as string[]) {
        if (!tableExists(db, table)) {
          out[table] = 'missing';
          continue;
        }
        // FNV-1a over the rows; past a size where hashing costs too much, any commit counts as a change.
        let hash = 0x811c9dc5;
        let count = 0;
        for (const row of db.prepare(`SELECT * FROM ${quote(table)}`).raw(true).safeIntegers(true).iterate() as Iterable<unknown[]>) {
          if (++count > 100_000) {
            hash = -1;
            break;
          }
          const text = row.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : String(v))).join('\u0001') + '\u0002';
          for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
        }
        out[table] = hash === -1 ? `big:${version}` : `${count}:${hash >>> 0}`;
      }
      return { schema: String(db.prepare('PRAGMA schema_version').pluck().get()), tables: out };
    },
  };

  // Reads the page after the one just sent, while the parent and its client handle that
  // one: paging then costs the larger of the two sides, not their sum. Only once the
  // client pages on (after a 'next'): most results are never read past their first page,
  // and a page read for nobody would cost this process a page of work and keep it busy
  // for the next call. The parent keeps this process busy (and under the time limit)
  // until 'read ahead' arrives, so no other message comes in meanwhile.
  // It starts as soon as the page is handed to the channel and goes in steps of STEP_ROWS
  // rows, giving the event loop a turn after each: the page just sent (often larger than
  // the pipe holds) keeps flowing to the parent while the next one is read, instead of
  // the reading waiting until it is all written. (Smaller steps until it is written made
  // no difference measured.)
  const readAhead = (id: number, cursorId: string) => {
    const cursor = cursors.get(cursorId);
    const done = () => {
      if (process.connected) process.send!({ id, readAhead: true });
    };
    if (!cursor || cursor.ahead || cursor.failed !== undefined) return done();
    const page: PageFill = { rows: [], cuts: [], bytes: 0, taken: 0, pending: cursor.pending };
    const collector = collect(cursor.head);
    const step = () => {
      // Closed meanwhile (it cannot be: it was used just now, and no call comes in until
      // this is done), the page is dropped.
      if (cursors.get(cursorId) !== cursor) return done();
      try {
        const { complete, more } = fillPage(cursor.iterator, page, config.limits, STEP_ROWS);
        collector.add(page.rows);
        page.rows = [];
        if (!complete) {
          setImmediate(step);
          return;
        }
        cursor.pending = page.pending;
        cursor.ahead = finished(collector.finish(more, page.cuts));
      } catch (error) {
        cursor.failed = error;
      }
      done();
    };
    step();
  };

  const closeAll = () => {
    for (const id of [...cursors.keys()]) closeCursor(id);
    for (const db of [...idle.splice(0), control, writer]) {
      try {
        db?.close();
      } catch {}
    }
    control = writer = undefined;
    schemaVersion = undefined;
    schemaCache = undefined;
    opened = undefined;
  };
  const checkFile = () => {
    if (opened === undefined) return;
    const now = fileId();
    if (now === opened) return;
    closeAll();
    if (now === undefined) {
      throw refusal(`The database file ${config.dbPath} was deleted or moved while the server was running: put it back, or restart the server with the right --db-path.`);
    }
    // Replaced by another file: the next connections open the new one.
  };

  process.on('message', (message: { id: number; op: string; request: unknown }) => {
    let reply: { id: number; ok: boolean; value?: unknown; ahead?: boolean; [key: string]: unknown };
    try {
      checkFile();
      let value: unknown;
      try {
        value = ops[message.op](message.request);
      } catch (error) {
        // A write killed mid-transaction leaves a hot journal that read-only connections
        // cannot roll back; with --write, the writer rolls it back and the call is retried.
        if (!config.write || (error as { code?: string }).code !== 'SQLITE_READONLY_ROLLBACK') throw error;
        getWriter().prepare('SELECT count(*) FROM sqlite_schema').get();
        value = ops[message.op](message.request);
      }
      reply = { id: message.id, ok: true, value };
    } catch (error) {
      const e = error as { name?: string; message?: string; code?: string };
      reply = { id: message.id, ok: false, name: e.name ?? 'Error', message: String(e.message ?? error), code: e.code };
    }
    const next = reply.ok && message.op === 'next' ? (reply.value as { more?: boolean; cursor?: string }) : undefined;
    if (next?.more && next.cursor !== undefined) {
      const cursorId = next.cursor;
      reply.ahead = true;
      process.send!(reply);
      readAhead(message.id, cursorId);
    } else {
      process.send!(reply);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ ready: true });
}

/** The functions the child program is made of, in the order they are sent. */
export const CHILD_FUNCTIONS = [
  sqlTokens,
  statementVerb,
  destructiveReason,
  pragmaOf,
  pragmaPolicy,
  refusal,
  addonError,
  inspectStatement,
  cutText,
  jsonCell,
  cellSize,
  fillPage,
  takePage,
  jsonArrayWriter,
  pageCollector,
  bindArgs,
  readSchema,
  engineMain,
];
