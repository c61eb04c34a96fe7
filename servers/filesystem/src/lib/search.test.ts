import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from './errors.js';
import { compileSearchPattern, findEntries, searchFiles } from './search.js';

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

describe('"**/*.ext" applied by the walk itself', () => {
  it('finds exactly what the general glob finds: special characters, case, dotfiles, directories and symlinks named so, excludes, .gitignore, every cursor', async () => {
    const tricky = [
      'a.md',
      'A.MD',
      '.md',
      '.hidden.md',
      '.dir/x.md',
      'dir.md/inner.md',
      'dir.md/other.txt',
      'weird name [1] (x).md',
      'new\nline.md',
      'é/ü-ß.md',
      'x.mdx',
      'md',
      'deep/a/b/c/d.md',
      'deep/a/b/c/d.MD',
      'ignored.md',
      'ignored-dir/y.md',
      'vendor/z.md',
    ];
    for (const file of tricky) {
      await fsp.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fsp.writeFile(path.join(root, file), '');
    }
    await fsp.symlink('a.md', path.join(root, 'link.md'));
    await fsp.symlink('deep', path.join(root, 'deep-link.md'));
    await fsp.appendFile(path.join(root, '.gitignore'), 'ignored.md\nignored-dir/\n');
    const list = async (pattern: string, options: Parameters<typeof findEntries>[2] = {}) => {
      const out: string[] = [];
      for await (const entry of findEntries(root, pattern, options)) out.push(`${entry.relative}|${entry.type}|${entry.path === path.join(root, entry.relative)}`);
      return out;
    };
    // "[m]" keeps the same meaning but takes the general (glob) path.
    expect(compileSearchPattern('**/*.md').byName).toBeDefined();
    expect(compileSearchPattern('**/*.[m]d').byName).toBeUndefined();
    const cases: Parameters<typeof findEntries>[2][] = [
      {},
      { globOptions: { caseInsensitive: true } },
      { excludePatterns: ['vendor', '**/c/**'] },
      { respectGitignore: false },
    ];
    for (const options of cases) {
      const fast = await list('**/*.md', options);
      expect(fast, JSON.stringify(options)).toEqual(await list('**/*.[m]d', options));
      expect(fast.length).toBeGreaterThan(5);
      // Resuming after any match (a page boundary) gives the rest, as the general path does.
      for (const cursor of fast) {
        const after = cursor.split('|')[0];
        expect(await list('**/*.md', { ...options, after })).toEqual(await list('**/*.[m]d', { ...options, after }));
      }
    }
    expect(await list('**/*.md')).toContain('dir.md|directory|true');
    expect(await list('**/*.md')).toContain('deep-link.md|symlink|true');
    expect(await list('**/*.md', { globOptions: { caseInsensitive: true } })).toContain('A.MD|file|true');
  });

  it('still counts every entry it examined in its progress reports', async () => {
    const seen: number[] = [];
    const all = await searchFiles(root, '**', {});
    const result = await searchFiles(root, '**/*.nothing', { onProgress: (n) => seen.push(n) });
    expect(result.matches).toEqual([]);
    expect(result.scanned).toBe(all.matches.length);
    expect(seen.at(-1)).toBe(all.matches.length);
  });
});
