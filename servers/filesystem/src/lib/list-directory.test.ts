import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from './errors.js';
import { listDirectory } from './list-directory.js';

let base: string;
let root: string;

beforeEach(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'list-')));
  root = path.join(base, 'root');
  await fsp.mkdir(path.join(root, 'sub', 'deeper'), { recursive: true });
  await fsp.writeFile(path.join(root, '.gitignore'), '*.log\nbuild/\n');
  await fsp.writeFile(path.join(root, 'b.txt'), 'bb');
  await fsp.writeFile(path.join(root, 'A.txt'), 'aaaa');
  await fsp.writeFile(path.join(root, 'debug.log'), 'x'.repeat(100));
  await fsp.mkdir(path.join(root, 'build'));
  await fsp.mkdir(path.join(root, '.git'));
  await fsp.writeFile(path.join(root, 'sub', 'c.log'), '');
  await fsp.writeFile(path.join(root, 'sub', 'c.ts'), '');
});

afterEach(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

const names = (listing: { entries: { name: string }[] }): string[] => listing.entries.map((e) => e.name);

describe('listDirectory', () => {
  it('lists by code point, by name and among equal sizes, where UTF-16 order would differ', async () => {
    const dir = path.join(base, 'wide');
    await fsp.mkdir(dir);
    // U+FF01 before U+1F600 by code point; after it by UTF-16 unit (0xFF01 > 0xD83D).
    for (const name of ['\u{1f600}.txt', '\uff01.txt', 'a.txt']) await fsp.writeFile(path.join(dir, name), 'x');
    const order = ['a.txt', '\uff01.txt', '\u{1f600}.txt'];
    expect(names(await listDirectory(dir))).toEqual(order);
    expect(names(await listDirectory(dir, { sortBy: 'size' }))).toEqual(order);
  });

  it('lists one level sorted by name with types, hiding what .gitignore ignores and counting it', async () => {
    const listing = await listDirectory(root);
    expect(listing.entries).toEqual([
      { name: '.git', type: 'directory' },
      { name: '.gitignore', type: 'file' },
      { name: 'A.txt', type: 'file' },
      { name: 'b.txt', type: 'file' },
      { name: 'sub', type: 'directory' },
    ]);
    expect(listing.ignored).toBe(2);
    expect(listing.totalFiles).toBe(3);
    expect(listing.totalDirectories).toBe(2);
  });

  it('shows everything with respectGitignore: false', async () => {
    expect(names(await listDirectory(root, { respectGitignore: false }))).toContain('debug.log');
  });

  it('applies the parents\' .gitignore files up to the boundary', async () => {
    expect(names(await listDirectory(path.join(root, 'sub'), { gitignoreBoundary: root }))).toEqual(['c.ts', 'deeper']);
    expect(names(await listDirectory(path.join(root, 'sub')))).toEqual(['c.log', 'c.ts', 'deeper']);
  });

  it('gives sizes and totals, and sorts by size largest first', async () => {
    const listing = await listDirectory(root, { sortBy: 'size', respectGitignore: false });
    expect(names(listing).slice(0, 4)).toEqual(['debug.log', '.gitignore', 'A.txt', 'b.txt']);
    expect(listing.entries.find((e) => e.name === 'A.txt')?.size).toBe(4);
    expect(listing.entries.find((e) => e.name === 'sub')?.size).toBeUndefined();
    expect(listing.totalSize).toBe(100 + 13 + 4 + 2);
  });

  it('lists a symlink to the outside as a symlink with the size of the link, not of its target', async () => {
    await fsp.writeFile(path.join(base, 'outside.bin'), Buffer.alloc(5000));
    await fsp.symlink(path.join(base, 'outside.bin'), path.join(root, 'link'));
    const listing = await listDirectory(root, { withSizes: true });
    const link = listing.entries.find((e) => e.name === 'link');
    expect(link?.type).toBe('symlink');
    expect(link?.size).toBe(path.join(base, 'outside.bin').length);
  });

  it('reports a missing directory as NOT_FOUND and a file as NOT_A_DIRECTORY', async () => {
    expect(((await listDirectory(path.join(root, 'nope')).catch((e: unknown) => e)) as FsError).code).toBe('NOT_FOUND');
    expect(((await listDirectory(path.join(root, 'b.txt')).catch((e: unknown) => e)) as FsError).code).toBe('NOT_A_DIRECTORY');
  });
});
