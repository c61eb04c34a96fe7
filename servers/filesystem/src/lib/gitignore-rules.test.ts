import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGitignoreRules } from './gitignore-rules.js';
import { walkFiles } from './walk.js';

const rulesOf = (text: string, ignoreCase = false) => {
  const rules = parseGitignoreRules(text, { ignoreCase });
  if (!rules) throw new Error('no rules');
  return rules;
};
const file = (text: string, rel: string) => rulesOf(text).test(rel, false);
const dir = (text: string, rel: string) => rulesOf(text).test(rel, true);

describe('gitignore rules: what each kind of pattern matches', () => {
  it('has no rules for comments, blank lines, lone "!" and patterns that can match nothing', () => {
    expect(parseGitignoreRules('# comment\n\n   \n!\n/\nfoo\\\n[abc\n[[:nope:]]x\n')).toBeUndefined();
  });

  it('lets the last matching rule decide, "!" re-including', () => {
    expect(file('*.log\n!keep.log\n', 'keep.log')).toBe('unignored');
    expect(file('*.log\n!keep.log\n', 'a.log')).toBe('ignored');
    expect(file('!keep.log\n*.log\n', 'keep.log')).toBe('ignored');
    expect(file('*.log\n', 'a.txt')).toBeUndefined();
  });

  it('matches a pattern without "/" against the name at any depth, one with "/" against the whole path', () => {
    expect(file('name\n', 'a/b/name')).toBe('ignored');
    expect(file('/name\n', 'name')).toBe('ignored');
    expect(file('/name\n', 'a/name')).toBeUndefined();
    expect(file('a/name\n', 'a/name')).toBe('ignored');
    expect(file('a/name\n', 'x/a/name')).toBeUndefined();
    expect(file('**/name\n', 'x/y/name')).toBe('ignored');
    expect(file('**/name\n', 'name')).toBe('ignored');
  });

  it('limits a pattern with a trailing "/" to directories', () => {
    expect(dir('build/\n', 'x/build')).toBe('ignored');
    expect(file('build/\n', 'x/build')).toBeUndefined();
    expect(file('build/\n!build\n', 'build')).toBe('unignored');
  });

  it('treats "**" as any number of directories only as a whole segment', () => {
    expect(file('a/**/b\n', 'a/b')).toBe('ignored');
    expect(file('a/**/b\n', 'a/x/y/b')).toBe('ignored');
    expect(dir('foo/**\n', 'foo')).toBeUndefined();
    expect(file('foo/**\n', 'foo/x/y')).toBe('ignored');
    expect(file('a/**b\n', 'a/xb')).toBe('ignored');
    expect(file('a/**b\n', 'a/x/b')).toBeUndefined();
    expect(file('/**\n', 'any/thing')).toBe('ignored');
  });

  it('never lets "*", "?" or a bracket expression match a "/"', () => {
    expect(file('a/*\n', 'a/b')).toBe('ignored');
    expect(file('a/*\n', 'a/b/c')).toBeUndefined();
    expect(file('a?b/c\n', 'a/b/c')).toBeUndefined();
    expect(parseGitignoreRules('a[/]b\n')).toBeUndefined();
  });

  it('reads bracket expressions as git does: ranges, negation, "]" first, POSIX classes', () => {
    expect(file('*.py[co]\n', 'm.pyc')).toBe('ignored');
    expect(file('*.py[co]\n', 'm.pyd')).toBeUndefined();
    expect(file('*.py[!c]\n', 'm.pyd')).toBe('ignored');
    expect(file('*.py[^c]\n', 'm.pyc')).toBeUndefined();
    expect(file('[a-c]x\n', 'bx')).toBe('ignored');
    expect(file('[a-c]x\n', 'dx')).toBeUndefined();
    expect(file('[]]x\n', ']x')).toBe('ignored');
    expect(file('[!]]x\n', 'ax')).toBe('ignored');
    expect(file('[a-]x\n', '-x')).toBe('ignored');
    expect(file('[[:digit:]]*\n', '1st')).toBe('ignored');
    expect(file('[[:digit:]]*\n', 'first')).toBeUndefined();
    expect(file('[[:upper:][:digit:]]\n', 'Q')).toBe('ignored');
    expect(file('[[:x]\n', ':')).toBe('ignored');
  });

  it('quotes with a backslash and drops unquoted trailing spaces', () => {
    expect(file('\\#hash\n', '#hash')).toBe('ignored');
    expect(file('\\!bang\n', '!bang')).toBe('ignored');
    expect(file('a\\*\n', 'a*')).toBe('ignored');
    expect(file('a\\*\n', 'ab')).toBeUndefined();
    expect(file('trail   \n', 'trail')).toBe('ignored');
    expect(file('trail\\ \n', 'trail ')).toBe('ignored');
    expect(file('trail\\ \n', 'trail')).toBeUndefined();
    expect(file('crlf\r\n', 'crlf')).toBe('ignored');
    expect(file('\uFEFFbom\n', 'bom')).toBe('ignored');
  });

  it('matches by UTF-8 byte, as git does', () => {
    expect(file('?.txt\n', 'é.txt')).toBeUndefined();
    expect(file('??.txt\n', 'é.txt')).toBe('ignored');
    expect(file('*本*\n', '日本.md')).toBe('ignored');
    expect(file('日*\n', '日本.md')).toBe('ignored');
  });

  it('folds ASCII letters only when asked (core.ignorecase)', () => {
    expect(rulesOf('*.LOG\nBuild/\n[A-C]x\n', true).test('a.log', false)).toBe('ignored');
    expect(rulesOf('*.LOG\nBuild/\n[A-C]x\n', true).test('x/BUILD', true)).toBe('ignored');
    expect(rulesOf('*.LOG\nBuild/\n[A-C]x\n', true).test('bX', false)).toBe('ignored');
    expect(rulesOf('*.LOG\n', false).test('a.log', false)).toBeUndefined();
  });
});

// ---- The same answers as git -------------------------------------------------------------

/** Seeded, so a failure names a tree that can be built again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILE_NAMES = [
  'x.log', 'keep.log', 'debug.log', 'y.LOG', 'file.py', 'file.pyc', 'file.pyo', 'file.pyd', 'abc', 'abd', 'aXc', 'Abc',
  'bc', '#hash', '!bang', 'sp ace', 'trail', 'trail ', 'doc.md', 'README.md', 'test.spec.ts', 'test.unit.ts', '.env',
  '.env.local', 'é.txt', 'ée.txt', '日本.md', 'a[1].txt', ']a', '1st.txt', 'x.tx1', 'x~', 'deep1', 'm.egg', 'core',
  'a*b', 'q?', '-dash', 'Makefile', 'lib.so', '.DS_Store',
];
const DIR_NAMES = ['build', 'dist', 'foo', 'a', 'b', 'src', 'node_modules', 'test', 'nested', 'x1', 'Foo', 'docs', 'deep', 'lib', '__pycache__', 'pkg.egg-info'];
const PATTERNS = [
  '*.log', '!keep.log', 'build/', '/dist', 'dist/', '**/foo', 'foo/**', 'a/**/b', '*.py[co]', '*.py[!c]', '[a-c]*',
  '?bc', '\\#hash', '\\!bang', 'sp\\ ace', 'trail   ', 'trail\\ ', '*.[[:upper:]]*', '[[:digit:]]*', 'src/*.md',
  '**/node_modules/', 'doc*', '.env*', '!.env.local', 'x*/', 'a/*', '*/b', 'b/', '!b/', '!src/', '**/test/**', 'aXc',
  'abc', '!abc', 'A*', '*é*', '?.txt', '??.txt', '日本*', '[]a]*', '[!a-z]*', 'a[1].txt', 'a\\[1\\].txt', 'foo/bar',
  '/foo/', '**/a/*.txt', '*.tx?', 'Foo', '!*.md', '*.md', 'test.*.ts', '**/*.spec.ts', '*/*/deep*', '!**/', '*~',
  'node_modules', 'nested/**/x.log', '/*.md', 'src/**', '!src/**/', 'a\\*b', 'q\\?', '[[:punct:]]*', '-*', '*.so',
  '*.egg-info/', '__pycache__/', '.*', '!.gitignore', 'lib/', '!lib/', '/lib/*.py', 'core', '!core/', '*.[ch]',
  '[[:alpha:]][[:alpha:]]', 'Makefile', '!/nested', 'deep/*', '**/', '*', '!*/',
];

async function buildTree(seed: number, root: string): Promise<void> {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const fill = async (dir: string, depth: number) => {
    const names = new Set<string>();
    for (let i = 2 + Math.floor(next() * 6); i > 0; i--) names.add(pick(FILE_NAMES));
    const dirs = new Set<string>();
    if (depth < 3) for (let i = Math.floor(next() * 4); i > 0; i--) dirs.add(pick(DIR_NAMES));
    for (const name of names) if (!dirs.has(name)) await fsp.writeFile(path.join(dir, name), '');
    if (depth === 0 || next() < 0.4) {
      const lines = Array.from({ length: 2 + Math.floor(next() * 10) }, () => pick(PATTERNS));
      await fsp.writeFile(path.join(dir, '.gitignore'), `${lines.join('\n')}\n`);
    }
    for (const name of dirs) {
      await fsp.mkdir(path.join(dir, name));
      await fill(path.join(dir, name), depth + 1);
    }
  };
  await fill(root, 0);
}

/** What `git status` would call untracked and not ignored: the files the rules let through. */
function gitUntracked(root: string, home: string): string[] {
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(home, 'gitconfig') };
  execFileSync('git', ['init', '-q', root], { env });
  const out = execFileSync('git', ['-c', 'core.ignorecase=false', 'ls-files', '-z', '--others', '--exclude-standard'], { cwd: root, env, encoding: 'utf8' });
  return out.split('\0').filter(Boolean).sort();
}

async function ourUntracked(root: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of walkFiles(root)) files.push(entry.relative);
  return files.sort();
}

describe('gitignore rules: the same files as git', () => {
  let base: string;
  beforeAll(async () => {
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'gitignore-git-')));
    await fsp.writeFile(path.join(base, 'gitconfig'), '');
  });
  afterAll(async () => {
    await fsp.rm(base, { recursive: true, force: true });
  });

  it('lists what `git ls-files --others --exclude-standard` lists, over 60 random trees of random rules', async () => {
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const root = path.join(base, `tree-${seed}`);
      await fsp.mkdir(root);
      await buildTree(seed, root);
      const git = gitUntracked(root, base);
      await fsp.rm(path.join(root, '.git'), { recursive: true, force: true });
      expect({ seed, files: await ourUntracked(root) }).toEqual({ seed, files: git });
      compared += git.length;
    }
    // The trees are not all ignored away: there is something to compare.
    expect(compared).toBeGreaterThan(300);
  });
});

describe('gitignore rules: cost does not grow with the number of rules', () => {
  /** Microseconds a path, best of five rounds over `paths`. */
  function costPerPath(text: string, paths: string[]): number {
    const rules = rulesOf(text);
    let best = Infinity;
    for (let round = 0; round < 5; round++) {
      const started = process.hrtime.bigint();
      for (const rel of paths) rules.test(rel, false);
      best = Math.min(best, Number(process.hrtime.bigint() - started) / 1000 / paths.length);
    }
    return best;
  }

  it('names, extensions, prefixes and anchored paths: 20,000 rules cost about what 20 do', () => {
    const make = (n: number) =>
      Array.from({ length: n }, (_, i) => [`name-${i}`, `*.ext${i}`, `prefix${i}-*`, `/dir-${i}/sub/file`, `**/deep-${i}/`][i % 5]).join('\n');
    const paths = Array.from({ length: 4000 }, (_, i) => `pkg-${i % 40}/src/file-${i}.ts`);
    const few = costPerPath(make(20), paths);
    const many = costPerPath(make(20_000), paths);
    // Trying each rule in turn costs about 1,000 times more here (0.05 us a rule, 20,000 rules).
    expect(many / few).toBeLessThan(20);
  });

  it('a rule longer than the name it is tried on is passed over, not tried', () => {
    const paths = Array.from({ length: 50 }, (_, i) => `d${i}/${'a'.repeat(255)}`);
    const rules = (rule: string) => Array.from({ length: 2_000 }, (_, i) => `${rule}${i}\nx${i}/${rule}`).join('\n');
    // Each fails within one pass over the name...
    const cheap = costPerPath(rules('*a*a*b'), paths);
    // ...while each of these (a bracket first, so it is no `*suffix`), tried, fails only after
    // some 15,000 steps (the star retried at every place of the name, the 100 `a`s matched
    // again each time): about 90 times the cost (181 ms a path against 2 ms).
    const long = costPerPath(rules(`*[a]${'a'.repeat(99)}c${'a'.repeat(200)}`), paths);
    expect(long / cheap).toBeLessThan(10);
  });

  it('wildcard rules that start with a literal are only tried on names that start with it', () => {
    const make = (n: number) => Array.from({ length: n }, (_, i) => `z${i}*.[ch]`).join('\n');
    const paths = Array.from({ length: 4000 }, (_, i) => `pkg-${i % 40}/src/file-${i}.c`);
    const few = costPerPath(make(20), paths);
    const many = costPerPath(make(20_000), paths);
    expect(many / few).toBeLessThan(20);
  });
});
