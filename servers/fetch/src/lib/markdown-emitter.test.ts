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
