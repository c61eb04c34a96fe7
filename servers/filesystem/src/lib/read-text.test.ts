import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FsError } from './errors.js';
import { readChunk, readHead, readLineRange, readTail, readWhole } from './read-text.js';

let dir: string;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'read-text-'));
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | Buffer): Promise<string> {
  const p = path.join(dir, name);
  await fsp.writeFile(p, content);
  return p;
}

async function errorOf(promise: Promise<unknown>): Promise<FsError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FsError);
  return error as FsError;
}

describe('readHead', () => {
  it('returns the first lines with their terminators', async () => {
    const p = await file('a.txt', 'one\ntwo\nthree\n');
    expect(await readHead(p, 2)).toMatchObject({ text: 'one\ntwo\n', lines: 2, truncated: true });
  });

  it('returns the whole file, untruncated, when asked for more lines than it has', async () => {
    const p = await file('a.txt', 'one\ntwo');
    expect(await readHead(p, 10)).toMatchObject({ text: 'one\ntwo', lines: 2, truncated: false });
  });

  it('keeps CRLF line endings and multi-byte characters intact', async () => {
    const p = await file('a.txt', 'héllo 🌍\r\nsecond\r\nthird\r\n');
    expect((await readHead(p, 2)).text).toBe('héllo 🌍\r\nsecond\r\n');
  });

  it('handles an empty file', async () => {
    const p = await file('empty.txt', '');
    expect(await readHead(p, 3)).toMatchObject({ text: '', lines: 0, truncated: false });
  });
});

describe('readTail', () => {
  it('returns the last lines, counting a final newline as the end of the last line', async () => {
    const p = await file('a.txt', 'one\ntwo\nthree\n');
    expect(await readTail(p, 2)).toMatchObject({ text: 'two\nthree\n', lines: 2, truncated: true });
  });

  it('returns the last lines of a file without a final newline', async () => {
    const p = await file('a.txt', 'one\ntwo\nthree');
    expect((await readTail(p, 1)).text).toBe('three');
    expect((await readTail(p, 5)).text).toBe('one\ntwo\nthree');
    expect((await readTail(p, 5)).truncated).toBe(false);
  });

  it('finds lines that straddle its read chunks', async () => {
    const long = 'x'.repeat(100_000);
    const p = await file('a.txt', `first\n${long}\n${long}\nlast\n`);
    const tail = await readTail(p, 3);
    expect(tail.text).toBe(`${long}\n${long}\nlast\n`);
    expect(tail.lines).toBe(3);
  });

  it('reads a small first chunk, then larger ones, and finds every line across them', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`);
    const p = await file('many.txt', lines.join(''));
    const small = await readTail(p, 10);
    expect(small.text).toBe(lines.slice(-10).join(''));
    expect(small.bytesRead).toBeLessThanOrEqual(4096);
    for (const count of [500, 3_000, 19_999, 20_000]) expect((await readTail(p, count)).text).toBe(lines.slice(-count).join(''));
    expect((await readHead(p, 10)).bytesRead).toBeLessThanOrEqual(4096);
  });

  it('returns nothing for zero lines', async () => {
    const p = await file('a.txt', 'one\n');
    expect((await readTail(p, 0)).text).toBe('');
  });
});

/** The bytes of the buffers allocated while `run` runs (Buffer.alloc, allocUnsafe, concat). */
async function bufferBytesAllocated(run: () => Promise<unknown>): Promise<number[]> {
  const sizes: number[] = [];
  const spies = (['alloc', 'allocUnsafe', 'concat'] as const).map((name) => {
    const original = Buffer[name] as (...args: unknown[]) => Buffer;
    return vi.spyOn(Buffer, name).mockImplementation(((...args: unknown[]) => {
      const made = original.apply(Buffer, args);
      sizes.push(made.length);
      return made;
    }) as never);
  });
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return sizes;
}

// Every buffer a read allocates is memory outside the JavaScript heap that V8 counts against
// the old generation: a 64 KiB buffer made on every head of a few lines drove the server
// into a full collection about every hundred calls (a quarter more CPU per call).
describe('buffers a few lines cost', () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}: the quick brown fox jumps over the lazy dog\n`).join('');

  it('a head of ten lines allocates one small read buffer, not a second one for a read that never comes', async () => {
    const p = await file('big.log', lines);
    const sizes = await bufferBytesAllocated(async () => expect((await readHead(p, 10)).lines).toBe(10));
    expect(sizes.filter((size) => size >= 4096)).toEqual([4096]);
  });

  it('a head that needs more than the first read still grows its buffer and finds its lines', async () => {
    const p = await file('big.log', lines);
    const slice = await readHead(p, 200);
    expect(slice.lines).toBe(200);
    expect(slice.text.endsWith('line 200: the quick brown fox jumps over the lazy dog\n')).toBe(true);
  });

  it('a tail of ten lines uses its one read as it is (no copy of it)', async () => {
    const p = await file('big.log', lines);
    const sizes = await bufferBytesAllocated(async () => expect((await readTail(p, 10)).text).toMatch(/^line 4991: .*\n(.*\n){9}$/));
    expect(sizes.filter((size) => size >= 4096)).toEqual([4096]);
  });
});

describe('large files', () => {
  it('reads head, tail and an early range of a 400 MB file without reading the middle', async () => {
    const p = path.join(dir, 'big.log');
    await fsp.writeFile(p, 'h1\nh2\nh3\n');
    // Sparse: the middle takes no disk space and no time to create.
    await fsp.truncate(p, 400 * 1024 * 1024);
    await fsp.appendFile(p, '\nt1\nt2\nt3\n');

    const head = await readHead(p, 2);
    expect(head.text).toBe('h1\nh2\n');
    expect(head.bytesRead).toBeLessThanOrEqual(64 * 1024);

    const tail = await readTail(p, 2);
    expect(tail.text).toBe('t2\nt3\n');
    expect(tail.bytesRead).toBeLessThanOrEqual(64 * 1024);

    const range = await readLineRange(p, 2, 3);
    expect(range.text).toBe('h2\nh3\n');
    expect(range.bytesRead).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses a whole read above the limit with advice to read part of the file', async () => {
    const p = path.join(dir, 'big.log');
    await fsp.writeFile(p, '');
    await fsp.truncate(p, 12 * 1024 * 1024);
    const error = await errorOf(readWhole(p));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toMatch(/12\.00 MB/);
    expect(error.message).toMatch(/head, tail or start_line\/end_line/);
  });

  it('refuses a slice whose lines exceed the byte limit, saying it is one line longer than the limit', async () => {
    const p = await file('minified.js', 'y'.repeat(300_000));
    for (const error of [await errorOf(readHead(p, 1, { maxBytes: 100_000 })), await errorOf(readTail(p, 1, { maxBytes: 100_000 }))]) {
      expect(error.code).toBe('TOO_LARGE');
      expect(error.message).toMatch(/^(Line 1 of|A line of the last 1 lines of) .* is longer than 97\.66 KB.*start_byte/);
    }
  });

  it('refuses too many short lines saying about how many fit, not that the lines are long', async () => {
    // 10,000 lines of 50 bytes: 500,000 bytes, of which 100,000 hold 2,000 lines.
    const p = await file('log.txt', Array.from({ length: 10_000 }, (_, i) => `${String(i).padStart(8, '0')} ${'z'.repeat(40)}`).join('\n') + '\n');
    const errors = [
      await errorOf(readHead(p, 10_000, { maxBytes: 100_000 })),
      await errorOf(readLineRange(p, 2, 9_000, { maxBytes: 100_000 })),
      await errorOf(readTail(p, 10_000, { maxBytes: 100_000 })),
    ];
    for (const error of errors) {
      expect(error.code).toBe('TOO_LARGE');
      const fit = Number(/about (\d+) of these lines fit/.exec(error.message)?.[1]);
      expect(fit, error.message).toBeGreaterThanOrEqual(1_990);
      expect(fit, error.message).toBeLessThanOrEqual(2_000);
      expect(error.message).not.toMatch(/longer than/);
    }
    expect(errors[0]!.message).toMatch(/^The lines 1-10000 of .* come to more than 97\.66 KB/);
    // What it says fits, fits.
    const fit = Number(/about (\d+) of/.exec(errors[0]!.message)![1]);
    expect((await readHead(p, fit, { maxBytes: 100_000 })).lines).toBe(fit);
  });
});

describe('readLineRange', () => {
  const content = 'l1\nl2\nl3\nl4\nl5\n';

  it('returns an inclusive 1-based range', async () => {
    const p = await file('a.txt', content);
    expect(await readLineRange(p, 2, 4)).toMatchObject({ text: 'l2\nl3\nl4\n', lines: 3, truncated: true });
  });

  it('reads to the end when no end line is given, and clamps an end past the last line', async () => {
    const p = await file('a.txt', content);
    expect((await readLineRange(p, 4)).text).toBe('l4\nl5\n');
    expect((await readLineRange(p, 5, 99)).text).toBe('l5\n');
    expect((await readLineRange(p, 1, 99)).truncated).toBe(false);
  });

  it('finds range boundaries that fall across chunk edges', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `line ${i + 1}`);
    const p = await file('many.txt', lines.join('\n') + '\n');
    expect((await readLineRange(p, 20_000, 20_002)).text).toBe('line 20000\nline 20001\nline 20002\n');
  });

  it('says how many lines the file has when the start is past the end', async () => {
    const p = await file('a.txt', content);
    const error = await errorOf(readLineRange(p, 9, 10));
    expect(error.code).toBe('OUT_OF_RANGE');
    expect(error.message).toMatch(/has 5 lines/);
  });

  it('rejects a reversed or non-positive range', async () => {
    const p = await file('a.txt', content);
    expect((await errorOf(readLineRange(p, 0, 2))).code).toBe('INVALID_ARGUMENT');
    expect((await errorOf(readLineRange(p, 3, 2))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('readWhole', () => {
  it('returns the file as UTF-8', async () => {
    const p = await file('a.txt', 'ünïcode\r\n');
    expect(await readWhole(p)).toBe('ünïcode\r\n');
  });

  it('reports a directory as NOT_A_FILE and a missing file as NOT_FOUND', async () => {
    expect((await errorOf(readWhole(dir))).code).toBe('NOT_A_FILE');
    expect((await errorOf(readWhole(path.join(dir, 'missing')))).code).toBe('NOT_FOUND');
  });
});

describe('readChunk (issue 21, items 6 and 11)', () => {
  it('reads only the bytes it returns from a large file, and says where to go on', async () => {
    const line = `${'a'.repeat(99)}\n`;
    const p = await file('big.txt', line.repeat(100_000)); // 10 MB
    const reserved: number[] = [];
    const slice = await readChunk(p, { byte: 0 }, { maxBytes: 1000, reserve: async (bytes) => (reserved.push(bytes), () => undefined) });
    expect(slice).toMatchObject({ text: line.repeat(10), lines: 10, truncated: true, nextByte: 1000, nextLine: 11 });
    expect(slice.bytesRead).toBeLessThanOrEqual(1001);
    expect(reserved).toEqual([1001]);
  });

  it('cuts a line longer than the limit at a character boundary, and goes on from there byte for byte', async () => {
    const content = Buffer.from(`${'€'.repeat(1000)}\nend\n`); // 3-byte characters
    const p = await file('long.txt', content);
    const parts: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < 100; i++) {
      const slice = await readChunk(p, { byte: start }, { maxBytes: 100 });
      parts.push(Buffer.from(slice.text));
      if (slice.nextByte === undefined) break;
      expect(slice.nextByte % 3 === 0 || slice.nextByte > 3000).toBe(true);
      start = slice.nextByte;
    }
    expect(Buffer.concat(parts).equals(content)).toBe(true);
  });

  it('starts at a line, and says when the line is past the end', async () => {
    const p = await file('a.txt', 'one\ntwo\nthree\n');
    expect(await readChunk(p, { line: 2 })).toMatchObject({ text: 'two\nthree\n', lines: 2, truncated: true });
    expect((await errorOf(readChunk(p, { line: 4 }))).code).toBe('OUT_OF_RANGE');
    expect((await errorOf(readChunk(p, { line: 9 }))).message).toMatch(/has 3 lines/);
  });
});
