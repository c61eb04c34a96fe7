// Page shapes that grow with N, for checking that conversion time grows linearly: many
// short paragraphs in an article, many paragraphs straight under <body>, deep nesting,
// many table rows, and an article in one layout table cell.

export interface Shape {
  name: string;
  page(n: number): string;
  /** An N at which one conversion takes long enough to time (tens of milliseconds). */
  n: number;
}

const row = (i: number) => `Row ${i}, short text.`;
const prose = (i: number) => `Paragraph ${i} has words, and more words, to be a real paragraph of prose.`;

export const SHAPES: Shape[] = [
  {
    name: 'short <p> rows in an article',
    n: 4_000,
    page: (n) => `<html><head><title>Rows</title></head><body><article>${Array.from({ length: n }, (_, i) => `<p>${row(i)}</p>`).join('')}</article></body></html>`,
  },
  {
    name: 'paragraphs straight under <body>',
    n: 4_000,
    page: (n) => `<html><head><title>Body</title></head><body>${Array.from({ length: n }, (_, i) => `<p>${prose(i)}</p>`).join('')}</body></html>`,
  },
  {
    name: 'nested <div>s',
    n: 25_000,
    page: (n) => `<html><body><p>start</p>${'<div>'.repeat(n)}deep text${'</div>'.repeat(n)}</body></html>`,
  },
  {
    name: 'stray close tags under deep nesting',
    n: 20_000,
    page: (n) => `<html><body><p>start</p>${'<div>'.repeat(n)}deep text${'</span>'.repeat(n)}</body></html>`,
  },
  {
    name: 'a run of spaces in a <pre>',
    n: 200_000,
    page: (n) => `<html><body><article><p>${prose(0)}</p><pre>start${' '.repeat(n)}end</pre></article></body></html>`,
  },
  {
    name: 'a run of spaces in a <meta property>',
    n: 200_000,
    page: (n) => `<html><head><meta property="og:${' '.repeat(n)}x" content="y"><title>T</title></head><body><p>${prose(0)}</p></body></html>`,
  },
  {
    name: 'table rows',
    n: 4_000,
    page: (n) =>
      `<html><body><article><p>${prose(0)}</p><table><tr><th>Name</th><th>Value</th></tr>${Array.from({ length: n }, (_, i) => `<tr><td>${row(i)}</td><td>${i}</td></tr>`).join('')}</table></article></body></html>`,
  },
  {
    name: 'an article in a layout <td>',
    n: 4_000,
    page: (n) => `<html><body><table><tr><td><a href="/">Home</a></td><td>${Array.from({ length: n }, (_, i) => prose(i)).join('<br><br>')}</td></tr></table></body></html>`,
  },
];

/** The fastest of `runs` timings of `work`, in ms. */
export function fastest(runs: number, work: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}
