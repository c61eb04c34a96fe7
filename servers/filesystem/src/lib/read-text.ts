import { fstatSync } from 'node:fs';
import type { ReadableFile } from './descriptor.js';
import { FsError, toFsError } from './errors.js';
import { formatSize } from './format-size.js';
import { openRegularDescriptor } from './open-checked.js';
import { characterBoundary, characterLength } from '@mcp-reference/shared/core';

/**
 * Reading UTF-8 text files in bounded time and memory.
 *
 * A line is the text up to and including "\n"; a last line without one still counts.
 * Every function returns an exact slice of the file (line terminators, "\r\n"
 * included, are kept as they are), so `head` + the rest is the file byte for byte.
 * Slices are cut only at "\n" bytes, which never occur inside a multi-byte UTF-8
 * sequence, so decoding a slice never splits a character.
 */
export interface TextSlice {
  text: string;
  /** Number of lines in `text`. */
  lines: number;
  /** True when the file has content outside `text`. */
  truncated: boolean;
  /** Bytes read from disk to produce this slice (shows that tail does not read the whole file). */
  bytesRead: number;
}

export interface ReadLimitOptions {
  /** Refuse (TOO_LARGE) rather than return more than this many bytes. */
  maxBytes?: number;
  /** Stops the read between chunks. */
  signal?: AbortSignal;
  /**
   * Longest run without a newline a line range reads through while looking for its
   * first line (default 64 MiB): past a huge region without newlines it says so instead
   * of reading on, possibly through gigabytes of a file with no line breaks at all.
   */
  maxScanBytes?: number;
}

/**
 * What to read: a path (opened here, refusing anything but a regular file without
 * blocking on a FIFO), or a handle the caller opened and checked (path-policy's
 * openFile), which is used and left open. `label` names it in messages.
 */
export type TextSource = string | { handle: ReadableFile; label: string };

/** The limit for whole-file reads and for the size of any slice, unless told otherwise. */
export const DEFAULT_MAX_TEXT_BYTES = 10 * 1024 * 1024;

const DEFAULT_MAX_SCAN_BYTES = 64 * 1024 * 1024;

const CHUNK = 64 * 1024;
// The first read of a head or a tail is small (a few lines are the usual ask, and each read
// allocates its buffer); reads after it grow to CHUNK.
const FIRST_CHUNK = 4 * 1024;
const NEWLINE = 0x0a;

/** The first `count` lines. Reads only as far as the last of them. */
export async function readHead(file: TextSource, count: number, options: ReadLimitOptions = {}): Promise<TextSlice> {
  assertCount(count, 'head');
  if (count === 0) return { text: '', lines: 0, truncated: true, bytesRead: 0 };
  return readLineRange(file, 1, count, { ...options, allowPastEnd: true });
}

/** The last `count` lines, read backwards from the end in chunks: cost is that of the lines, not of the file. */
export async function readTail(source: TextSource, count: number, options: ReadLimitOptions = {}): Promise<TextSlice> {
  assertCount(count, 'tail');
  return withFile(source, async (handle, sizeOf, file) => {
    let size = await sizeOf();
    // A file that shrinks while it is read (log rotation) is read again from its new end.
    for (let attempt = 1; ; attempt++) {
      const slice = await tailOnce(handle, size, count, file, options);
      if (slice !== undefined) return slice;
      if (attempt === 3) throw new FsError('IO_ERROR', `${file} kept shrinking while its end was read; try again.`);
      size = fstatSync(handle.fd).size;
    }
  });
}

/** One attempt at the tail of a file of `size` bytes; undefined if it turned out shorter. */
async function tailOnce(handle: ReadableFile, size: number, count: number, file: string, options: ReadLimitOptions): Promise<TextSlice | undefined> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TEXT_BYTES;
  if (size === 0 || count === 0) return { text: '', lines: 0, truncated: size > 0, bytesRead: 0 };
  const chunks: Buffer[] = [];
  let position = size;
  let bytesRead = 0;
  let newlines = 0;
  let start = 0;
  // The file's final "\n" ends the last line rather than starting a new one.
  let skipFinalNewline = true;
  let step = FIRST_CHUNK;
  outer: while (position > 0) {
    const length = Math.min(step, position);
    step = Math.min(CHUNK, step * 4);
    position -= length;
    options.signal?.throwIfAborted();
    // Zero-filled, and only the bytes actually read are used: a short read (the file
    // shrank) must never hand back whatever memory the buffer held before.
    const chunk = Buffer.alloc(length);
    const got = await readExactly(handle, chunk, position);
    if (got < length) return undefined;
    bytesRead += length;
    chunks.unshift(chunk);
    for (let i = chunk.lastIndexOf(NEWLINE, length - 1); i !== -1; i = i > 0 ? chunk.lastIndexOf(NEWLINE, i - 1) : -1) {
      if (skipFinalNewline && position + i === size - 1) continue;
      if (++newlines === count) {
        start = position + i + 1;
        break outer;
      }
    }
    skipFinalNewline = false;
    if (size - position > maxBytes) throw tooLargeSlice(file, `last ${count} lines`, maxBytes, newlines, size - position);
  }
  // One chunk (the usual tail of a few lines) is used as it is: concat would copy it.
  const joined = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  const slice = joined.subarray(start - position);
  if (slice.length > maxBytes) throw tooLargeSlice(file, `last ${count} lines`, maxBytes, count, slice.length);
  return { text: slice.toString('utf8'), lines: countLines(slice), truncated: start > 0, bytesRead };
}

/**
 * Lines `start` to `end` (1-based, inclusive; `end` omitted means to the end of the
 * file). Reads forward and stops at the end of line `end`. OUT_OF_RANGE when `start`
 * is past the last line, with the real line count in the message.
 */
export async function readLineRange(
  source: TextSource,
  start: number,
  end?: number,
  options: ReadLimitOptions & { allowPastEnd?: boolean } = {},
): Promise<TextSlice> {
  if (!Number.isInteger(start) || start < 1) {
    throw new FsError('INVALID_ARGUMENT', `start_line must be a whole number of 1 or more (got ${start}).`);
  }
  if (end !== undefined && (!Number.isInteger(end) || end < start)) {
    throw new FsError('INVALID_ARGUMENT', `end_line must be a whole number no smaller than start_line ${start} (got ${end}).`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TEXT_BYTES;
  const maxScanBytes = options.maxScanBytes ?? DEFAULT_MAX_SCAN_BYTES;
  const last = end ?? Infinity;
  return withFile(source, async (handle, sizeOf, file) => {
    const parts: Buffer[] = [];
    // Only `buffer.subarray(0, length)` of what a read returned is ever looked at. The
    // first read is small (a few lines are the usual ask), the next ones full chunks.
    let buffer = Buffer.allocUnsafe(start === 1 && last <= 100 ? FIRST_CHUNK : CHUNK);
    let collected = 0;
    let position = 0;
    let bytesRead = 0;
    let newlines = 0;
    let lastByte = -1;
    // Byte offsets of the beginning of line `start` and of the end of line `last`.
    let startOffset = start === 1 ? 0 : -1;
    let endOffset = -1;
    // Offset just after the last "\n" seen: how long the current line has run.
    let lineBegin = 0;
    while (endOffset < 0) {
      options.signal?.throwIfAborted();
      if (startOffset < 0 && position - lineBegin >= maxScanBytes) {
        throw new FsError(
          'TOO_LARGE',
          `Line ${newlines + 1} of ${file} runs on for more than ${formatSize(maxScanBytes)} without a line break, so line ${start} ` +
            'was not looked for past it. The file is probably not line-oriented text; read its end with tail, or an earlier line.',
        );
      }
      const length = await readSome(handle, buffer, position);
      if (length === 0) break;
      bytesRead += length;
      const chunk = buffer.subarray(0, length);
      lastByte = chunk[length - 1];
      for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) {
        newlines++;
        lineBegin = position + i + 1;
        if (newlines === start - 1) startOffset = position + i + 1;
        if (newlines === last) {
          endOffset = position + i + 1;
          break;
        }
      }
      if (startOffset >= 0) {
        const from = Math.max(startOffset - position, 0);
        const to = endOffset >= 0 ? endOffset - position : length;
        if (to > from) {
          collected += to - from;
          if (collected > maxBytes) throw tooLargeSlice(file, describeRange(start, end), maxBytes, Math.max(0, newlines - (start - 1)), collected, newlines + 1);
          // Copy: `buffer` is reused for the next chunk.
          parts.push(Buffer.from(chunk.subarray(from, to)));
        }
      }
      position += length;
      // Grown only for a read that follows: a 64 KiB buffer allocated on the way out (on every
      // head of a few lines) was external memory that drove V8 into a full collection every
      // hundred calls or so.
      if (endOffset < 0 && buffer.length < CHUNK) buffer = Buffer.allocUnsafe(CHUNK);
    }
    if (endOffset < 0) {
      // Reached the end of the file: a last line without "\n" still counts.
      const linesInFile = newlines + (position > 0 && lastByte !== NEWLINE ? 1 : 0);
      if (start > linesInFile) {
        if (options.allowPastEnd || linesInFile === 0) return { text: '', lines: 0, truncated: position > 0, bytesRead };
        throw new FsError(
          'OUT_OF_RANGE',
          `start_line ${start} is past the end of ${file}, which has ${linesInFile} line${linesInFile === 1 ? '' : 's'}.`,
        );
      }
    }
    const slice = Buffer.concat(parts);
    return {
      text: slice.toString('utf8'),
      lines: countLines(slice),
      // More bytes after the range: seen in the last chunk read, or else asked of fstat.
      truncated: startOffset > 0 || (endOffset >= 0 && (endOffset < position || endOffset < (await sizeOf()))),
      bytesRead,
    };
  });
}

/** A slice that may have been cut at the response limit, with where to go on from. */
export interface ChunkSlice extends TextSlice {
  /** Byte offset where the rest begins, when the slice was cut: pass it back as the start. */
  nextByte?: number;
  /** The line where the rest begins, when the cut fell at a line end and the line number is known. */
  nextLine?: number;
}

/** Where a chunk starts: a byte offset (from an earlier cut), or a 1-based line. */
export type ChunkStart = { byte: number } | { line: number };

/**
 * Up to `maxBytes` bytes of text from `start` to the end of the file, read and decoded
 * alone (never the whole file): the memory of a call is that of its answer. A rest longer
 * than `maxBytes` is cut at the last line end that fits, or, inside a line longer than
 * that, at a character boundary; `nextByte` (and `nextLine` when known) says where the
 * next read goes on, so following the cuts yields the file byte for byte.
 *
 * `reserve(bytes)` is told, before the buffer is allocated, how many bytes this read will
 * hold, and returns a release function (a server-wide budget of bytes in flight).
 */
export async function readChunk(
  source: TextSource,
  start: ChunkStart,
  options: ReadLimitOptions & { reserve?: (bytes: number) => Promise<() => void> } = {},
): Promise<ChunkSlice> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TEXT_BYTES;
  if ('byte' in start && (!Number.isSafeInteger(start.byte) || start.byte < 0)) {
    throw new FsError('INVALID_ARGUMENT', `start_byte must be a whole number of 0 or more (got ${start.byte}).`);
  }
  return withFile(source, async (handle, sizeOf, file) => {
    let offset: number;
    // The line number at `offset`, when known (a byte offset does not tell it).
    let line: number | undefined;
    if ('line' in start) {
      offset = await findLineStart(handle, start.line, file, options);
      line = start.line;
    } else {
      offset = start.byte;
      line = offset === 0 ? 1 : undefined;
      if (offset > 0) await assertCharacterBoundary(handle, offset, file);
    }
    const size = await sizeOf();
    if ('line' in start && start.line > 1 && offset >= size) {
      // The file ends with the "\n" of the line before: there is no line `start.line`.
      throw new FsError('OUT_OF_RANGE', `start_line ${start.line} is past the end of ${file}, which has ${start.line - 1} line${start.line === 2 ? '' : 's'}.`);
    }
    // One byte more than is returned tells whether the file goes on past the cut.
    const want = Math.min(maxBytes, Math.max(0, size - offset)) + 1;
    const release = (await options.reserve?.(want)) ?? (() => undefined);
    try {
      options.signal?.throwIfAborted();
      const buffer = Buffer.allocUnsafe(want);
      const got = await readExactly(handle, buffer, offset);
      const more = got === want;
      let end = got;
      if (more) {
        const limit = got - 1;
        const newline = buffer.lastIndexOf(NEWLINE, limit - 1);
        end = newline !== -1 ? newline + 1 : characterBoundary(buffer, limit);
        // A limit too small to hold even one character: take one whole character anyway.
        if (end === 0) end = Math.min(got, characterLength(buffer[0]));
      }
      const slice = buffer.subarray(0, end);
      const lines = countLines(slice);
      const cutAtLineEnd = end > 0 && slice[end - 1] === NEWLINE;
      const nextLine = more && cutAtLineEnd && line !== undefined ? line + lines : undefined;
      return {
        text: slice.toString('utf8'),
        lines,
        truncated: offset > 0 || more,
        bytesRead: got,
        ...(more ? { nextByte: offset + end } : {}),
        ...(nextLine !== undefined ? { nextLine } : {}),
      };
    } finally {
      release();
    }
  });
}

/** Byte offset of the start of line `line` (1-based), scanning forward in bounded chunks. */
async function findLineStart(handle: ReadableFile, line: number, file: string, options: ReadLimitOptions): Promise<number> {
  if (!Number.isInteger(line) || line < 1) {
    throw new FsError('INVALID_ARGUMENT', `start_line must be a whole number of 1 or more (got ${line}).`);
  }
  if (line === 1) return 0;
  const maxScanBytes = options.maxScanBytes ?? DEFAULT_MAX_SCAN_BYTES;
  const buffer = Buffer.allocUnsafe(CHUNK);
  let position = 0;
  let newlines = 0;
  let lineBegin = 0;
  let lastByte = -1;
  for (;;) {
    options.signal?.throwIfAborted();
    if (position - lineBegin >= maxScanBytes) {
      throw new FsError(
        'TOO_LARGE',
        `Line ${newlines + 1} of ${file} runs on for more than ${formatSize(maxScanBytes)} without a line break, so line ${line} ` +
          'was not looked for past it. The file is probably not line-oriented text; read it with start_byte, or its end with tail.',
      );
    }
    const length = await readSome(handle, buffer, position);
    if (length === 0) break;
    for (let i = buffer.indexOf(NEWLINE); i !== -1 && i < length; i = buffer.indexOf(NEWLINE, i + 1)) {
      newlines++;
      lineBegin = position + i + 1;
      if (newlines === line - 1) return lineBegin;
    }
    lastByte = buffer[length - 1];
    position += length;
  }
  const linesInFile = newlines + (position > 0 && lastByte !== NEWLINE ? 1 : 0);
  throw new FsError('OUT_OF_RANGE', `start_line ${line} is past the end of ${file}, which has ${linesInFile} line${linesInFile === 1 ? '' : 's'}.`);
}

/** Refuses a start_byte inside a multi-byte character (its text would not decode). */
async function assertCharacterBoundary(handle: ReadableFile, offset: number, file: string): Promise<void> {
  const before = Buffer.alloc(4);
  const from = Math.max(0, offset - 3);
  const got = await readExactly(handle, before.subarray(0, offset - from + 1), from);
  if (got <= offset - from) return; // at or past the end: nothing to split
  const here = offset - from;
  if ((before[here] & 0xc0) !== 0x80) return;
  for (let i = here - 1; i >= 0; i--) {
    const byte = before[i];
    if ((byte & 0xc0) === 0x80) continue;
    if (characterLength(byte) > here - i) {
      throw new FsError(
        'INVALID_ARGUMENT',
        `start_byte ${offset} falls inside a multi-byte character of ${file}. Pass the nextStartByte of an earlier answer, or a start_line.`,
      );
    }
    return;
  }
}

/** The whole file, refused with TOO_LARGE (and advice) above `maxBytes`. */
export async function readWhole(source: TextSource, maxBytes: number = DEFAULT_MAX_TEXT_BYTES): Promise<string> {
  return (await readWholeBytes(source, maxBytes)).toString('utf8');
}

/** The whole file as bytes (for edits, which must keep every byte). */
export async function readWholeBytes(source: TextSource, maxBytes: number = DEFAULT_MAX_TEXT_BYTES): Promise<Buffer> {
  return withFile(source, async (handle, sizeOf, file) => {
    const size = await sizeOf();
    if (size > maxBytes) {
      throw new FsError(
        'TOO_LARGE',
        `${file} is ${formatSize(size)}, above the ${formatSize(maxBytes)} limit for whole reads; ` +
          'use head, tail or start_line/end_line to read part of it.',
      );
    }
    // Only the bytes read are returned (the file may have shrunk since fstat).
    const buffer = Buffer.allocUnsafe(size);
    const length = await readExactly(handle, buffer, 0);
    return buffer.subarray(0, length);
  });
}

// `size` is asked for only where it is needed (an fstat less for head and line ranges).
// The type was checked when the file was opened: here by openRegularDescriptor, for a handle
// by the caller (path-policy's openFile); a descriptor's type cannot change.
async function withFile<T>(
  source: TextSource,
  use: (handle: ReadableFile, size: () => Promise<number>, label: string) => Promise<T>,
): Promise<T> {
  const label = typeof source === 'string' ? source : source.label;
  let opened: ReadableFile | undefined;
  try {
    const handle = typeof source === 'string' ? (opened = await openRegularDescriptor(source)) : source.handle;
    let size: Promise<number> | undefined;
    // fstat of an open descriptor never waits on a disk: synchronous, no thread-pool trip.
    return await use(handle, () => (size ??= Promise.resolve(fstatSync(handle.fd).size)), label);
  } catch (error) {
    throw toFsError(error, label);
  } finally {
    await opened?.close().catch(() => undefined);
  }
}

async function readSome(handle: ReadableFile, buffer: Buffer, position: number): Promise<number> {
  return (await handle.read(buffer, 0, buffer.length, position)).bytesRead;
}

/** Fills `buffer` from `position`, stopping early only at end of file (the file may have shrunk). */
async function readExactly(handle: ReadableFile, buffer: Buffer, position: number): Promise<number> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

function countLines(slice: Buffer): number {
  if (slice.length === 0) return 0;
  let lines = 0;
  for (let i = slice.indexOf(NEWLINE); i !== -1; i = slice.indexOf(NEWLINE, i + 1)) lines++;
  return slice[slice.length - 1] === NEWLINE ? lines : lines + 1;
}

function assertCount(count: number, name: string): void {
  if (!Number.isInteger(count) || count < 0) {
    throw new FsError('INVALID_ARGUMENT', `${name} must be a whole number of lines, 0 or more (got ${count}).`);
  }
}

function describeRange(start: number, end: number | undefined): string {
  return end === undefined ? `lines ${start} to the end` : `lines ${start}-${end}`;
}

/**
 * The refusal of lines that come to more than one answer holds: `lines` whole lines of the
 * range were seen in `bytes` bytes when it was known, from which it says about how many fit
 * (none: a single line, number `longLine` when known, is longer than the limit).
 */
function tooLargeSlice(file: string, what: string, maxBytes: number, lines: number, bytes: number, longLine?: number): FsError {
  const most = formatSize(maxBytes);
  const fit = Math.floor((lines * maxBytes) / bytes);
  if (fit < 1) {
    const which = longLine === undefined ? `A line of the ${what} of ${file}` : `Line ${longLine} of ${file}`;
    return new FsError('TOO_LARGE', `${which} is longer than ${most}, the most one answer carries; read it in parts with start_byte (each part says where the next begins).`);
  }
  return new FsError(
    'TOO_LARGE',
    `The ${what} of ${file} come to more than ${most}, the most one answer carries: about ${fit} of these lines fit. ` +
      'Ask for fewer, or read on in parts with start_line alone (or start_byte): each part stops at the limit and says where the next begins.',
  );
}
