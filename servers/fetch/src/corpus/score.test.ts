// The corpus scorer counts the words of the markdown as it reads, not of its syntax: inline
// marks join what they sit between (as the page shows it), code keeps its marks as text.
import { describe, expect, it } from 'vitest';
import { markdownText, words } from './score.js';

const wordsOf = (markdown: string) => words(markdownText(markdown));

describe('markdownText', () => {
  it('joins words across emphasis and link marks, as the page reads', () => {
    // CJK text has no spaces: the page shows one word here, and so does Readability's article.
    expect(wordsOf('**きょうの記念日**[元旦](http://x/366/1_01.htm)')).toEqual(['きょうの記念日元旦']);
    expect(wordsOf('un_break_able and **bold**ly ~~struck~~out')).toEqual(['unbreakable', 'and', 'boldly', 'struckout']);
    expect(wordsOf('see [the docs](http://x/a_b) now')).toEqual(['see', 'the', 'docs', 'now']);
  });

  it('keeps escaped marks and the marks inside code as text', () => {
    expect(wordsOf('snake\\_case')).toEqual(['snake', 'case']);
    expect(wordsOf('call `snake_case` here')).toEqual(['call', 'snake', 'case', 'here']);
    expect(wordsOf('```js\nconst snake_case = a*b;\n```')).toEqual(['js', 'const', 'snake', 'case', 'a', 'b']);
    expect(wordsOf('text\n\n    indented_code_block\n')).toEqual(['text', 'indented', 'code', 'block']);
  });

  it('drops the numbers of an ordered list, not a number that starts a line of text', () => {
    expect(wordsOf('1. first\n2. second\n   10. nested')).toEqual(['first', 'second', 'nested']);
    expect(wordsOf('1\\. not a list, 1999. a year')).toEqual(['1', 'not', 'a', 'list', '1999', 'a', 'year']);
  });

  it('drops images and link targets', () => {
    expect(wordsOf('![alt words](http://x/a.png) [text](http://x/page_one)')).toEqual(['text']);
  });
});
