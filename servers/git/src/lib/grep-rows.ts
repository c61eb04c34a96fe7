import { characterBoundary } from '@mcp-reference/shared/core';

export interface GrepMatch {
  path: string;
  line: number;
  /** The matching line, or a window of it around the first match ("…" where it was cut). */
  text: string;
}

/** Bytes of a matching line kept, around its first match: a minified file's one line can be megabytes. */
export const LINE_WINDOW_BYTES = 1024;
/** Of them, before the match. */
const BEFORE_MATCH_BYTES = 256;
/** A row whose path, line and column take more than this is not git's: it is dropped. */
const MAX_HEADER_BYTES = 64 * 1024;
const NUL = 0;
const NEWLINE = 0x0a;

export interface GrepLimits {
  /** Matches wanted: one more is read to know that more follow. */
  maxMatches: number;
  /** Most bytes of line text in all the matches kept. */
  maxTextBytes: number;
}

/**
 * Lines whose match is decided elsewhere (a regex matched by RE2, grep-check.ts): each row is
 * handed over whole, up to `maxLineBytes`, and becomes a match only through `addMatch`.
 */
export interface WholeLines {
  maxLineBytes: number;
  /** A row of git's output: its text, `bytes[start, end)` (the first `maxLineBytes` of it when `cut`); valid only during the call. */
  onLine(path: string, line: number, bytes: Buffer, start: number, end: number, cut: boolean): void;
}

/**
 * The rows of `git grep -n --null --column` (`path\0line\0column\0text\n`), read a chunk at a
 * time as git writes them: each line is kept only in a window around its first match, so a
 * match in a line of megabytes costs a kilobyte, and reading stops once there are more
 * matches, or more text, than one answer holds. Paths at a ref come as `ref:path` and are
 * given without the ref.
 */
export class GrepRowReader {
  readonly matches: GrepMatch[] = [];
  private textBytes = 0;
  // The row being read: its header (path, line, column) until the third NUL, then its text.
  private header: Buffer[] = [];
  private headerBytes = 0;
  private nuls = 0;
  private inText = false;
  private skipping = false;
  private path = '';
  private line = 0;
  private keepFrom = 0;
  private textOffset = 0;
  private kept: Buffer[] = [];
  private lastPathBytes = Buffer.alloc(0);
  private lastPath = '';
  private keptBytes = 0;

  constructor(
    private readonly ref: string | undefined,
    private readonly limits: GrepLimits,
    private readonly wholeLines?: WholeLines,
  ) {}

  /** A match found outside (WholeLines): `column` is the 1-based byte of its start in `text`, which is the line's start (all of it unless `cut`). */
  addMatch(path: string, line: number, text: Buffer, column: number, cut = false): void {
    if (this.full) return;
    const keepFrom = Math.max(0, column - 1 - BEFORE_MATCH_BYTES);
    this.record(path, line, text.subarray(keepFrom, keepFrom + LINE_WINDOW_BYTES + 3), keepFrom, cut ? Infinity : text.length);
  }

  /** Whether reading stopped because one answer could not hold more (more matches may follow). */
  get full(): boolean {
    return this.matches.length > this.limits.maxMatches || this.textBytes > this.limits.maxTextBytes;
  }

  /** Takes the next chunk of git's output; true once no more is needed. Never throws. */
  push(chunk: Buffer): boolean {
    let at = 0;
    while (at < chunk.length && !this.full) {
      // The header is read to its third NUL whatever it holds: a path may hold a newline.
      if (!this.inText && !this.skipping) {
        // Most rows lie whole in one chunk: read in place, without copies.
        at = (this.headerBytes === 0 && this.headerInPlace(chunk, at)) || this.readHeader(chunk, at);
        continue;
      }
      const newline = chunk.indexOf(NEWLINE, at);
      const end = newline === -1 ? chunk.length : newline;
      // A whole line in this chunk goes on as it lies, without a copy (the common case).
      if (this.wholeLines && newline !== -1 && this.textOffset === 0 && !this.skipping) {
        const cut = end - at > this.wholeLines.maxLineBytes;
        this.wholeLines.onLine(this.path, this.line, chunk, at, cut ? at + this.wholeLines.maxLineBytes : end, cut);
        this.resetRow();
        at = newline + 1;
        continue;
      }
      if (!this.skipping) this.keep(chunk.subarray(at, end));
      if (newline === -1) break;
      this.endRow();
      at = newline + 1;
    }
    return this.full;
  }

  /** A header that lies whole in `chunk` from `at`, read there; returns where its text starts, or 0 when it does not. */
  private headerInPlace(chunk: Buffer, at: number): number {
    const first = chunk.indexOf(NUL, at);
    if (first === -1) return 0;
    const second = chunk.indexOf(NUL, first + 1);
    if (second === -1) return 0;
    const third = chunk.indexOf(NUL, second + 1);
    if (third === -1 || third - at > MAX_HEADER_BYTES) return 0;
    // Rows come file by file: a path like the row before's is not decoded again.
    const length = first - at;
    if (length !== this.lastPathBytes.length || chunk.compare(this.lastPathBytes, 0, length, at, first) !== 0) {
      this.lastPathBytes = Buffer.from(chunk.subarray(at, first));
      this.lastPath = this.lastPathBytes.toString('utf8');
    }
    this.startText(this.lastPath, digitsAt(chunk, first + 1, second), digitsAt(chunk, second + 1, third));
    return third + 1;
  }

  /** Reads header bytes from `at`; returns where its text starts, or the chunk's end. */
  private readHeader(chunk: Buffer, at: number): number {
    let from = at;
    while (from < chunk.length) {
      const nul = chunk.indexOf(NUL, from);
      const end = nul === -1 ? chunk.length : nul + 1;
      this.header.push(chunk.subarray(from, end));
      this.headerBytes += end - from;
      // Not git's: dropped up to the next line end.
      if (this.headerBytes > MAX_HEADER_BYTES) {
        this.skipping = true;
        return end;
      }
      from = end;
      if (nul === -1 || ++this.nuls < 3) continue;
      const header = Buffer.concat(this.header, this.headerBytes);
      const first = header.indexOf(NUL);
      const second = header.indexOf(NUL, first + 1);
      this.startText(header.subarray(0, first).toString('utf8'), digitsAt(header, first + 1, second), digitsAt(header, second + 1, header.length - 1));
      return from;
    }
    return from;
  }

  private startText(path: string, line: number, column: number): void {
    this.path = this.ref !== undefined && path.startsWith(`${this.ref}:`) ? path.slice(this.ref.length + 1) : path;
    this.line = line;
    // git's column is the 1-based byte of the first match.
    this.keepFrom = this.wholeLines ? 0 : Math.max(0, (Number.isFinite(column) ? column - 1 : 0) - BEFORE_MATCH_BYTES);
    this.inText = true;
  }

  /** Keeps the part of a piece of line text that falls in the window (3 bytes more, to cut on a character). */
  private keep(piece: Buffer): void {
    const start = this.textOffset;
    this.textOffset += piece.length;
    const from = Math.max(this.keepFrom, start);
    const to = Math.min(this.keepFrom + (this.wholeLines ? this.wholeLines.maxLineBytes : LINE_WINDOW_BYTES + 3), this.textOffset);
    if (to > from) {
      this.kept.push(piece.subarray(from - start, to - start));
      this.keptBytes += to - from;
    }
  }

  private endRow(): void {
    if (this.inText && !this.skipping) {
      const kept = this.kept.length === 1 ? this.kept[0] : Buffer.concat(this.kept, this.keptBytes);
      if (this.wholeLines) this.wholeLines.onLine(this.path, this.line, kept, 0, kept.length, this.textOffset > this.wholeLines.maxLineBytes);
      else this.record(this.path, this.line, kept, this.keepFrom, this.textOffset);
    }
    this.resetRow();
  }

  private resetRow(): void {
    if (this.header.length > 0) this.header = [];
    this.headerBytes = 0;
    this.nuls = 0;
    this.inText = false;
    this.skipping = false;
    this.textOffset = 0;
    if (this.kept.length > 0) this.kept = [];
    this.keptBytes = 0;
  }

  /** Keeps a match: `window` holds the line's bytes from `keepFrom` (3 more than the window, to cut on a character). */
  private record(path: string, line: number, window: Buffer, keepFrom: number, lineLength: number): void {
    let bytes = window;
    const cutAfter = lineLength > keepFrom + LINE_WINDOW_BYTES;
    if (cutAfter) bytes = bytes.subarray(0, characterBoundary(bytes, LINE_WINDOW_BYTES));
    // A window that starts inside a character starts at the next one.
    let skip = 0;
    if (keepFrom > 0) while (skip < 3 && skip < bytes.length && (bytes[skip] & 0xc0) === 0x80) skip++;
    const text = `${keepFrom > 0 ? '…' : ''}${bytes.subarray(skip).toString('utf8')}${cutAfter ? '…' : ''}`;
    this.matches.push({ path, line, text });
    this.textBytes += bytes.length + Buffer.byteLength(path);
  }
}

/** The decimal number git wrote in `bytes[from, to)` (NaN if it is none). */
function digitsAt(bytes: Buffer, from: number, to: number): number {
  if (to <= from || to - from > 15) return NaN;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = bytes[i] - 0x30;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}
