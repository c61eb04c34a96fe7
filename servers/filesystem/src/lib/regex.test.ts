import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { compileRegex, unsupportedConstruct } from './regex.js';

describe('compileRegex', () => {
  it.each([
    ['a\\1', 'a backreference ("\\1")'],
    ['(?<n>x)\\k<n>', 'a named backreference ("\\k<...>")'],
    ['x(?=y)', 'a lookahead ("(?=...)")'],
    ['x(?!y)', 'a negative lookahead ("(?!...)")'],
    ['(?<=y)x', 'a lookbehind ("(?<=...)")'],
    ['(?<!y)x', 'a negative lookbehind ("(?<!...)")'],
  ])('refuses %s, naming the construct', (pattern, construct) => {
    expect(unsupportedConstruct(pattern)).toBe(construct);
    expect(() => compileRegex(pattern)).toThrow(construct);
  });

  it('does not mistake escaped or bracketed text for those constructs', () => {
    for (const pattern of ['\\\\1', '[\\1]', '\\(?=x', '[(?=]', '(?<name>x)', '(?:x)']) expect(unsupportedConstruct(pattern)).toBeUndefined();
  });

  it('takes JavaScript spellings RE2 lacks and matches like JavaScript on ordinary patterns', () => {
    const cases: [string, string, boolean][] = [
      ['\\u0041b', 'Ab', true],
      ['(?<word>\\w+)-\\d{2,}', 'ab-123', true],
      ['^function\\s+\\w+\\(', 'function foo(x)', true],
      ['colou?r', 'color', true],
      ['\\bcat\\b', 'concat', false],
    ];
    for (const [pattern, text, expected] of cases) {
      const { source, flags } = compileRegex(pattern);
      expect(RE2JS.compile(source, flags).test(text)).toBe(expected);
      expect(new RegExp(pattern).test(text)).toBe(expected);
    }
  });

  it('reports an invalid pattern with what to do', () => {
    expect(() => compileRegex('a(b')).toThrow(/Invalid regular expression "a\(b": .*RE2 syntax.*literal: true/);
  });

  it('matches a pattern that backtracks exponentially elsewhere in linear time', () => {
    const { source, flags } = compileRegex('(a+)+$');
    const re = RE2JS.compile(source, flags);
    const started = performance.now();
    expect(re.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
