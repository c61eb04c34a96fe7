import { describe, it, expect } from 'vitest';
import { toCsv } from './csv.js';

describe('toCsv', () => {
  it('quotes fields with commas, quotes or line breaks, and writes NULL as empty', () => {
    expect(toCsv(['a', 'b'], [[1, 'x,y'], ['say "hi"', null], ['two\nlines', 2.5]])).toBe(
      'a,b\r\n1,"x,y"\r\n"say ""hi""",\r\n"two\nlines",2.5\r\n',
    );
  });
});
