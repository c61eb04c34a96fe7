import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from './errors.js';
import { grepFiles } from './grep.js';
import type { GrepOptions } from './grep.js';

let root: string;

beforeEach(async () => {
  root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'grep-')));
});

afterEach(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

async function files(entries: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(entries)) {
    await fsp.mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await fsp.writeFile(path.join(root, name), content);
  }
}

const hits = async (options: GrepOptions): Promise<string[]> =>
  (await grepFiles(root, options)).matches.map((m) => `${m.relative}:${m.line}:${m.column}:${m.text}`);

describe('grepFiles matching', () => {
  it('finds each matching line with its line and column, in walk order', async () => {
    await files({ 'b.ts': 'const x = 1;\nlet y = x + 1;\n', 'a/c.ts': 'no\nx marks\n' });
    expect(await hits({ pattern: 'x' })).toEqual(['a/c.ts:2:1:x marks', 'b.ts:1:7:const x = 1;', 'b.ts:2:9:let y = x + 1;']);
  });

  it('treats the pattern as a regular expression, or as text with literal: true', async () => {
    await files({ 'f.txt': 'a.c\nabc\n(x)\n' });
    expect(await hits({ pattern: 'a.c' })).toEqual(['f.txt:1:1:a.c', 'f.txt:2:1:abc']);
    expect(await hits({ pattern: 'a.c', literal: true })).toEqual(['f.txt:1:1:a.c']);
    expect(await hits({ pattern: '(x)', literal: true })).toEqual(['f.txt:3:1:(x)']);
  });

  it('is case-sensitive unless told otherwise', async () => {
    await files({ 'f.txt': 'Hello\nhello\n' });
    expect(await hits({ pattern: 'hello' })).toEqual(['f.txt:2:1:hello']);
    expect(await hits({ pattern: 'HELLO', caseSensitive: false })).toHaveLength(2);
    expect(await hits({ pattern: 'HELLO', caseSensitive: false, literal: true })).toHaveLength(2);
  });

  it('anchors ^ and $ to lines, CRLF files included, without inventing a line after the last newline', async () => {
    await files({ 'crlf.txt': 'end\r\nnot the end\r\n', 'blank.txt': 'a\n\nb\n' });
    expect(await hits({ pattern: '^end$' })).toEqual(['crlf.txt:1:1:end']);
    expect(await hits({ pattern: '^$' })).toEqual(['blank.txt:2:1:']);
  });

  it('does not let a match that spans lines through \\s count for either line', async () => {
    await files({ 'f.txt': 'foo\nbar\nfoo bar\n' });
    expect(await hits({ pattern: 'foo\\sbar' })).toEqual(['f.txt:3:1:foo bar']);
  });

  it('returns context lines before and after each match', async () => {
    await files({ 'f.txt': 'l1\nl2\nl3\nhit\nl5\r\nl6\n' });
    const [match] = (await grepFiles(root, { pattern: 'hit', contextLines: 2 })).matches;
    expect(match.before).toEqual(['l2', 'l3']);
    expect(match.after).toEqual(['l5', 'l6']);
    const [first] = (await grepFiles(root, { pattern: 'l1', contextLines: 2 })).matches;
    expect(first.before).toEqual([]);
  });

  it('cuts very long lines around the match', async () => {
    await files({ 'min.js': `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}` });
    const [match] = (await grepFiles(root, { pattern: 'NEEDLE', maxLineLength: 100 })).matches;
    expect(match.text.length).toBeLessThanOrEqual(102);
    expect(match.text).toContain('NEEDLE');
    expect(match.column).toBe(5001);
  });
});

describe('grepFiles scope and limits', () => {
  it('filters files by include and exclude globs, and honours .gitignore', async () => {
    await files({
      '.gitignore': 'ignored/\n',
      'src/a.ts': 'token',
      'src/a.md': 'token',
      'vendor/b.ts': 'token',
      'ignored/c.ts': 'token',
    });
    expect(await hits({ pattern: 'token', include: ['*.ts'], exclude: ['vendor'] })).toEqual(['src/a.ts:1:1:token']);
    expect(await hits({ pattern: 'token', include: ['*.ts'], respectGitignore: false })).toHaveLength(3);
  });

  it('skips binary files and files over the size limit, and reports them', async () => {
    await files({ 'bin.dat': Buffer.from([0x74, 0x6f, 0x6b, 0, 0x74, 0x6f, 0x6b, 0x65, 0x6e]), 'big.txt': 'token\n'.repeat(100), 'ok.txt': 'token' });
    const result = await grepFiles(root, { pattern: 'token', maxFileBytes: 100 });
    expect(result.matches.map((m) => m.relative)).toEqual(['ok.txt']);
    expect(result.skipped.binary).toBe(1);
    expect(result.skipped.tooLarge).toEqual([path.join(root, 'big.txt')]);
  });

  it('stops at maxResults and marks the result truncated', async () => {
    await files({ 'a.txt': 'x\nx\nx\n', 'b.txt': 'x\n' });
    const result = await grepFiles(root, { pattern: 'x', maxResults: 2 });
    expect(result.matches).toHaveLength(2);
    expect(result.truncated).toBe(true);
    expect((await grepFiles(root, { pattern: 'x', maxResults: 4 })).truncated).toBe(false);
  });

  it('searches a single file when given one', async () => {
    await files({ 'one.txt': 'alpha\nbeta\n', 'two.txt': 'beta\n' });
    expect((await grepFiles(path.join(root, 'one.txt'), { pattern: 'beta' })).matches.map((m) => m.line)).toEqual([2]);
  });

  it('does not follow a symlink to a file outside', async () => {
    const outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'grep-outside-'));
    try {
      await fsp.writeFile(path.join(outside, 'secret.txt'), 'token');
      await fsp.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
      expect((await grepFiles(root, { pattern: 'token' })).matches).toEqual([]);
    } finally {
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });

  it('refuses an invalid regular expression with advice', async () => {
    const error = await grepFiles(root, { pattern: 'foo(' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FsError);
    expect((error as FsError).code).toBe('INVALID_PATTERN');
    expect((error as FsError).message).toMatch(/literal: true/);
  });

  it('searches a file named directly whatever the include globs say', async () => {
    await files({ 'notes.md': 'token\n' });
    expect((await grepFiles(path.join(root, 'notes.md'), { pattern: 'token', include: ['*.ts'] })).matches).toHaveLength(1);
  });

  it('reads a file of several chunks line by line: line numbers, columns and characters split across chunks are right', async () => {
    // ~6 MB: 1 MB chunks end mid-line and, with 2-byte characters, mid-character.
    const lines = Array.from({ length: 300_000 }, (_, i) => `é${i + 1} ${'ü'.repeat(i % 7)}x`);
    await files({ 'big.txt': `${lines.join('\n')}\n` });
    const wanted = [1, 52_000, 131_073, 150_000, 299_999, 300_000];
    const result = await grepFiles(root, { pattern: `^é(${wanted.join('|')}) `, maxResults: 100 });
    expect(result.matches.map((m) => [m.line, m.text])).toEqual(wanted.map((n) => [n, lines[n - 1]]));
    const tail = await grepFiles(root, { pattern: 'x$', maxResults: 300_000, maxOutputBytes: 1e9 });
    expect(tail.matches).toHaveLength(300_000);
    expect(tail.matches.every((m, i) => m.line === i + 1 && m.text === lines[i])).toBe(true);
  });

  it('stops when the output reaches maxOutputBytes, and says so', async () => {
    await files({ 'many.txt': 'hit\n'.repeat(10_000) });
    const result = await grepFiles(root, { pattern: 'hit', maxResults: 100_000, maxOutputBytes: 20_000 });
    expect(result.truncated).toBe(true);
    expect(result.truncatedBy).toBe('output_size');
    expect(result.matches.length).toBeGreaterThan(10);
    expect(result.matches.length).toBeLessThan(1_000);
  });

  it('keeps maxResults and maxOutputBytes for the whole search when it spans many requests and both workers', async () => {
    const many: Record<string, string> = {};
    for (let d = 0; d < 80; d++) for (let f = 0; f < 50; f++) many[`d${String(d).padStart(2, '0')}/f${String(f).padStart(2, '0')}.txt`] = 'hit\nmiss\nhit\n';
    await files(many);
    const key = (m: { relative: string; line: number; after: string[] }) => `${m.relative}:${m.line}:${m.after.join('|')}`;
    const all = await grepFiles(root, { pattern: 'hit', maxResults: 100_000, contextLines: 1 });
    expect(all.matches).toHaveLength(8_000);
    expect(all.truncated).toBe(false);
    expect(all.filesScanned).toBe(4_000);
    expect(all.filesMatched).toBe(4_000);
    // Cut in a late request (one the second worker answers): the first N matches in walk order.
    const capped = await grepFiles(root, { pattern: 'hit', maxResults: 7_001, contextLines: 1 });
    expect(capped.matches).toHaveLength(7_001);
    expect(capped.truncatedBy).toBe('max_results');
    expect(capped.matches.map(key)).toEqual(all.matches.slice(0, 7_001).map(key));
    const perMatch = JSON.stringify(all).length / all.matches.length;
    const sized = await grepFiles(root, { pattern: 'hit', maxResults: 100_000, maxOutputBytes: Math.round(perMatch * 6_000), contextLines: 1 });
    expect(sized.truncatedBy).toBe('output_size');
    expect(sized.matches.length).toBeGreaterThan(3_000);
    expect(sized.matches.length).toBeLessThan(8_000);
    // Whole matches in order; only the last may have lost its context line after.
    const n = sized.matches.length;
    expect(sized.matches.slice(0, n - 1).map(key)).toEqual(all.matches.slice(0, n - 1).map(key));
    expect(`${sized.matches[n - 1].relative}:${sized.matches[n - 1].line}`).toBe(`${all.matches[n - 1].relative}:${all.matches[n - 1].line}`);
  });

  it('skips, without a word, files whose directory is really outside the allowed ones', async () => {
    await files({ 'in/a.txt': 'token\n', 'out/b.txt': 'token\n', 'out/deeper/c.txt': 'token\n' });
    const result = await grepFiles(root, { pattern: 'token', allowed: [path.join(root, 'in')] });
    expect(result.matches.map((m) => m.relative)).toEqual(['in/a.txt']);
    expect(result.skipped.unreadable).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('out/');
  });

  it('finds exactly what a line-by-line reference search finds, whichever way a file is read (one read, chunks, fstat first or not)', async () => {
    // The worker reads a small file once and fstat's it only when it may match; files of a
    // chunk (1 MiB) or more, files over maxFileBytes and binary ones take the other ways.
    const MiB = 1024 * 1024;
    const fill = (size: number, tail: string) => Buffer.concat([Buffer.alloc(size - Buffer.byteLength(tail), 'a'), Buffer.from(tail)]);
    const tricky: Record<string, string | Buffer> = {
      'empty.txt': '',
      'no-newline.txt': 'Needle at the end',
      'crlf.txt': 'one\r\ntwo Needle\r\n',
      '.hidden/.env': 'NEEDLE=1\nneedle=2\n',
      'sp ace/we"ird\nname.md': 'x Needle y\n',
      'é/ü-ß.md': 'préfixe Needle 🎉 suffixe\nNeedleNeedle\n',
      'deep/a/b/c/d/e.txt': 'Neeedle\nNeedle\n',
      'bad-utf8.txt': Buffer.concat([Buffer.from('ok\n\xff\xfe Needle \xc3\n', 'latin1'), Buffer.from('end Needle')]),
      'nul-late.txt': Buffer.concat([Buffer.alloc(9000, 'b'), Buffer.from([0]), Buffer.from('\nNeedle after a late NUL\n')]),
      'nul-early.bin': Buffer.concat([Buffer.from('Needle'), Buffer.from([0]), Buffer.from('Needle\n')]),
      'chunk-minus-1.txt': fill(MiB - 1, '\nNeedle'),
      'chunk.txt': fill(MiB, '\nNeedle\n'),
      'chunk-plus.txt': fill(MiB + 100, '\nNeedle\n'),
      'limit.txt': fill(3000, '\nNeedle\n'),
      'limit-plus-1.txt': fill(3001, '\nNeedle\n'),
      'limit-plus-1-no-match.txt': fill(3001, '\nneedle\n'),
    };
    await files(tricky);
    const reference = (pattern: RegExp, maxFileBytes: number) => {
      const out: string[] = [];
      const names = Object.keys(tricky).sort((a, b) => {
        const x = a.split('/');
        const y = b.split('/');
        for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
        return x.length - y.length;
      });
      for (const name of names) {
        const bytes = Buffer.from(tricky[name]);
        if (bytes.length > maxFileBytes || bytes.subarray(0, 8192).includes(0)) continue;
        const lines = bytes.toString('utf8').split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        lines.forEach((raw, i) => {
          const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
          const found = pattern.exec(line);
          if (found) out.push(`${name}:${i + 1}:${found.index + 1}:${line.length > 500 ? '' : line}`);
        });
      }
      return out;
    };
    const shown = (options: GrepOptions) => hits(options).then((all) => all.map((h) => (h.length > 700 ? h.slice(0, h.lastIndexOf(':') + 1) : h)));
    for (const maxFileBytes of [undefined, 3000]) {
      const limit = maxFileBytes ?? Infinity;
      // A literal (found in the bytes), a regular expression matched over the whole text, one matched line by line ($), and case-insensitive.
      expect(await shown({ pattern: 'Needle', maxFileBytes })).toEqual(reference(/Needle/, limit));
      expect(await shown({ pattern: 'Ne+dle', maxFileBytes })).toEqual(reference(/Ne+dle/, limit));
      expect(await shown({ pattern: 'Needle$', maxFileBytes })).toEqual(reference(/Needle$/, limit));
      expect(await shown({ pattern: 'needle', caseSensitive: false, maxFileBytes })).toEqual(reference(/needle/i, limit));
    }
    const capped = await grepFiles(root, { pattern: 'Needle', maxFileBytes: 3000 });
    expect(capped.skipped.binary).toBe(1);
    expect(capped.skipped.tooLarge.map((file) => path.relative(root, file)).sort()).toEqual([
      'chunk-minus-1.txt',
      'chunk-plus.txt',
      'chunk.txt',
      'limit-plus-1-no-match.txt',
      'limit-plus-1.txt',
      'nul-late.txt',
    ]);
    expect(capped.filesScanned).toBe(Object.keys(tricky).length - 6);
  });

  it('skips a FIFO without blocking on it', async () => {
    const { execFileSync } = await import('node:child_process');
    await files({ 'a.txt': 'token\n' });
    execFileSync('mkfifo', [path.join(root, 'pipe.txt')]);
    const result = await grepFiles(root, { pattern: 'token' });
    expect(result.matches.map((m) => m.relative)).toEqual(['a.txt']);
  });

  it('counts files and reports progress', async () => {
    await files({ 'a.txt': 'x', 'b.txt': 'y', 'c/d.txt': 'x' });
    const progress: number[] = [];
    const result = await grepFiles(root, { pattern: 'x', onProgress: (n) => progress.push(n) });
    expect(result.filesScanned).toBe(3);
    expect(result.filesMatched).toBe(2);
    expect(progress.at(-1)).toBe(3);
  });
});
