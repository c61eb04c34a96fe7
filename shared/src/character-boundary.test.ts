import { describe, it, expect } from 'vitest';
import { characterBoundary, codePointBoundary, codePointLength } from './character-boundary.js';
import { boundedJson } from './result-budget.js';

/** No half of a surrogate pair alone (String.isWellFormed, which the project's lib predates). */
const wellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('character boundaries', () => {
  it('cuts UTF-8 bytes before a character that would not fit, at every offset', () => {
    const bytes = Buffer.from('aé€😀'.repeat(50));
    for (let limit = 0; limit <= bytes.length; limit++) {
      const end = characterBoundary(bytes, limit);
      expect(end).toBeLessThanOrEqual(limit);
      expect(limit - end).toBeLessThan(4);
      expect(bytes.subarray(0, end).toString('utf8')).not.toContain('\uFFFD');
      expect(bytes.subarray(end).toString('utf8')).not.toContain('\uFFFD');
    }
  });

  it('never splits a surrogate pair of a string, at every index', () => {
    const text = 'a😀é𝄞'.repeat(50);
    for (let index = 0; index <= text.length; index++) {
      const end = codePointBoundary(text, index);
      expect(index - end).toBeLessThanOrEqual(1);
      expect(wellFormed(text.slice(0, end))).toBe(true);
      expect(wellFormed(text.slice(end))).toBe(true);
    }
  });

  it('counts characters as code points: a pair is one, a lone half is one', () => {
    for (const text of ['', 'abc', '😀', 'a😀é𝄞'.repeat(50), '\ud83d', '\ude00\ud83d', 'x\ud83d😀\ude00']) {
      expect(codePointLength(text), JSON.stringify(text)).toBe([...text].length);
    }
  });

  it('keeps the cut previews of boundedJson well formed', () => {
    for (let pad = 0; pad < 2; pad++) {
      const value = { text: 'x'.repeat(pad) + '😀'.repeat(100_000), rows: Array.from({ length: 2000 }, () => 'a' + '😀'.repeat(pad + 7)) };
      for (const maxChars of [1001, 4096, 65_537]) expect(wellFormed(boundedJson(value, maxChars))).toBe(true);
    }
  });
});
