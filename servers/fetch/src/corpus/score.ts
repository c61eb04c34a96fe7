// How close an extraction is to the article a page should yield, in words: precision
// (how much of the output is article), recall (how much of the article is in the output)
// and F1, on word multisets. The expected article is HTML (Readability's test-page format:
// expected.html); the output is our markdown, whose syntax (link targets, marks) is dropped
// before counting. Also: are the article's `<pre>` blocks kept line by line.
import { Parser } from 'htmlparser2';

export interface WordScore {
  precision: number;
  recall: number;
  f1: number;
  /** Output words the article does not have (boilerplate or noise). */
  extra: number;
  /** Output words in all. */
  total: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
/** Tags that do not separate words: text on both sides of them runs on. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr']);

export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The text of an HTML fragment, with `<pre>` blocks collected separately. */
export function htmlText(html: string): { text: string; pres: string[] } {
  let text = '';
  const pres: string[] = [];
  let pre = -1;
  let skip = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'script' || name === 'style') skip++;
        if (name === 'pre' && pre < 0) pre = text.length;
        if (name === 'br' || (pre >= 0 && name !== 'pre' && !INLINE.has(name))) text += '\n';
        else if (pre < 0 && !INLINE.has(name)) text += ' ';
      },
      ontext(data) {
        if (!skip) text += data;
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style') skip--;
        if (name === 'pre' && pre >= 0) {
          pres.push(text.slice(pre));
          pre = -1;
        }
        if (pre < 0 && !INLINE.has(name)) text += ' ';
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { text, pres };
}

/**
 * What markdownText takes apart, left to right: a code block (fenced, or indented four
 * spaces as turndown writes them) or a code span, kept as it is (its marks are text); an
 * escape; an emphasis or link mark outside code; an ordered list's number (the article's
 * text has no list numbers, as it has no bullets).
 */
const MARKS = /(^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\2[ \t]*$|^(?: {4}|\t)[^\n]*$|(`+)[^`\n][\s\S]*?\3)|\\([\\`*_[\]#>+\-.|~])|[*_~[\]]|^[ \t]*\d+\.(?=[ \t])/gm;

/**
 * Markdown without its syntax: images (the article's text has no alt text either), link
 * targets, escapes, and the inline marks (emphasis, code, link brackets) with nothing in
 * their place: `**day**[New Year](/x)` reads "dayNew Year" as the page does, and splitting
 * there made CJK text, where words run on without spaces, count as words not in the article.
 */
export function markdownText(markdown: string): string {
  return markdown
    .replace(/!\[(?:[^\]\\]|\\.)*\]\((?:[^()\s]|\([^()]*\))*\)/g, ' ')
    .replace(/\]\((?:[^()\s]|\([^()]*\))*\)/g, ']')
    .replace(MARKS, (_, code: string | undefined, _fence, _ticks, escaped: string | undefined) => code ?? escaped ?? '');
}

export function scoreWords(expected: string[], actual: string[]): WordScore {
  const want = new Map<string, number>();
  for (const w of expected) want.set(w, (want.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of actual) {
    const n = want.get(w);
    if (n) {
      common++;
      want.set(w, n - 1);
    }
  }
  const precision = actual.length ? common / actual.length : expected.length ? 0 : 1;
  const recall = expected.length ? common / expected.length : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, extra: actual.length - common, total: actual.length };
}

/** `<pre>` blocks of the article (two lines or more) whose lines all appear, as lines, in the output (quoted or not). */
export function presKept(pres: string[], markdown: string): { total: number; kept: number } {
  const lines = new Set(markdown.split('\n').map((line) => line.replace(/^(?:>\s?)+/, '').trim()));
  let total = 0;
  let kept = 0;
  for (const pre of pres) {
    const want = pre.split('\n').map((line) => line.trim()).filter(Boolean);
    if (want.length < 2) continue;
    total++;
    if (want.every((line) => lines.has(line))) kept++;
  }
  return { total, kept };
}
