import { describe, it, expect } from 'vitest';
import { linesIn, TextSlicer, type SliceRange } from './text-slice.js';

/**
 * Feeds `blob` to a slicer in chunks of `chunk` bytes, as a pipe would, and returns its answer;
 * in one chunk, as readBlob does with a blob it has whole (and counts itself).
 */
function slice(blob: Buffer, range: SliceRange, chunk = blob.length || 1) {
  const slicer = new TextSlicer(range, { name: 'f.txt' });
  if (chunk >= blob.length) {
    slicer.push(blob);
    return slicer.finish(blob.length === 0 ? 0 : blob.toString('latin1').split('\n').length - (blob[blob.length - 1] === 0x0a ? 1 : 0));
  }
  let stopped = false;
  for (let at = 0; at < blob.length && !stopped; at += chunk) stopped = slicer.push(blob.subarray(at, at + chunk));
  return slicer.finish(stopped ? undefined : slicer.linesSeen);
}

// Long lines of 1-, 2-, 3- and 4-byte characters, short lines, an empty line, no final newline.
const TEXT = [
  'short',
  'é'.repeat(3000),
  '',
  '€'.repeat(2500),
  '😀'.repeat(1500) + 'x',
  ...Array.from({ length: 300 }, (_, i) => `line ${i} ${'ü'.repeat(i % 7)}`),
  'a'.repeat(9000),
  'end',
].join('\n');
const BLOB = Buffer.from(TEXT);

describe('linesIn', () => {
  it('counts a last line without a newline, and none for an empty text', () => {
    for (const [text, lines] of [['', 0], ['a', 1], ['a\n', 1], ['a\nb', 2], ['\n\n', 2], ['é\r\n€', 2]] as const) {
      expect(linesIn(Buffer.from(text)), JSON.stringify(text)).toBe(lines);
    }
  });
});

describe('TextSlicer', () => {
  for (const chunk of [BLOB.length, 65536, 4093, 7, 1]) {
    it(`pages through a file byte for byte with next_byte and next_line (chunks of ${chunk})`, () => {
      for (const maxBytes of [4096, 5000, 1 << 20]) {
        // By byte: the pieces put together are the file, and no piece holds a replacement character.
        const pieces: string[] = [];
        let start_byte: number | undefined;
        for (let calls = 0; ; calls++) {
          expect(calls).toBeLessThan(100);
          const out = slice(BLOB, { maxBytes, start_byte }, chunk);
          expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(maxBytes);
          expect(out.content).not.toContain('\uFFFD');
          pieces.push(out.content);
          if (!out.truncated) break;
          expect(out.next_byte).toBe((start_byte ?? 0) + Buffer.byteLength(out.content));
          start_byte = out.next_byte;
        }
        expect(pieces.join('')).toBe(TEXT);
        // By line where the cut fell at a line end, by byte where a line was longer than the limit.
        const parts: string[] = [];
        let next: SliceRange = { maxBytes };
        for (let calls = 0; ; calls++) {
          expect(calls).toBeLessThan(100);
          const out = slice(BLOB, next, chunk);
          expect(out.content).not.toContain('\uFFFD');
          parts.push(out.content);
          if (!out.truncated) break;
          next = out.next_line !== undefined ? { maxBytes, start_line: out.next_line } : { maxBytes, start_byte: out.next_byte };
        }
        // Reads to the end keep every byte: the pieces put together are the file.
        expect(parts.join('')).toBe(TEXT);
      }
    });
  }

  it('returns a line range, counts the file, and stops reading at end_line', () => {
    const lines = TEXT.split('\n');
    const out = slice(BLOB, { maxBytes: 1 << 20, start_line: 7, end_line: 9 });
    expect(out.content).toBe(lines.slice(6, 9).join('\n'));
    expect(out.total_lines).toBe(lines.length);
    expect(out.truncated).toBe(false);
    // Streamed and stopped at end_line, the file's length is not known.
    const streamed = slice(BLOB, { maxBytes: 1 << 20, start_line: 7, end_line: 9 }, 4096);
    expect(streamed).toMatchObject({ content: out.content, truncated: false });
    expect(streamed).not.toHaveProperty('total_lines');
    // Fed a byte at a time, it says "enough" at the end of line 9, long before the end.
    const slicer = new TextSlicer({ maxBytes: 1 << 20, start_line: 7, end_line: 9 }, { name: 'f.txt' });
    let fed = 0;
    while (!slicer.push(BLOB.subarray(fed, fed + 1))) fed++;
    expect(fed + 1).toBe(Buffer.byteLength(lines.slice(0, 9).join('\n') + '\n'));
    expect(slicer.finish(undefined)).toMatchObject({ content: lines.slice(6, 9).join('\n'), truncated: false });
  });

  it('gives a line range in pieces that put together are the range, and a read from a line keeps its last newline', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1} é€😀`);
    const blob = Buffer.from(`${lines.join('\n')}\n`);
    for (const chunk of [7, 4093, blob.length]) {
      const pieces: string[] = [];
      let next: SliceRange = { maxBytes: 4096, start_line: 10, end_line: 2500 };
      for (let calls = 0; ; calls++) {
        expect(calls).toBeLessThan(100);
        const out = slice(blob, next, chunk);
        pieces.push(out.content);
        if (!out.truncated) break;
        // A cut piece of a range ends at a line end (these lines are short) and keeps its '\n'.
        expect(out.content.endsWith('\n')).toBe(true);
        next = { ...next, start_line: out.next_line };
      }
      expect(pieces.length).toBeGreaterThan(10);
      expect(pieces.join('')).toBe(lines.slice(9, 2500).join('\n'));
    }
    // From a line to the end: the bytes as they are, final newline included.
    expect(slice(Buffer.from('a\nb\nc\n'), { maxBytes: 4096, start_line: 2 })).toMatchObject({ content: 'b\nc\n' });
    expect(slice(Buffer.from('a\nb\nc\n'), { maxBytes: 4096, start_line: 2, end_line: 3 })).toMatchObject({ content: 'b\nc' });
  });

  it('with onlyPieceEnds, reads on from every next_byte it gave and refuses a start_byte no piece can have ended at', () => {
    const piece = (blob: Buffer, range: SliceRange, chunk: number) => {
      const slicer = new TextSlicer(range, { name: 'the diff', detectBinary: false, onlyPieceEnds: true });
      let stopped = false;
      for (let at = 0; at < blob.length && !stopped; at += chunk) stopped = slicer.push(blob.subarray(at, at + chunk));
      return slicer.finish(undefined);
    };
    for (const maxBytes of [4096, 5000]) {
      for (const chunk of [7, 4093, BLOB.length]) {
        const pieces: string[] = [];
        for (let start_byte = 0, calls = 0; ; calls++) {
          expect(calls).toBeLessThan(100);
          const out = piece(BLOB, { maxBytes, start_byte }, chunk);
          pieces.push(out.content);
          if (!out.truncated) break;
          start_byte = out.next_byte!;
        }
        expect(pieces.join('')).toBe(TEXT);
      }
    }
    // A line start, or at least the limit less 3 bytes into a longer line: where a piece can end.
    const text = Buffer.from(`first line\nsecond line\n${'x'.repeat(10_000)}\nlast`);
    const long = 'first line\nsecond line\n'.length;
    for (const chunk of [1, 5, text.length]) {
      for (const start_byte of [0, 11, long, long + 4093, long + 9000, text.length - 4]) {
        expect(() => piece(text, { maxBytes: 4096, start_byte }, chunk), `start_byte ${start_byte}`).not.toThrow();
      }
      for (const start_byte of [3, 15, long + 1, long + 4092, text.length - 2]) {
        expect(() => piece(text, { maxBytes: 4096, start_byte }, chunk), `start_byte ${start_byte}`).toThrow(
          /start_byte \d+ is not where a piece of the diff ended: the diff has changed since that piece/,
        );
      }
    }
  });

  it('refuses a start_line past the end and a start_byte inside a character, and knows binary', () => {
    expect(() => slice(Buffer.from('a\nb\n'), { maxBytes: 4096, start_line: 3 })).toThrow(/start_line 3 is past the end of f.txt, which has 2 lines/);
    expect(() => slice(Buffer.from('a\nb'), { maxBytes: 4096, start_line: 3 })).toThrow(/which has 2 lines/);
    expect(slice(Buffer.from('a\nb'), { maxBytes: 4096, start_line: 2 })).toMatchObject({ content: 'b', total_lines: 2 });
    expect(slice(Buffer.from(''), { maxBytes: 4096 })).toMatchObject({ content: '', total_lines: 0, truncated: false });
    for (const chunk of [1, 2, 100]) {
      expect(() => slice(Buffer.from('aé'), { maxBytes: 4096, start_byte: 2 }, chunk)).toThrow(/start_byte 2 falls inside a multi-byte character of f.txt/);
    }
    expect(slice(Buffer.from('aé'), { maxBytes: 4096, start_byte: 1 })).toMatchObject({ content: 'é' });
    expect(slice(Buffer.from('aé'), { maxBytes: 4096, start_byte: 3 })).toMatchObject({ content: '', truncated: false });
    expect(slice(Buffer.concat([Buffer.from('text'), Buffer.alloc(1), Buffer.from('more')]), { maxBytes: 4096 }, 2)).toMatchObject({ binary: true, content: '' });
  });

  it('holds no more than the limit and a chunk, whatever the part asked for', () => {
    // 64 MB of lines, the last one asked for: the slicer keeps nothing before it.
    const line = Buffer.from('x'.repeat(1023) + '\n');
    const slicer = new TextSlicer({ maxBytes: 4096, start_line: 65_536 }, { name: 'f.txt' });
    for (let i = 0; i < 65_536; i++) slicer.push(line);
    expect(slicer.finish(slicer.linesSeen)).toMatchObject({ content: 'x'.repeat(1023) + '\n', total_lines: 65_536, truncated: false });
  });
});
