import { describe, it, expect } from 'vitest';
import { GrepRowReader, LINE_WINDOW_BYTES } from './grep-rows.js';

/** Rows of `git grep -n --column --null`, fed in chunks of `chunk` bytes. */
function read(output: string | Buffer, chunk: number, ref?: string, maxMatches = 100, maxTextBytes = 1 << 20) {
  const bytes = Buffer.isBuffer(output) ? output : Buffer.from(output);
  const rows = new GrepRowReader(ref, { maxMatches, maxTextBytes });
  let stopped = false;
  for (let at = 0; at < bytes.length && !stopped; at += chunk) stopped = rows.push(bytes.subarray(at, at + chunk));
  return { matches: rows.matches, full: rows.full, stopped };
}

describe('GrepRowReader', () => {
  for (const chunk of [1 << 20, 5, 1]) {
    it(`reads path, line and text, strips a ref, keeps a path with a newline whole (chunks of ${chunk})`, () => {
      const out = read('abc:src/a.txt\x0012\x003\x00text: here\nabc:we\nird\x001\x001\x00x\n', chunk, 'abc');
      expect(out.matches).toEqual([
        { path: 'src/a.txt', line: 12, text: 'text: here' },
        { path: 'we\nird', line: 1, text: 'x' },
      ]);
      expect(out.full).toBe(false);
    });

    it(`keeps a window of a long line around its first match, on whole characters (chunks of ${chunk})`, () => {
      const line = 'é'.repeat(100_000) + 'NEEDLE' + '€'.repeat(100_000);
      const column = Buffer.byteLength('é'.repeat(100_000)) + 1;
      const [match] = read(`min.js\x001\x00${column}\x00${line}\n`, chunk).matches;
      expect(match.text).toMatch(/^…é+NEEDLE€+…$/);
      expect(match.text).not.toContain('\uFFFD');
      expect(Buffer.byteLength(match.text)).toBeLessThanOrEqual(LINE_WINDOW_BYTES + 6);
      expect(Buffer.byteLength(match.text.slice(1, match.text.indexOf('NEEDLE')))).toBeGreaterThan(200);
      // A match near the start: no mark before.
      const [early] = read(`min.js\x001\x002\x00aNEEDLE${'b'.repeat(5000)}\n`, chunk).matches;
      expect(early.text).toBe(`aNEEDLE${'b'.repeat(LINE_WINDOW_BYTES - 7)}…`);
    });
  }

  it('stops once there are more matches, or more text, than one answer holds', () => {
    const rows = Array.from({ length: 50 }, (_, i) => `f${i}.txt\x001\x001\x00${'x'.repeat(2000)}\n`).join('');
    const many = read(rows, 100, undefined, 10);
    expect(many).toMatchObject({ full: true, stopped: true });
    expect(many.matches).toHaveLength(11);
    const heavy = read(rows, 100, undefined, 100, 8 * 1024);
    expect(heavy.full).toBe(true);
    expect(heavy.matches.length).toBeLessThan(10);
    expect(read(rows, 100, undefined, 50)).toMatchObject({ full: false, stopped: false });
  });

  it('drops what is not a row of git (a header without its NULs), and reads on', () => {
    const junk = 'x'.repeat(70 * 1024);
    expect(read(`${junk}\nok.txt\x002\x001\x00fine\n`, 4096).matches).toEqual([{ path: 'ok.txt', line: 2, text: 'fine' }]);
  });
});
