// Runs a converter over a corpus of pages in Readability's test-page format (a folder per
// page: source.html, expected.html, expected-metadata.json) and sums up how it did: mean
// word F1, pages under 0.5 and 0.8, titles exactly right, pages with boilerplate, `<pre>`
// blocks kept line by line, and the conversion time per page.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlText, markdownText, presKept, scoreWords, words, type WordScore } from './score.js';

export interface CorpusPage {
  name: string;
  url: string;
  source: string;
  expectedWords: string[];
  expectedPres: string[];
  title: string | null;
}

export interface PageResult extends WordScore {
  name: string;
  titleRight: boolean;
  title: string;
  expectedTitle: string | null;
  pres: { total: number; kept: number };
  ms: number;
}

export interface QualitySummary {
  pages: number;
  meanF1: number;
  under05: number;
  under08: number;
  titlesRight: number;
  titled: number;
  boilerplate: number;
  presTotal: number;
  presKept: number;
  medianMs: number;
  results: PageResult[];
}

/** Share of output words not in the article above which a page counts as carrying boilerplate. */
export const BOILERPLATE_SHARE = 0.05;

export function loadCorpus(dir: string): CorpusPage[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'source.html')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const at = (file: string) => join(dir, name, file);
      const expected = htmlText(readFileSync(at('expected.html'), 'utf8'));
      const metadata = existsSync(at('expected-metadata.json')) ? JSON.parse(readFileSync(at('expected-metadata.json'), 'utf8')) : {};
      return {
        name,
        url: `http://fakehost/test/page.html`,
        source: readFileSync(at('source.html'), 'utf8'),
        expectedWords: words(expected.text),
        expectedPres: expected.pres,
        title: typeof metadata.title === 'string' ? metadata.title : null,
      };
    });
}

const norm = (title: string) => title.replace(/\s+/g, ' ').trim();

export function scorePage(page: CorpusPage, output: { title: string; markdown: string }, ms = 0): PageResult {
  const score = scoreWords(page.expectedWords, words(markdownText(output.markdown)));
  return {
    name: page.name,
    ...score,
    title: output.title,
    expectedTitle: page.title,
    titleRight: page.title !== null && norm(page.title) === norm(output.title),
    pres: presKept(page.expectedPres, output.markdown),
    ms,
  };
}

export function summarize(results: PageResult[]): QualitySummary {
  const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    pages: results.length,
    meanF1: results.reduce((n, r) => n + r.f1, 0) / (results.length || 1),
    under05: results.filter((r) => r.f1 < 0.5).length,
    under08: results.filter((r) => r.f1 < 0.8).length,
    titlesRight: results.filter((r) => r.titleRight).length,
    titled: results.filter((r) => r.expectedTitle !== null).length,
    boilerplate: results.filter((r) => r.extra > BOILERPLATE_SHARE * r.total).length,
    presTotal: results.reduce((n, r) => n + r.pres.total, 0),
    presKept: results.reduce((n, r) => n + r.pres.kept, 0),
    medianMs: sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0,
    results,
  };
}

/** Converts every page (after one untimed warm-up pass) and scores it. */
export function evaluate(pages: CorpusPage[], convert: (html: string, url: string) => { title: string; markdown: string }, runs = 1): QualitySummary {
  for (const page of pages.slice(0, 5)) convert(page.source, page.url);
  return summarize(
    pages.map((page) => {
      let output = convert(page.source, page.url);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        output = convert(page.source, page.url);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return scorePage(page, output, times[Math.floor(times.length / 2)]);
    }),
  );
}
