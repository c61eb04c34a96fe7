import { characterBoundary, characterLength } from '@mcp-reference/shared/core';
import { ArgumentError } from './validate.js';

/** What part of a text to return: lines start_line..end_line, or the bytes from start_byte. */
export interface SliceRange {
  start_line?: number;
  end_line?: number;
  start_byte?: number;
  /** Most bytes of text returned. */
  maxBytes: number;
}

/** A part of a text, and where to read on when it was cut. */
export interface TextSlice {
  content: string;
  binary: boolean;
  /** Lines in the whole text, when the caller knows them. */
  total_lines?: number;
  truncated: boolean;
  /** Set when the part was cut at a line end: the line to read on from. */
  next_line?: number;
  /** Set whenever the part was cut: the byte to read on from (inside a long line too). */
  next_byte?: number;
}

export interface SliceOptions {
  /** What the text is called in messages (a file's path, "the diff"). */
  name: string;
  /** Report a NUL in the first 8,000 bytes as binary (git's own test), as for files; off for a diff. */
  detectBinary?: boolean;
  /**
   * Accept as start_byte only a place where a piece of this text can have ended (a line
   * start, or at least the limit into a line longer than it): for a text that can change
   * between two calls (a diff of the work tree), so that reading on in a text that changed
   * is refused, in most cases, instead of answering from the middle of some other line.
   */
  onlyPieceEnds?: boolean;
}

const NEWLINE = 0x0a;
/** Bytes at the start of a text looked at for a NUL (git's own test for binary). */
const BINARY_PROBE = 8000;

/** How many newlines `bytes` holds. */
export function newlinesIn(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** How many lines `bytes` holds: its newlines, and one more for a last line without one. */
export function linesIn(bytes: Buffer): number {
  return newlinesIn(bytes) + (bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE ? 1 : 0);
}

/**
 * What one answer returns of a text (a blob, git's output) read from its first byte, a chunk
 * at a time: lines start_line..end_line, or the bytes from start_byte, at most `maxBytes` of
 * them, cut at the last line end within the limit, or where no character is split when one
 * line is longer. It holds at most the limit and one chunk whatever the text's size, and
 * `push` says when it has what it needs, so that git can be stopped there.
 */
export class TextSlicer {
  private offset = 0; // bytes of the text looked at
  private newlines = 0; // '\n' among them
  private lineStart = 0; // where the line of the next byte to look at starts (= offset after a '\n')
  private from = -1; // blob offset of the first byte returned, once reached
  private fromLine = 0; // the line that byte is in
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private keptLines = 0;
  private refused: string | undefined;
  private binary = false;
  private done = false;

  constructor(
    private readonly range: SliceRange,
    private readonly options: SliceOptions,
  ) {}

  /** Takes the next chunk; true once nothing more is needed. Never throws (it runs in a stream's handler). */
  push(chunk: Buffer): boolean {
    if (this.done) return true;
    if (this.options.detectBinary !== false && this.offset < BINARY_PROBE && chunk.subarray(0, BINARY_PROBE - this.offset).includes(0)) {
      this.binary = true;
      return (this.done = true);
    }
    let part = chunk;
    if (this.from === -1) {
      const at = this.startIn(chunk);
      if (at === -1) return false;
      this.from = this.offset;
      this.fromLine = this.newlines + 1;
      part = chunk.subarray(at);
      if (this.range.start_byte !== undefined && part.length > 0 && (part[0] & 0xc0) === 0x80 && this.splitsCharacter(chunk, at)) {
        this.refused = `start_byte ${this.range.start_byte} falls inside a multi-byte character of ${this.options.name}. Pass the next_byte of an earlier answer.`;
        return (this.done = true);
      }
      // A piece ends at a line end, or, in a line longer than the limit, at most 3 bytes short of it (a whole character).
      const intoLine = this.from - this.lineStart;
      if (this.options.onlyPieceEnds && this.range.start_byte !== undefined && intoLine > 0 && intoLine < this.range.maxBytes - 3) {
        this.refused =
          `start_byte ${this.range.start_byte} is not where a piece of ${this.options.name} ended: ${this.options.name} has changed since ` +
          'that piece (or the number is not a next_byte). Read it again from the start, without start_byte.';
        return (this.done = true);
      }
    }
    if (this.range.end_line !== undefined) {
      const wanted = this.range.end_line - this.fromLine + 1;
      let end = 0;
      while (this.keptLines < wanted) {
        const newline = part.indexOf(NEWLINE, end);
        if (newline === -1) break;
        this.keptLines++;
        end = newline + 1;
      }
      if (this.keptLines === wanted) {
        part = part.subarray(0, end);
        this.done = true;
      }
    }
    this.look(part);
    this.kept.push(part);
    this.keptBytes += part.length;
    if (this.keptBytes > this.range.maxBytes) this.done = true;
    return this.done;
  }

  /** Lines in what `push` looked at: the whole blob's when it never said it had enough. */
  get linesSeen(): number {
    // A last line without its '\n' is one more.
    return this.newlines + (this.lineStart < this.offset ? 1 : 0);
  }

  /** The answer, once the text has ended or `push` said it had enough; `total_lines` when known. */
  finish(total_lines: number | undefined): TextSlice {
    if (this.refused) throw new ArgumentError(this.refused);
    if (this.binary) return { content: '', binary: true, truncated: false };
    const total = this.linesSeen;
    const { start_line, end_line, start_byte, maxBytes } = this.range;
    const byLine = start_byte === undefined;
    // Not reached, or reached at the very end (after the last line's '\n'): no such line.
    if (byLine && (start_line ?? 1) > 1 && (this.from === -1 || (!this.done && this.from === this.offset && this.keptBytes === 0))) {
      throw new ArgumentError(`start_line ${start_line} is past the end of ${this.options.name}, which has ${total} line${total === 1 ? '' : 's'}.`);
    }
    if (!byLine && this.from === -1 && start_byte > this.offset && !this.done) {
      throw new ArgumentError(`start_byte ${start_byte} is past the end of ${this.options.name}, which has ${this.offset} bytes.`);
    }
    let data = Buffer.concat(this.kept, this.keptBytes);
    const answer: TextSlice = { content: '', binary: false, truncated: false, ...(total_lines === undefined ? {} : { total_lines }) };
    if (data.length > maxBytes) {
      const newline = data.lastIndexOf(NEWLINE, maxBytes - 1);
      let end: number;
      if (newline !== -1) {
        end = newline + 1;
        answer.next_line = this.fromLine + newlinesIn(data.subarray(0, end));
      } else {
        end = characterBoundary(data, maxBytes);
        // A character longer than the limit (never, with a limit of 4 KiB or more): still move on.
        if (end === 0) end = Math.min(data.length, characterLength(data[0]));
      }
      answer.truncated = true;
      answer.next_byte = this.from + end;
      data = data.subarray(0, end);
    }
    let content = data.toString('utf8');
    // A line range (end_line) is its lines joined by '\n', without the one after its last line;
    // a piece of it that was cut keeps its last '\n', so that the pieces put together are the
    // range. A read to the end (from a line, from a byte, whole) is the bytes as they are, so
    // that pieces read on by next_line or next_byte put together are the file.
    if (byLine && end_line !== undefined && !answer.truncated && content.endsWith('\n')) content = content.slice(0, -1);
    answer.content = content;
    return answer;
  }

  /**
   * Where in `chunk` the returned part starts, or -1 when it starts after it; what comes
   * before that point is looked at (counted) here, once.
   */
  private startIn(chunk: Buffer): number {
    const { start_byte } = this.range;
    if (start_byte !== undefined) {
      const at = start_byte - this.offset < chunk.length ? start_byte - this.offset : -1;
      this.look(at === -1 ? chunk : chunk.subarray(0, at));
      return at;
    }
    const before = (this.range.start_line ?? 1) - 1;
    let at = 0;
    while (this.newlines < before) {
      const newline = chunk.indexOf(NEWLINE, at);
      if (newline === -1) {
        this.passed(chunk.subarray(at), 0);
        return -1;
      }
      this.passed(chunk.subarray(at, newline + 1), 1);
      at = newline + 1;
    }
    return at;
  }

  /** Whether the continuation byte at `chunk[at]` belongs to a character that starts before it (looked back within the chunk). */
  private splitsCharacter(chunk: Buffer, at: number): boolean {
    for (let i = at - 1; i >= 0 && i >= at - 3; i--) {
      if ((chunk[i] & 0xc0) === 0x80) continue;
      return characterLength(chunk[i]) > at - i;
    }
    // The lead byte is in an earlier chunk (or the text is not UTF-8): the cut is refused either way.
    return true;
  }

  private look(bytes: Buffer): void {
    this.passed(bytes, newlinesIn(bytes));
  }

  /** `bytes`, holding `newlines` of '\n', were looked at. */
  private passed(bytes: Buffer, newlines: number): void {
    if (bytes.length === 0) return;
    if (newlines > 0) this.lineStart = this.offset + bytes.lastIndexOf(NEWLINE) + 1;
    this.newlines += newlines;
    this.offset += bytes.length;
  }
}

