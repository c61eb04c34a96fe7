// The emitter's inline text: a space at the edge of a link or emphasis stays a space.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

const prose = '<p>Prose before, long enough to count as the article, with commas, and more words in it.</p>'.repeat(8);
const convert = (inner: string) => htmlToMarkdown({ html: `<html><body><article>${prose}<p>${inner}</p></article></body></html>`, url: 'http://e/' }).markdown;

describe('inline text', () => {
  it('keeps the space that starts or ends a link or an emphasis', () => {
    expect(convert('Technology&nbsp;GUI<i>&nbsp;<b>Oxyd</b></i> done')).toContain('Technology GUI _**Oxyd**_ done');
    expect(convert('read<a href="/docs"> the docs </a>now')).toContain('read [the docs](http://e/docs) now');
    expect(convert('a<em> b</em>c<strong>d </strong>e')).toContain('a _b_c**d** e');
  });

  it('still writes one space between words, not two', () => {
    expect(convert('one <em> two </em> three')).toContain('one _two_ three');
  });
});

// Each text rewrite runs only when a test says it has work to do; these are the cases where it has.
describe('text that needs rewriting', () => {
  it('collapses any whitespace run, and a lone tab, newline or no-break space, to one space', () => {
    expect(convert('a\tb  c\n d\u00a0e')).toContain('\n\na b c d e');
    // Only lone whitespace characters, no run: each still becomes a space.
    expect(convert('a\tb\u00a0c\fd')).toContain('\n\na b c d');
  });

  it('escapes markdown characters in text, and a paragraph that would start a list, heading or quote', () => {
    expect(convert('*a* _b_ [c] `d` \\e')).toContain('\\*a\\* \\_b\\_ \\[c\\] \\`d\\` \\\\e');
    expect(convert('1. not a list')).toContain('\n\n\\1. not a list');
    expect(convert('# not a heading')).toContain('\n\n\\# not a heading');
    expect(convert('> not a quote')).toContain('\n\n\\> not a quote');
  });

  it('trims a paragraph and keeps at most one blank line inside it', () => {
    expect(convert('  lead<br><br><br><br>after  ')).toMatch(/\n\nlead\n\nafter$/);
    expect(convert('x \n y<br> \n z')).toMatch(/\n\nx y\nz$/);
  });
});
