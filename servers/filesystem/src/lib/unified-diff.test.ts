import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unifiedDiff, unifiedDiffOfRegions } from './unified-diff.js';

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'x.txt')).toBe('');
  });

  it('writes git-style headers and a hunk with 3 lines of context', () => {
    const before = numbered(10);
    const after = before.replace('line 5\n', 'line five\n');
    expect(unifiedDiff(before, after, 'src/x.txt')).toBe(
      [
        '--- a/src/x.txt',
        '+++ b/src/x.txt',
        '@@ -2,7 +2,7 @@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+line five',
        ' line 6',
        ' line 7',
        ' line 8',
        '',
      ].join('\n'),
    );
  });

  it('splits distant changes into separate hunks and merges near ones', () => {
    const before = numbered(40);
    const far = before.replace('line 3\n', 'x\n').replace('line 30\n', 'y\n');
    expect(unifiedDiff(before, far, 'f').match(/^@@/gm)).toHaveLength(2);
    const near = before.replace('line 3\n', 'x\n').replace('line 9\n', 'y\n');
    expect(unifiedDiff(before, near, 'f').match(/^@@/gm)).toHaveLength(1);
  });

  it('numbers an empty side by the line it follows, as git does', () => {
    expect(unifiedDiff('', 'a\nb\n', 'new.txt')).toContain('@@ -0,0 +1,2 @@');
    expect(unifiedDiff('a\n', '', 'gone.txt')).toContain('@@ -1 +0,0 @@');
  });

  it('marks a missing final newline', () => {
    const diff = unifiedDiff('a\nb', 'a\nb\n', 'f');
    expect(diff).toContain('-b\n\\ No newline at end of file\n+b\n');
  });

  it('drops the leading slash of an absolute path in the headers', () => {
    expect(unifiedDiff('a\n', 'b\n', '/abs/f.txt')).toMatch(/^--- a\/abs\/f\.txt\n\+\+\+ b\/abs\/f\.txt\n/);
  });

  it('finds a minimal diff inside a large file quickly', () => {
    const before = numbered(50_000);
    const after = before.replace('line 25000\n', 'changed\n').replace('line 100\n', '');
    const diff = unifiedDiff(before, after, 'big.txt');
    expect(diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual(['-line 100', '-line 25000', '+changed']);
  });
});

describe('unifiedDiff output applies with patch', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'unified-diff-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const hasPatch = (() => {
    try {
      execFileSync('patch', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.runIf(hasPatch)('round-trips a random multi-hunk change through patch -p1', async () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const before = Array.from({ length: 300 }, () => `v${Math.floor(random() * 20)}\n`);
    const after = before.flatMap((line) => {
      const r = random();
      return r < 0.05 ? [] : r < 0.1 ? [line, 'inserted\n'] : r < 0.15 ? ['replaced\n'] : [line];
    });
    await fsp.writeFile(path.join(dir, 'f.txt'), before.join(''));
    const diff = unifiedDiff(before.join(''), after.join('') + 'tail without newline', 'f.txt');
    execFileSync('patch', ['-p1', '--quiet'], { cwd: dir, input: diff });
    expect(await fsp.readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(after.join('') + 'tail without newline');
  });
});

/** Runs a stepwise computation to its end. */
function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

describe('unifiedDiffOfRegions', () => {
  it('gives the same diff as a whole-text diff when told where the texts differ', () => {
    const before = numbered(200);
    const after = before
      .replace('line 3\n', 'line three\n')
      .replace('line 4\n', '')
      .replace('line 100\n', 'line 100\ninserted\n')
      .replace('line 200\n', 'line 200');
    // The spans that differ, found by comparing the texts around each change.
    const regions = [];
    let i = 0;
    let j = 0;
    while (i < before.length || j < after.length) {
      if (before[i] === after[j]) {
        i++;
        j++;
        continue;
      }
      const start = { i, j };
      // Resynchronise on the next newline-aligned common tail.
      let found = false;
      for (let di = 0; di < 200 && !found; di++) {
        for (let dj = 0; dj < 200 && !found; dj++) {
          if (before.slice(i + di, i + di + 20) === after.slice(j + dj, j + dj + 20) && before[i + di - 1] === '\n') {
            regions.push({ oldStart: start.i, oldEnd: i + di, newStart: start.j, newEnd: j + dj });
            i += di;
            j += dj;
            found = true;
          }
        }
      }
      if (!found) {
        regions.push({ oldStart: start.i, oldEnd: before.length, newStart: start.j, newEnd: after.length });
        break;
      }
    }
    expect(drain(unifiedDiffOfRegions(before, after, regions, 'x.txt'))).toBe(unifiedDiff(before, after, 'x.txt'));
  });

  it('matches the whole-text diff for many scattered edits, near and far apart', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}\n`);
    const changedAt = [0, 2, 9, 17, 18, 40, 47, 100, 106, 107, 300, 499];
    const after = lines.map((line, i) => (changedAt.includes(i) ? `changed ${i}\n` : line));
    const before = lines.join('');
    const regions = [];
    let oldOffset = 0;
    let newOffset = 0;
    for (let i = 0; i < lines.length; i++) {
      if (changedAt.includes(i)) regions.push({ oldStart: oldOffset, oldEnd: oldOffset + lines[i].length, newStart: newOffset, newEnd: newOffset + after[i].length });
      oldOffset += lines[i].length;
      newOffset += after[i].length;
    }
    expect(drain(unifiedDiffOfRegions(before, after.join(''), regions, 'x.txt'))).toBe(unifiedDiff(before, after.join(''), 'x.txt'));
  });

  it('shows a CRLF line without its "\\r", and a line-ending change as removed and added', () => {
    const diff = unifiedDiff('a\r\nb\r\n', 'a\r\nb\n', 'x.txt');
    expect(diff).not.toContain('\r');
    expect(diff).toMatch(/^-b$/m);
    expect(diff).toMatch(/^\+b$/m);
  });
});

describe('a diff of two large different texts (issue 21, item 2)', () => {
  it('yields to its caller as it goes and ends with a correct patch, however different the texts', () => {
    // Lines that repeat (long snakes on many diagonals) and differ everywhere: the costliest shape for Myers.
    const n = 40_000;
    const before = Array.from({ length: n }, (_, i) => `l${i % 50}\n`).join('');
    const after = Array.from({ length: n }, (_, i) => `l${(i * 7) % 50}\n`).join('');
    const steps = unifiedDiffOfRegions(before, after, [{ oldStart: 0, oldEnd: before.length, newStart: 0, newEnd: after.length }], 'x.txt');
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    // One yield per block was all there was: the whole search ran between two of them.
    expect(yields).toBeGreaterThan(10);
    const lines = step.value.split('\n').filter((line) => /^[-+ ]/.test(line) && !/^(---|\+\+\+) /.test(line));
    expect(lines.filter((line) => line[0] !== '+').length).toBe(n);
    expect(lines.filter((line) => line[0] !== '-').length).toBe(n);
  });
});
