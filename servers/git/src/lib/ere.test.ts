import { describe, it, expect } from 'vitest';
import { loadRE2JS } from '@mcp-reference/shared/core';
import { PatternError, translateEre } from './ere.js';

describe("git_grep's POSIX extended regexes, written for RE2", () => {
  it.each([
    // Brackets: a backslash is itself, "]" first is a member, ranges and classes kept, each character by its code point.
    ['[\\d]', '[\\x{5c}d]'],
    ['[]a]', '[\\x{5d}a]'],
    ['[^]a-]', '[^\\x{5d}a\\x{2d}]'],
    ['[[:alpha:]_]', '[[:alpha:]_]'],
    ['[[.-.][=x=]]', '[\\x{2d}x]'],
    // A repetition of a repetition is one of a group (RE2 would read "+?" as lazy, not "(a+)?").
    ['a+?', '(?:a+)?'],
    ['a**', '(?:a*)*'],
    ['a{,3}', 'a{0,3}'],
    ['(ab){2,}', '(?:ab){2,}'],
    // An unmatched ")" is a character; so is an escaped one.
    ['a)', 'a\\)'],
    ['\\.\\{', '\\.\\{'],
    // Word edges next to word characters are word boundaries.
    ['\\<foo\\>', '\\bfoo\\b'],
    ['\\<[a-z]+\\>', '\\b[a-z]+\\b'],
    ['\\w+\\s\\S\\W\\b\\B', '\\w+\\s\\S\\W\\b\\B'],
    ['é.', '\\x{e9}.'],
  ])('%s -> %s', (pattern, re2) => {
    expect(translateEre(pattern).re2).toBe(re2);
    expect(() => loadRE2JS().compile(re2)).not.toThrow();
  });

  it.each([
    ['(a*)*\\1c', /backreference \("\\1"\)/],
    ['[]a]\\9', /backreference \("\\9"\)/],
    ['[[:alpha:]](.)\\1', /backreference/],
    ['\\d', /"\\d" is not an escape.*\[0-9\]/],
    ['\\t', /Write the character itself/],
    ['\\`a', /start or end of the buffer/],
    ['x{1001}', /past 1000/],
    ['+a', /Invalid preceding/],
    ['^*', /Invalid preceding/],
    ['a{x}', /Invalid content/],
    ['a{2', /Unmatched \\\{/],
    ['[z-a]', /Invalid range end/],
    ['[[.space.]]', /Invalid collation character/],
    ['a\0b', /NUL/],
    ['.\\>', /must follow a word character/],
  ])('refuses %s, naming why', (pattern, reason) => {
    expect(() => translateEre(pattern)).toThrow(PatternError);
    expect(() => translateEre(pattern)).toThrow(reason);
  });

  it.each(['[\\1]', '[[:digit:]\\1]', '[^]\\1]', 'a\\\\1', '[[.-.]\\1]'])('finds no backreference in %s (in brackets a backslash is itself)', (pattern) => {
    expect(() => translateEre(pattern)).not.toThrow();
  });

  it.each([
    ['function[ (]', { extended: 'function |function\\(' }],
    ['(a|b|.)*c', { fixed: 'c' }],
    ['(foo|bar)+baz', { fixed: 'baz' }],
    ['colou?r', { fixed: 'colo' }],
    ['[Ff]oo', { extended: 'Foo|foo' }],
    ['x{3}', { fixed: 'xxx' }],
    ['^}$', { fixed: '}' }],
    ['import .* from', { fixed: 'import ' }],
    // Character sequences, where they are longer than any text every match holds.
    ['[A-Z]{3}', { extended: '[A-Z][A-Z][A-Z]' }],
    ['\\w+_\\w+', { extended: '\\w_\\w' }],
    ['[0-9]+\\.[0-9]+', { extended: '[0-9]\\.[0-9]' }],
    ['[[:upper:]][a-z]+Error', { fixed: 'Error' }],
    ['x{2}y+z', { extended: 'xxy' }],
    ['(ab|[0-9][0-9])c', { extended: '(ab|[0-9][0-9])' }],
  ])('%s: git looks for %j to find the candidate lines', (pattern, prefilter) => {
    expect(translateEre(pattern).prefilter).toEqual(prefilter);
  });

  it.each([
    // A character of several bytes stands at an end of what git looks for, never inside (git's C locale reads bytes).
    ['[^a-z0-9 _]+', { extended: '[^a-z0-9 _]' }],
    ['x[^a]y', { extended: 'x[^a]' }],
    ['a.b', { extended: 'a.' }],
    ['[^a]+xy', { extended: '[^a]xy' }],
  ])('%s: git looks for %j', (pattern, prefilter) => {
    expect(translateEre(pattern).prefilter).toEqual(prefilter);
  });

  it.each(['a*', '(a|)b?', '^\\s*$', '.*', 'x|[^a-z]*', '[^é]?'])('%s holds nothing git can look for cheaply: every line is a candidate', (pattern) => {
    expect(translateEre(pattern).prefilter).toBeUndefined();
  });

  it('refuses a regex longer than 8,192 characters before parsing it (it is parsed on the event loop)', () => {
    expect(() => translateEre('a'.repeat(1_000_000))).toThrow(/1,000,000 characters long; at most 8,192/);
    // Parsed, this one would be refused for its unmatched "(" at the end: the length is looked at first.
    expect(() => translateEre(`${'a'.repeat(9_000)}(`)).toThrow(/9,001 characters long; at most 8,192/);
    expect(() => translateEre(`${'a'.repeat(8_000)}(`)).toThrow(/Unmatched \( or \\\(/);
    expect(() => translateEre(`(${Array.from({ length: 900 }, (_, i) => `w${i}`).join('|')})`)).not.toThrow();
  });

  it('refuses groups nested deeper than RE2 allows, without running out of stack', () => {
    expect(() => translateEre(`${'('.repeat(2_000)}a${')'.repeat(2_000)}`)).toThrow(/nests groups more than 1000 deep/);
  });
});

describe('patterns git matches itself', () => {
  it.each(['function[ (]', 'lodash|underscore', '[A-Z]{3}', '\\<var\\>', '^}$', 'colou?r', '(ab|cd)(ef|gh)', '[[:upper:]]{2}x'])('%s is cheap in git: at most 32 characters a match, few alternatives', (pattern) => {
    expect(translateEre(pattern).direct).toBe(true);
  });

  it.each(['(a|b|.)*c', 'a+', '.', '[^a]', '\\W', '[ab]{1,32}c', `${'x'.repeat(33)}`, '(a|b){5}', '(.*){20}c', 'a{33}'])('%s goes to RE2 (unbounded, a negated or multi-byte class, or too long)', (pattern) => {
    expect(translateEre(pattern).direct).toBe(false);
  });

  it.each(['^$', '^', 'x?', '\\b'])('%s matches an empty string, which git also finds after a file\'s last line: RE2 matches it', (pattern) => {
    expect(translateEre(pattern).direct).toBe(false);
  });
});
