import { describe, expect, it } from 'vitest';
import { createRecentEdits } from './recent-edits.js';

const bigDiff = (n: number, mark: string) =>
  `--- a/f\n+++ b/f\n@@ -1,${n} +1,${n} @@\n${Array.from({ length: n }, (_, i) => `-old ${mark} ${i}\n+new ${mark} ${i}\n`).join('')}`;

describe('recent edits are bounded by bytes (issue 21, item 9)', () => {
  it('keeps at most maxBytes of diff over 22 edits of 3 MB, the newest first to stay', () => {
    const recent = createRecentEdits({ maxBytes: 4 * 1024 * 1024, maxDiffBytes: 512 * 1024 });
    for (let i = 0; i < 22; i++) recent.add(`/p/file${i}`, bigDiff(100_000, `e${i}`));
    const listed = recent.list();
    const held = listed.reduce((sum, edit) => sum + Buffer.byteLength(edit.diff), 0);
    expect(held).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(recent.bytes()).toBe(held);
    expect(listed.at(-1)!.path).toBe('/p/file21');
    // Each kept diff is cut at a line and says so.
    expect(listed.at(-1)!.diff).toMatch(/^-old e21 0$/m);
    expect(listed.at(-1)!.diff).toMatch(/\.\.\. \[diff cut here: \d+ more bytes not shown; .*\]\n$/);
    expect(Buffer.byteLength(listed.at(-1)!.diff)).toBeLessThan(512 * 1024 + 200);
  });

  it('keeps small diffs whole and drops the oldest past the count limit', () => {
    const recent = createRecentEdits({ limit: 3 });
    for (let i = 0; i < 5; i++) recent.add(`/p/${i}`, `-a${i}\n+b${i}\n`);
    expect(recent.list().map((edit) => edit.path)).toEqual(['/p/2', '/p/3', '/p/4']);
    expect(recent.list()[2].diff).toBe('-a4\n+b4\n');
  });
});
