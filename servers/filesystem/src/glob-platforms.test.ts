// Issue 24 items 3 and 4: globs follow the filesystem's case rule (asked of the
// filesystem per allowed directory, not guessed from the platform), and a backslash is a
// separator on Windows and, elsewhere, a glob that used one says why it matched nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isCaseInsensitiveAt } from './lib/case-sensitivity.js';
import { open, textOf, type Session } from './test-support.js';

let base: string;
let root: string;
const sessions: Session[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'mcp-globcase-')));
  root = path.join(base, 'Root');
  mkdirSync(path.join(root, 'Sub Dir'), { recursive: true });
  writeFileSync(path.join(root, 'Sub Dir', 'b.txt'), 'needle\n');
  writeFileSync(path.join(root, 'Sub Dir', 'c.md'), 'needle\n');
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await rm(base, { recursive: true, force: true });
});

async function serve(options: { platform?: NodeJS.Platform } = {}): Promise<Session> {
  const session = await open({ dirs: [root], ...options });
  sessions.push(session);
  return session;
}

describe('case: the filesystem is asked', () => {
  it('a case-sensitive directory matches globs case-sensitively', async () => {
    if (process.platform === 'linux') expect(isCaseInsensitiveAt(root)).toBe(false);
    const session = await serve();
    const out = await session.ok<{ matches: unknown[] }>('search_files', { path: '.', pattern: '**/B.TXT' });
    expect(out.matches).toEqual([]);
  });

  // Linux cannot mount a case-insensitive filesystem without privileges; a sibling link
  // spelled with the other case answers the probe the way one would (same inode).
  it.runIf(process.platform === 'linux')('where the flipped spelling names the same directory, globs ignore case', async () => {
    symlinkSync('Root', path.join(base, 'root'));
    expect(isCaseInsensitiveAt(root)).toBe(true);
    const session = await serve();
    const found = await session.ok<{ matches: { path: string }[] }>('search_files', { path: '.', pattern: '**/B.TXT' });
    expect(found.matches.map((m) => m.path)).toEqual([path.join(root, 'Sub Dir', 'b.txt')]);
    const grep = await session.ok<{ matches: { path: string }[] }>('grep_files', { path: '.', pattern: 'needle', include: ['*.MD'] });
    expect(grep.matches.map((m) => m.path)).toEqual([path.join(root, 'Sub Dir', 'c.md')]);
    const tree = await session.ok<{ tree: unknown }>('directory_tree', { path: '.', excludePatterns: ['SUB DIR'] });
    expect(tree.tree).toEqual([]);
  });
});

describe('backslashes in globs', () => {
  it('are separators on Windows (search pattern, include, exclude)', async () => {
    const session = await serve({ platform: 'win32' });
    const found = await session.ok<{ matches: { path: string }[] }>('search_files', { path: '.', pattern: 'Sub Dir\\*.txt' });
    expect(found.matches.map((m) => m.path)).toEqual([path.join(root, 'Sub Dir', 'b.txt')]);
    const grep = await session.ok<{ matches: { path: string }[] }>('grep_files', { path: '.', pattern: 'needle', include: ['Sub Dir\\*.md'] });
    expect(grep.matches.map((m) => m.path)).toEqual([path.join(root, 'Sub Dir', 'c.md')]);
    const rest = await session.ok<{ matches: { path: string }[] }>('search_files', { path: '.', pattern: '**/*', excludePatterns: ['Sub Dir\\**'] });
    expect(rest.matches).toEqual([]);
  });

  it('elsewhere, escape, and a glob that matched nothing because of one says so', async () => {
    const session = await serve({ platform: 'linux' });
    const result = await session.call('search_files', { path: '.', pattern: 'Sub Dir\\*.txt' });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { matches: unknown[] }).matches).toEqual([]);
    expect(textOf(result)).toMatch(/escapes the next character.*not a path separator.*"Sub Dir\/\*\.txt"/);
    const grep = await session.call('grep_files', { path: '.', pattern: 'needle', include: ['Sub Dir\\*.md'] });
    expect(textOf(grep)).toMatch(/not a path separator/);
    const tree = await session.call('directory_tree', { path: '.', excludePatterns: ['Sub Dir\\c.md'] });
    expect(textOf(tree)).toMatch(/not a path separator/);
    // A glob without a backslash gets no note.
    expect(textOf(await session.call('search_files', { path: '.', pattern: 'nothing*' }))).not.toMatch(/separator/);
  });
});
