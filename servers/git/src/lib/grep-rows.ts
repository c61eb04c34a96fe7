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
  private keptBytes = 0;

  constructor(
    private readonly ref: string | undefined,
    private readonly limits: GrepLimits,
  ) {}

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
        at = this.readHeader(chunk, at);
        continue;
      }
      const newline = chunk.indexOf(NEWLINE, at);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.skipping) this.keep(chunk.subarray(at, end));
      if (newline === -1) break;
      this.endRow();
      at = newline + 1;
    }
    return this.full;
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
      let path = header.subarray(0, first).toString('utf8');
      if (this.ref !== undefined && path.startsWith(`${this.ref}:`)) path = path.slice(this.ref.length + 1);
      this.path = path;
      this.line = Number(header.subarray(first + 1, second).toString('latin1'));
      // git's column is the 1-based byte of the first match.
      const column = Number(header.subarray(second + 1, header.length - 1).toString('latin1'));
      this.keepFrom = Math.max(0, (Number.isFinite(column) ? column - 1 : 0) - BEFORE_MATCH_BYTES);
      this.inText = true;
      return from;
    }
    return from;
  }

  /** Keeps the part of a piece of line text that falls in the window (3 bytes more, to cut on a character). */
  private keep(piece: Buffer): void {
    const start = this.textOffset;
    this.textOffset += piece.length;
    const from = Math.max(this.keepFrom, start);
    const to = Math.min(this.keepFrom + LINE_WINDOW_BYTES + 3, this.textOffset);
    if (to > from) {
      this.kept.push(piece.subarray(from - start, to - start));
      this.keptBytes += to - from;
    }
  }

  private endRow(): void {
    if (this.inText && !this.skipping) {
      let bytes = Buffer.concat(this.kept, this.keptBytes);
      const cutAfter = this.textOffset > this.keepFrom + LINE_WINDOW_BYTES;
      if (cutAfter) bytes = bytes.subarray(0, characterBoundary(bytes, LINE_WINDOW_BYTES));
      // A window that starts inside a character starts at the next one.
      let skip = 0;
      if (this.keepFrom > 0) while (skip < 3 && skip < bytes.length && (bytes[skip] & 0xc0) === 0x80) skip++;
      const text = `${this.keepFrom > 0 ? '…' : ''}${bytes.subarray(skip).toString('utf8')}${cutAfter ? '…' : ''}`;
      this.matches.push({ path: this.path, line: this.line, text });
      this.textBytes += bytes.length + Buffer.byteLength(this.path);
    }
    this.header = [];
    this.headerBytes = 0;
    this.nuls = 0;
    this.inText = false;
    this.skipping = false;
    this.textOffset = 0;
    this.kept = [];
    this.keptBytes = 0;
  }
}
