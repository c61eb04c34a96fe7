// Conversion time grows linearly with the page: for each shape, 4N takes about 4 times as
// long as N. A per-sibling rescan or a growing-string check would make it 16 times; the
// bound (10) tells the two apart on a busy machine: the runs alternate between the two
// sizes so that a burst of load hits both, and a measurement is taken again (at most
// twice) when load still pushed it over.
import { describe, expect, it } from 'vitest';
import { SHAPES } from '../corpus/scaling.js';
import { htmlToMarkdown } from './html-to-markdown.js';

const convert = (html: string) => htmlToMarkdown({ html, url: 'http://example.com/' });

describe('conversion time is linear in the page', () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: time(4N) / time(N) well under 16`, { timeout: 180_000 }, () => {
      const small = shape.page(shape.n);
      const large = shape.page(shape.n * 4);
      convert(small);
      // Up to three measurements: a linear converter comes in under the bound in one of
      // them even when other test files load the machine; a quadratic one never does.
      const ratios: number[] = [];
      for (let attempt = 0; attempt < 3 && !ratios.some((r) => r < 10); attempt++) {
        let tSmall = Infinity;
        let tLarge = Infinity;
        for (let run = 0; run < 3; run++) {
          let start = performance.now();
          convert(small);
          tSmall = Math.min(tSmall, performance.now() - start);
          start = performance.now();
          convert(large);
          tLarge = Math.min(tLarge, performance.now() - start);
        }
        ratios.push(tLarge / tSmall);
      }
      expect(Math.min(...ratios), `ratios ${ratios.map((r) => r.toFixed(1)).join(', ')}`).toBeLessThan(10);
    });
  }
});
