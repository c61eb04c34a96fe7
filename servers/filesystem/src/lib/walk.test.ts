import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from './errors.js';
import { compileGlob } from './glob.js';
import { compareNames, compareRelativePaths, compileGlobs, nameOrderFor, walk, walkFiles } from './walk.js';
import type { WalkEntry, WalkOptions } from './walk.js';

let base: string;
let root: string;

beforeEach(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'walk-')));
  root = path.join(base, 'root');
  await fsp.mkdir(root);
});

afterEach(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

/** Creates files (and their directories); a name ending in "/" is an empty directory. */
async function tree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name);
    if (name.endsWith('/')) {
      await fsp.mkdir(p, { recursive: true });
    } else {
      await fsp.mkdir(path.dirname(p), { recursive: true });
      await fsp.writeFile(p, content);
    }
  }
}

async function collect(options: WalkOptions = {}, from = root): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  for await (const entry of walk(from, options)) out.push(entry);
  return out;
}

const rel = (entries: WalkEntry[]): string[] => entries.map((e) => e.relative);

describe('walk order', () => {
  it('is depth-first with each directory sorted by code point, children right after their directory', async () => {
    await tree(root, { 'b.txt': '', 'a/z.txt': '', 'a/y/x.txt': '', 'a-c.txt': '', 'B.txt': '', 'a/Y.txt': '' });
    expect(rel(await collect())).toEqual(['B.txt', 'a', 'a/Y.txt', 'a/y', 'a/y/x.txt', 'a/z.txt', 'a-c.txt', 'b.txt']);
  });

  it('reports types, absolute paths, depths and parents', async () => {
    await tree(root, { 'd/f.txt': 'x' });
    await fsp.symlink('d/f.txt', path.join(root, 'link'));
    const top = { path: root, relative: '' };
    expect(await collect()).toEqual([
      { path: path.join(root, 'd'), relative: 'd', name: 'd', type: 'directory', depth: 1, parent: top },
      { path: path.join(root, 'd', 'f.txt'), relative: 'd/f.txt', name: 'f.txt', type: 'file', depth: 2, parent: { path: path.join(root, 'd'), relative: 'd' } },
      { path: path.join(root, 'link'), relative: 'link', name: 'link', type: 'symlink', depth: 1, parent: top },
    ]);
  });

  it('never follows a symlinked directory, so an outside tree is not listed', async () => {
    await tree(base, { 'outside/secret.txt': 's' });
    await fsp.symlink(path.join(base, 'outside'), path.join(root, 'escape'));
    expect(rel(await collect())).toEqual(['escape']);
  });

  it('stops descending at maxDepth', async () => {
    await tree(root, { 'a/b/c/d.txt': '' });
    expect(rel(await collect({ maxDepth: 2 }))).toEqual(['a', 'a/b']);
  });

  it('walkFiles yields only regular files', async () => {
    await tree(root, { 'a/b.txt': '', 'c.txt': '', 'empty/': '' });
    expect(rel(await collectFiles())).toEqual(['a/b.txt', 'c.txt']);
  });

  it('orders by code point rather than UTF-16 units', () => {
    expect(compareNames('\uff01', '\u{1f600}')).toBeLessThan(0);
    expect(compareNames('B', 'a')).toBeLessThan(0);
    expect(compareRelativePaths('a/b', 'a-c')).toBeLessThan(0);
  });

  it("sorts names by the engine's comparison where it gives code point order, and by compareNames where it does not", async () => {
    // Random names over units that reach every range where the two orders could differ.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const alphabets = [
      ['a', 'b', 'B', '-', '.', '0', '\u00e9'],
      ['a', 'b', '\ud7ff', '\ue000', '\uff01', '\u{1f600}', '\u{10000}'],
    ];
    for (const alphabet of alphabets) {
      for (let round = 0; round < 50; round++) {
        const names = Array.from({ length: 40 }, () => Array.from({ length: 1 + random(4) }, () => alphabet[random(alphabet.length)]).join(''));
        const entries = names.map((name) => ({ name }));
        const order = nameOrderFor(entries);
        expect([...names].sort(order)).toEqual([...names].sort(compareNames));
      }
    }
    // Names of plain units (nearly every directory) take the engine's comparison, several
    // times faster than compareNames' loop; a surrogate or a unit from U+E000 on, compareNames.
    expect(nameOrderFor([{ name: 'a' }, { name: '\u00e9t\u00e9' }, { name: '\ud7ff' }])).not.toBe(compareNames);
    expect(nameOrderFor([{ name: 'a' }, { name: '\u{1f600}' }])).toBe(compareNames);
    expect(nameOrderFor([{ name: 'a' }, { name: '\uff01' }])).toBe(compareNames);
    // And the walk's own order of such a directory is code point order.
    await tree(root, { '\uff01.txt': '', '\u{1f600}.txt': '', 'a.txt': '' });
    expect(rel(await collect())).toEqual(['a.txt', '\uff01.txt', '\u{1f600}.txt']);
  });
});

async function collectFiles(options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  for await (const entry of walkFiles(root, options)) out.push(entry);
  return out;
}

describe('resuming with after', () => {
  it('continues strictly after any cursor, giving exactly the rest of the walk', async () => {
    await tree(root, { 'a/1.txt': '', 'a/b/2.txt': '', 'a/b/3.txt': '', 'c.txt': '', 'd/e/f/4.txt': '', 'd/g.txt': '' });
    const all = rel(await collect());
    for (let i = 0; i < all.length; i++) {
      expect(rel(await collect({ after: all[i] }))).toEqual(all.slice(i + 1));
    }
  });

  it('resumes after a path that no longer exists at the place it would have been', async () => {
    await tree(root, { 'a.txt': '', 'c/d.txt': '', 'e.txt': '' });
    expect(rel(await collect({ after: 'b/zzz' }))).toEqual(['c', 'c/d.txt', 'e.txt']);
    expect(rel(await collect({ after: 'c/a' }))).toEqual(['c/d.txt', 'e.txt']);
  });

  it.runIf(path.sep === '/')('resumes after a name holding a backslash (a plain character on POSIX)', async () => {
    await tree(root, { 'a\\b/1.txt': '', 'a\\c.txt': '', 'b.txt': '' });
    const all = rel(await collect());
    expect(all).toEqual(['a\\b', 'a\\b/1.txt', 'a\\c.txt', 'b.txt']);
    for (let i = 0; i < all.length; i++) expect(rel(await collect({ after: all[i] }))).toEqual(all.slice(i + 1));
  });

  it('refuses a resume point that is not below the root (a forged cursor), reading nothing', async () => {
    await tree(root, { 'a.txt': '' });
    for (const after of ['/', '/etc/passwd', '../outside', 'a/../../x', '..']) {
      const read: string[] = [];
      const error = await collect({ after, onDirectory: (dir) => read.push(dir) }).catch((e: unknown) => e);
      expect(error, after).toBeInstanceOf(FsError);
      expect((error as FsError).message).toMatch(/Invalid cursor/);
      expect(read, after).toEqual([]);
    }
  });

  it('does not read the directories that sort before the cursor', async () => {
    await tree(root, { 'a/deep/x.txt': '', 'b/deep/y.txt': '', 'm/n/o.txt': '', 'm/p.txt': '', 'z/q.txt': '' });
    const read: string[] = [];
    const rest = await collect({ after: 'm/n/o.txt', onDirectory: (dir) => read.push(dir) });
    expect(rel(rest)).toEqual(['m/p.txt', 'z', 'z/q.txt']);
    expect(read).toEqual(['', 'm', 'm/n', 'z']);
  });
});

describe('exclusions', () => {
  it('honours .gitignore files, nested ones scoped to their directory, and skips .git', async () => {
    await tree(root, {
      '.gitignore': '*.log\nbuild/\n',
      '.git/HEAD': 'ref',
      'app.log': '',
      'build/out.js': '',
      'src/build': 'a file named build is kept',
      'src/.gitignore': '!keep.log\nsecret.txt\n',
      'src/keep.log': '',
      'src/drop.log': '',
      'src/secret.txt': '',
      'other/secret.txt': '',
    });
    expect(rel(await collect())).toEqual([
      '.gitignore',
      'other',
      'other/secret.txt',
      'src',
      'src/.gitignore',
      'src/build',
      'src/keep.log',
    ]);
  });

  it('shows everything, .git included, with respectGitignore: false', async () => {
    await tree(root, { '.gitignore': '*.log\n', '.git/HEAD': '', 'a.log': '' });
    expect(rel(await collect({ respectGitignore: false }))).toEqual(['.git', '.git/HEAD', '.gitignore', 'a.log']);
  });

  it('applies the .gitignore files between the boundary and the walked directory', async () => {
    await tree(root, { '.gitignore': 'tmp/\n*.bak\n', 'pkg/a.bak': '', 'pkg/tmp/x': '', 'pkg/a.ts': '' });
    expect(rel(await collect({ gitignoreBoundary: root }, path.join(root, 'pkg')))).toEqual(['a.ts']);
    expect(rel(await collect({}, path.join(root, 'pkg')))).toEqual(['a.bak', 'a.ts', 'tmp', 'tmp/x']);
  });

  it('lists a directory asked for explicitly even when its parent ignores it', async () => {
    await tree(root, { '.gitignore': 'node_modules/\n', 'node_modules/lib/index.js': '' });
    expect(rel(await collect({ gitignoreBoundary: root }, path.join(root, 'node_modules')))).toEqual(['lib', 'lib/index.js']);
  });

  it('excludes globs by relative path, and bare names at any depth', async () => {
    await tree(root, {
      'node_modules/x/index.js': '',
      'pkg/node_modules/y.js': '',
      'src/a.gen.ts': '',
      'src/a.ts': '',
      'lib/a.gen.ts': '',
      'dist/bundle.js': '',
    });
    const entries = rel(await collect({ excludes: ['node_modules', 'src/*.gen.ts', '**/dist/**'] }));
    expect(entries).toEqual(['lib', 'lib/a.gen.ts', 'pkg', 'src', 'src/a.ts']);
  });
});

describe('failures and cancellation', () => {
  it('rejects a missing root with NOT_FOUND and a file root with NOT_A_DIRECTORY', async () => {
    await tree(root, { 'f.txt': '' });
    const missing = await collect({}, path.join(root, 'nope')).catch((e: unknown) => e);
    expect((missing as FsError).code).toBe('NOT_FOUND');
    const file = await collect({}, path.join(root, 'f.txt')).catch((e: unknown) => e);
    expect((file as FsError).code).toBe('NOT_A_DIRECTORY');
  });

  it('stops with an AbortError when the signal fires', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i}/f.txt`] = '';
    await tree(root, files);
    const controller = new AbortController();
    let seen = 0;
    const error = await (async () => {
      for await (const _entry of walk(root, { signal: controller.signal })) {
        if (++seen === 10) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(seen).toBeLessThan(600);
  });
});

describe('compileGlobs', () => {
  it('matches as each glob tested on its own would, names and paths, negated ones too', () => {
    // The rule of the one-by-one version: a glob without "/" tests the name, one with "/"
    // the path ("dir/**" the directory itself too); any match excludes.
    const oneByOne = (patterns: string[]) => (relative: string) =>
      patterns.some((pattern) => {
        if (!pattern.includes('/')) return compileGlob(pattern).test(relative.slice(relative.lastIndexOf('/') + 1));
        return compileGlob(pattern).test(relative) || (pattern.endsWith('/**') && !pattern.startsWith('!') && compileGlob(pattern.slice(0, -3)).test(relative));
      });
    const paths = ['a.log', 'deep/er/a.log', 'build', 'build/x/y.js', 'src/a.tmp', 'src/deeper/a.tmp', 'x.orig', 'keep/a.js', 'other/a.js', 'README.md'];
    for (const patterns of [['*.log', 'build/**', 'src/*.tmp', '*.{bak,orig}'], ['*.log', '!keep/**'], ['!*.md', '!*.log'], ['**/a.*', 'x.*']]) {
      const together = compileGlobs(patterns);
      const alone = oneByOne(patterns);
      for (const relative of paths) expect(together(relative), `${relative} with ${patterns.join(' ')}`).toBe(alone(relative));
    }
    expect(compileGlobs(['*.log', 'build/**'])('deep/er/a.log')).toBe(true);
    expect(compileGlobs(['*.log', 'build/**'])('src/a.js')).toBe(false);
    expect(compileGlobs([])('anything')).toBe(false);
    expect(() => compileGlobs(['ok/**', 'src/!(*.js)'], {}, 'The exclude pattern')).toThrow(/The exclude pattern "src\/!\(\*\.js\)" is refused/);
  });

  it('costs one pass a path however many globs there are', { timeout: 10_000 }, () => {
    // Tested one by one, 250 exclude patterns made a search of 20,000 entries take 31 s.
    const excluded = compileGlobs(Array.from({ length: 2_000 }, (_, i) => `**/nomatch${i}/**`));
    let hits = 0;
    for (let i = 0; i < 20_000; i++) if (excluded(`d${i % 100}/sub/g${i}.md`)) hits++;
    expect(hits).toBe(0);
    expect(excluded('a/nomatch1999/b.md')).toBe(true);
    expect(excluded('nomatch7')).toBe(true);
  });
});
