import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from './errors.js';
import { compileSearchPattern, searchFiles } from './search.js';

let root: string;

beforeEach(async () => {
  root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'search-')));
  const files = [
    'README.md',
    'src/index.ts',
    'src/util/strings.ts',
    'src/util/README.md',
    '.github/workflows/ci.yml',
    'node_modules/pkg/index.ts',
    'dist/index.js',
  ];
  for (const file of files) {
    await fsp.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fsp.writeFile(path.join(root, file), '');
  }
  await fsp.writeFile(path.join(root, '.gitignore'), 'dist/\n');
});

afterEach(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

const relatives = async (pattern: string, options = {}): Promise<string[]> =>
  (await searchFiles(root, pattern, options)).matches.map((m) => m.relative);

describe('searchFiles', () => {
  it('matches a glob against the relative path, so "*.ts" stays at the top like the official server', async () => {
    expect(await relatives('*.ts')).toEqual([]);
    expect(await relatives('**/*.ts')).toEqual(['node_modules/pkg/index.ts', 'src/index.ts', 'src/util/strings.ts']);
    expect(await relatives('src/*.ts')).toEqual(['src/index.ts']);
  });

  it('includes dotfiles and directories', async () => {
    expect(await relatives('**/*.yml')).toEqual(['.github/workflows/ci.yml']);
    expect(await relatives('**/util')).toEqual(['src/util']);
  });

  it('matches a plain word as a case-insensitive substring of names at any depth', async () => {
    expect(await relatives('readme')).toEqual(['README.md', 'src/util/README.md']);
    const matches = (await searchFiles(root, 'strings')).matches;
    expect(matches).toEqual([{ path: path.join(root, 'src/util/strings.ts'), relative: 'src/util/strings.ts', type: 'file' }]);
  });

  it('leaves out excluded and gitignored trees, unless told not to honour .gitignore', async () => {
    expect(await relatives('**/index.*', { excludePatterns: ['node_modules'] })).toEqual(['src/index.ts']);
    expect(await relatives('**/index.*', { excludePatterns: ['node_modules'], respectGitignore: false })).toEqual([
      'dist/index.js',
      'src/index.ts',
    ]);
  });

  it('stops at maxResults and says the list is truncated', async () => {
    const result = await searchFiles(root, '**', { maxResults: 3 });
    expect(result.matches).toHaveLength(3);
    expect(result.truncated).toBe(true);
    const all = await searchFiles(root, '**');
    expect(all.truncated).toBe(false);
    expect(all.matches.length).toBeGreaterThan(3);
  });

  it('reports progress with the number of entries scanned', async () => {
    const seen: number[] = [];
    const result = await searchFiles(root, 'nothing-matches-this', { onProgress: (n) => seen.push(n) });
    expect(result.matches).toEqual([]);
    expect(seen.at(-1)).toBe(result.scanned);
    expect(result.scanned).toBeGreaterThan(5);
  });

  it('refuses an empty pattern', async () => {
    const error = await searchFiles(root, '  ').catch((e: unknown) => e);
    expect((error as FsError).code).toBe('INVALID_PATTERN');
  });
});

describe('compileSearchPattern fast path', () => {
  it('matches "**/*.ext" and "*.ext" exactly as the glob does (minimatch, as the official server)', async () => {
    const { minimatch } = await import('minimatch');
    const paths = ['a.md', '.md', 'x/a.md', 'x/y/b.MD', 'x/y/b.md', 'a.mdx', 'md', 'x/.hidden.md', 'a.md/b.txt'];
    for (const pattern of ['**/*.md', '*.md', '**/*.test.ts', '*.tar.gz']) {
      const glob = (path: string) => minimatch(path, pattern, { dot: true });
      const fast = compileSearchPattern(pattern);
      for (const relative of paths) {
        expect(fast(relative, relative.split('/').pop()!), `${pattern} ~ ${relative}`).toBe(glob(relative));
      }
    }
  });
});
