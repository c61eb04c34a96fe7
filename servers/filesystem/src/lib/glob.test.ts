import { describe, expect, it } from 'vitest';
import { minimatch } from 'minimatch';
import { compileGlob, escapeNote } from './glob.js';
import { FsError } from './errors.js';

// Globs people use every day (Jest, Storybook, Tailwind, ESLint, tsconfig, .gitignore
// habits). The official server accepts all of them (minimatch); the old guard refused the
// ones marked, for fear of backtracking.
const REAL_WORLD_GLOBS = [
  '**/?(*.)+(spec|test).[jt]s?(x)', // Jest's default testMatch (refused before)
  '**/__tests__/**/*.[jt]s?(x)', // Jest's other default
  '**/src/**/test/**', // (refused before: three "**")
  '*.*.*.*.log', // (refused before: four "*" in a segment)
  '**/*.ts',
  'src/**/*.{js,jsx,ts,tsx}',
  '**/node_modules/**',
  '**/*.d.ts',
  '**/*.min.js',
  '.github/**/*.y?(a)ml',
  '**/.*',
  'docs/**/*.md',
  '**/{test,tests,spec}/**',
  '**/*.test.*',
  '**/dist/**',
  '*.{png,jpg,jpeg,gif,svg}',
  '**/[A-Z]*.tsx',
  'packages/*/src/**',
  '**/*.stories.@(js|jsx|ts|tsx|mdx)',
  '!**/node_modules/**',
  '**/coverage/**',
  '**/*.+(ts|tsx)',
  '**/.{git,svn,hg}/**',
  '**/*.spec.[jt]s',
  '*.config.{js,cjs,mjs,ts}',
  'src/!(vendor)/**/*.js',
];

// Plus shapes that exercise the corners of the translation.
const CORNER_GLOBS = [
  'a/**', '**/x', '[!a]b', '[^a]b', '[[:alpha:]]*.txt', '{1..3}.txt', 'file{01..03}.md', '(a|b)', 'a+(b)', '*.!(js)',
  '*', '**', '?', 'a/*', '@(a+)+b', '\\*.txt', 'foo\\bar', 'a*b*c*d*e', '[a-c]x', 'x/**/y/**/z', '!(x)', 'a/**/b', '**/*',
];

const PATHS = [
  'a', 'b', 'ab', 'cb', 'a.test.js', 'src/a.test.tsx', 'test.js', 'a/b.spec.js', 'a/b/c.spec.jsx', 'x.spec.ts', 'src/test/a',
  'src/x/test/y/z', 'src/test', 'test/src/test/a', 'a.b.c.d.log', 'a.b.c.log', 'x.ts', 'd/x.ts', 'README.md', 'd/README.md',
  'src/a.js', 'src/a/b.ts', 'src/a.tsx', 'node_modules/x/y', 'a/node_modules/b', '__tests__/a/b.js', '__tests__/b.tsx', 'dist/a',
  'lib/a', 'a/x', 'a/b', 'a/b/c', 'x', 'q/x', 'Ab.txt', '1.txt', '4.txt', 'file02.md', 'file2.md', 'abb', 'a.ts', 'a.js',
  'a.b.js', 'src/vendor/a.js', 'src/lib/x/a.js', '.env', 'd/.git', '.git/config', 'x/.svn/y', '.github/w/ci.yml',
  '.github/ci.yaml', 'x.min.js', 'a/b.min.js', 'docs/a.md', 'docs/a/b.md', 'a/Button.tsx', 'button.tsx', '.hidden', 'build',
  'x/build', 'build/x', 'aaab', '*.txt', 'x.txt', 'foobar', 'foo\\bar', 'a.d.ts', 'tests/a', 'x/spec/y', 'aXbXcXdXe', 'bx',
  'dx', 'x/y/z', 'x/a/y/b/z', 'x/y/a/z', '(a|b)', 'a.md', 'logo.png', 'vite.config.ts', 'packages/p/src/i.ts', 'packages/p/lib/i.ts',
  'coverage/lcov.info', 'Button.stories.tsx', 'ui/Card.stories.mdx', 'x.spec.js', 'x.spec.jsx', 'a b/c d.txt', 'ünï/cödé.ts',
];

describe('compileGlob', () => {
  it.each([...REAL_WORLD_GLOBS, ...CORNER_GLOBS])('%s matches exactly what minimatch { dot: true } matches', (glob) => {
    const compiled = compileGlob(glob);
    const differences = PATHS.filter((path) => compiled.test(path) !== minimatch(path, glob, { dot: true }));
    expect(differences).toEqual([]);
  });

  it('matches the hostile shapes in linear time (a bound no backtracking engine meets)', () => {
    const long = 'a'.repeat(100_000);
    const started = performance.now();
    for (const glob of ['@(a+)+b', '*a*a*a*a*a*a*a*b', '+(a|aa)+b', '**/*a*a*a*b', '*(*(a))b']) {
      expect(compileGlob(glob).test(long)).toBe(false);
      expect(compileGlob(glob).test(`x/${long}`)).toBe(false);
    }
    // Backtracking takes minutes on these; RE2 takes milliseconds. Generous for a busy machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('takes plain names in a negated extglob and refuses globs there, saying what to do', () => {
    expect(compileGlob('d/!(node|dist)').test('d/dist')).toBe(false);
    expect(compileGlob('d/!(node|dist)').test('d/distx')).toBe(true);
    expect(compileGlob('src/!(node_modules|dist)/*.js').test('src/lib/a.js')).toBe(true);
    expect(compileGlob('src/!(node_modules|dist)/*.js').test('src/dist/a.js')).toBe(false);
    expect(() => compileGlob('src/!(*.js)', {}, 'The search pattern')).toThrow(/The search pattern "src\/!\(\*\.js\)" is refused: .*plain names/);
    try {
      compileGlob('src/!(*.js)');
    } catch (error) {
      expect((error as FsError).code).toBe('INVALID_PATTERN');
    }
  });

  it('refuses braces that expand without bound', () => {
    expect(() => compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toThrow(/expand to more than 1000/);
  });

  it('matches case-insensitively when asked (a case-insensitive filesystem)', () => {
    expect(compileGlob('**/B.TXT').test('sub/b.txt')).toBe(false);
    expect(compileGlob('**/B.TXT', { caseInsensitive: true }).test('sub/b.txt')).toBe(true);
    expect(compileGlob('[A-C]*.md', { caseInsensitive: true }).test('beta.MD')).toBe(true);
    expect(compileGlob('d/!(readme)', { caseInsensitive: true }).test('d/README')).toBe(false);
  });

  it('reads a backslash as a separator on Windows and as an escape elsewhere', () => {
    expect(compileGlob('Sub Dir\\*.txt', { platform: 'win32' }).test('Sub Dir/a.txt')).toBe(true);
    expect(compileGlob('Sub Dir\\*.txt', { platform: 'linux' }).test('Sub Dir/a.txt')).toBe(false);
    expect(compileGlob('Sub Dir\\*.txt', { platform: 'linux' }).test('Sub Dir*.txt')).toBe(true);
    expect(escapeNote('Sub Dir\\*.txt', 'win32')).toBeUndefined();
    expect(escapeNote('*.txt', 'linux')).toBeUndefined();
    expect(escapeNote('Sub Dir\\*.txt', 'linux')).toMatch(/not a path separator.*"Sub Dir\/\*\.txt"/);
  });
});
