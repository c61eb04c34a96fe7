// Article extraction on the test corpus (test-corpus/README.md): every page must yield its
// article, word for word (precision and recall), its title, and its <pre> blocks line by
// line; and each way the earlier extractor failed (issue 25) has a page and a check here.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { loadCorpus, scorePage, summarize, type CorpusPage } from '../corpus/quality.js';
import { htmlToMarkdown } from './html-to-markdown.js';

const corpusDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-corpus');
const pages: CorpusPage[] = readdirSync(corpusDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => loadCorpus(path.join(corpusDir, entry.name)));
const byName = (name: string) => pages.find((page) => page.name === name)!;
const convert = (page: CorpusPage) => htmlToMarkdown({ html: page.source, url: page.url });

describe('extraction corpus', () => {
  it('has the pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(24);
  });

  for (const page of pages) {
    it(`${page.name}: the article's words, its title and its code blocks`, () => {
      const result = scorePage(page, convert(page));
      expect(result.precision, 'precision').toBeGreaterThanOrEqual(0.95);
      expect(result.recall, 'recall').toBeGreaterThanOrEqual(0.95);
      expect(result.title).toBe(page.title);
      expect(result.pres.kept).toBe(result.pres.total);
    });
  }
});

describe('extraction against the usual stack (issue 25 targets, the bench quality rows)', () => {
  it('has a mean word F1 no lower than linkedom + Readability + turndown minus 0.01, no page under 0.8, titles and code right', () => {
    const require = createRequire(import.meta.url);
    const { parseHTML } = require('linkedom') as { parseHTML: (html: string) => { document: unknown } };
    const { Readability } = require('@mozilla/readability') as { Readability: new (doc: unknown) => { parse(): { title?: string; content: string } | null } };
    const TurndownService = require('turndown') as new () => { use(plugin: unknown): void; turndown(html: string): string };
    const { gfm } = require('turndown-plugin-gfm') as { gfm: unknown };
    const usual = (html: string) => {
      const article = new Readability(parseHTML(html).document).parse();
      const service = new TurndownService();
      service.use(gfm);
      return { title: article?.title ?? '', markdown: service.turndown(article?.content ?? html) };
    };
    const ours = summarize(pages.map((page) => scorePage(page, convert(page))));
    const theirs = summarize(pages.map((page) => scorePage(page, usual(page.source))));
    expect(ours.meanF1).toBeGreaterThanOrEqual(theirs.meanF1 - 0.01);
    expect(ours.under08).toBe(0);
    expect(ours.titlesRight / ours.titled).toBeGreaterThanOrEqual(0.92);
    // At most 4% of the pages, rounded down (the bench's target): none of 24.
    expect(ours.boilerplate).toBeLessThanOrEqual(Math.floor(ours.pages * 0.04));
    expect(ours.presKept).toBe(ours.presTotal);
  });
});

describe('extraction, class by class', () => {
  it('keeps an article under a wrapper named like a sidebar or "shared-..."', () => {
    const { markdown } = convert(byName('class1-unlikely-wrapper'));
    expect(markdown).toContain('The wrapper paragraph 0 explains');
    expect(markdown).toContain('The wrapper paragraph 39 explains');
    expect(markdown).not.toContain('Most read story today');
  });

  it('scores inside <main>: teasers and promoted links are left out', () => {
    const { markdown } = convert(byName('class2-main-with-teasers'));
    expect(markdown).toContain('The story paragraph 19');
    expect(markdown).not.toMatch(/Teaser headline|Promoted link/);
  });

  it('joins an article split across sibling containers', () => {
    const { markdown } = convert(byName('class3-split-siblings'));
    for (const part of ['part0 paragraph 0', 'part1 paragraph 9', 'part2 paragraph 6']) expect(markdown).toContain(`The ${part} explains`);
    expect(markdown).not.toContain('Comment by a reader');
  });

  it('drops hidden content: visibility, display, hidden, aria-hidden', () => {
    const { markdown } = convert(byName('class4-hidden-content'));
    expect(markdown).toContain('The visible paragraph 11');
    expect(markdown).not.toMatch(/HIDDEN/);
  });

  it('reads the title and metadata from Open Graph and meta tags', () => {
    const converted = convert(byName('class5-title-metadata'));
    expect(converted).toMatchObject({
      title: 'Rivers run higher this spring',
      byline: 'Jane Writer',
      siteName: 'Example Daily',
      publishedTime: '2026-03-01T08:00:00Z',
      excerpt: 'Snowmelt and rain raise rivers across the region.',
    });
  });

  it('reads the title and metadata from JSON-LD', () => {
    const converted = convert(byName('class5-title-jsonld'));
    expect(converted).toMatchObject({ title: 'Trains return to the valley line', byline: 'Sam Reporter', siteName: 'Valley News', publishedTime: '2026-02-02' });
  });

  it('strips the site name from a <title> when nothing better is given', () => {
    expect(convert(byName('class3-split-siblings')).title).toBe('How the bridge was rebuilt after the flood');
  });

  it('writes an article in a layout table cell as separate paragraphs, not one line', () => {
    const { markdown } = convert(byName('class6-layout-table-cell'));
    const lines = markdown.split('\n').filter((line) => line.includes('The cell paragraph'));
    expect(lines).toHaveLength(15);
    expect(markdown).not.toMatch(/^\|/m);
  });

  it('writes paragraphs straight under <body> as paragraphs', () => {
    const { markdown } = convert(byName('class6-paragraphs-under-body'));
    expect(markdown.split('\n\n').filter((block) => block.startsWith('The body paragraph'))).toHaveLength(15);
  });

  it('keeps every line break of a <pre>, and renders MathML from TeX or its text', () => {
    const { markdown } = convert(byName('class7-code-and-math'));
    expect(markdown).toContain('```js\nconst a = 1;\nconst b = 2;\nif (a < b) {\n  console.log(a);\n}\n```');
    expect(markdown).toContain('$e^{i\\pi} + 1 = 0$');
    expect(markdown).toContain('a ≠ 0');
  });

  it('keeps what the first of equally long attempts found, whatever later attempts do to the page', () => {
    // Under 500 characters, so every attempt runs; the first drops the promo (bad class),
    // the laxer ones keep it, and it adds no text: the first attempt's article is the answer.
    const html = `<html><body><article><p>A short note, in one sentence, is the whole article here.</p><div class="promo"><ul><li><img src="/promo.png" alt="Promo"></li></ul></div><p>And a second line of it, with more words.</p></article></body></html>`;
    expect(htmlToMarkdown({ html, url: 'http://e/' }).markdown).toBe('A short note, in one sentence, is the whole article here.\n\nAnd a second line of it, with more words.');
  });

  it('converts a data table to a GFM table', () => {
    const html = `<html><body><article>${'<p>Prose before the table, long enough to count as the article, with commas, and more.</p>'.repeat(8)}
<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>timeout</td><td>30</td></tr><tr><td>retries</td><td>3</td></tr></tbody></table></article></body></html>`;
    expect(htmlToMarkdown({ html, url: 'http://e/' }).markdown).toContain('| Option | Default |\n| --- | --- |\n| timeout | 30 |\n| retries | 3 |');
  });
});
