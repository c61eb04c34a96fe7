// The writing tools through a real client: atomic writes, confirmation of destructive
// calls through elicitation, edit_file's dry run, tolerant matching and all-or-nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { makeTempTree, type ClientOptions, type TempTree } from '@mcp-reference/test-harness';
import { linksOf, open, refusal, snapshot, textOf, type Session } from './test-support.js';

let tree: TempTree;
let session: Session | undefined;

const accept: ClientOptions['elicit'] = () => ({ action: 'accept', content: { confirm: true } });
const decline: ClientOptions['elicit'] = () => ({ action: 'decline' });

beforeEach(async () => {
  tree = await makeTempTree({
    'long.txt': 'a long original content that is longer than the replacement\n'.repeat(20),
    'code.ts': 'function greet() {\n    const name = "world";\n    return `hello ${name}`;\n}\n',
    'a.txt': 'A\n',
    'b.txt': 'B\n',
    dir: { 'inner.txt': 'inner\n', nested: { 'deep.txt': 'deep\n' } },
  });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  await tree.cleanup();
});

const read = (...parts: string[]) => readFile(tree.path(...parts), 'utf8');

describe('write_file', () => {
  it('creates a file and its missing parents, links to it, and leaves no temp file', async () => {
    session = await open({ dirs: [tree.dir] });
    const target = tree.path('x', 'y', 'z', 'new.txt');
    const result = await session.call('write_file', { path: target, content: 'héllo\n' });
    expect(result.structuredContent).toEqual({ path: target, bytes: 7, created: true });
    expect(await read('x', 'y', 'z', 'new.txt')).toBe('héllo\n');
    expect(await readdir(tree.path('x', 'y', 'z'))).toEqual(['new.txt']);
    const [link] = linksOf(result);
    const { contents } = await session.client.readResource({ uri: link });
    expect(contents[0]).toMatchObject({ text: 'héllo\n' });
  });

  it('replaces the whole content of an existing file atomically, leaving no temp file', async () => {
    session = await open({ dirs: [tree.dir] });
    const before = await readdir(tree.dir);
    const out = await session.ok('write_file', { path: tree.path('long.txt'), content: 'short\n' });
    expect(out).toMatchObject({ created: false, bytes: 6 });
    expect(await read('long.txt')).toBe('short\n');
    expect((await readdir(tree.dir)).sort()).toEqual(before.sort());
  });

  it('keeps an existing file when the user declines to replace it', async () => {
    session = await open({ dirs: [tree.dir] }, { elicit: decline });
    const before = await snapshot(tree.dir);
    const message = await refusal(session, 'write_file', { path: tree.path('a.txt'), content: 'overwritten' });
    expect(message).toMatch(/declined.*Nothing was written/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('replaces an existing file when the user accepts', async () => {
    const asked: string[] = [];
    session = await open({ dirs: [tree.dir] }, { elicit: (message) => (asked.push(message), { action: 'accept', content: { confirm: true } }) });
    await session.ok('write_file', { path: tree.path('a.txt'), content: 'new A\n' });
    expect(await read('a.txt')).toBe('new A\n');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(tree.path('a.txt'));
  });

  it('on 2026-07-28, a file changed between the rounds is asked about again, even when its size and time to the millisecond read the same', async () => {
    const target = tree.path('a.txt');
    const asked: string[] = [];
    session = await open(
      { dirs: [tree.dir] },
      {
        era: 'modern',
        elicit: async (message) => {
          asked.push(message);
          if (asked.length === 1) {
            // While the person reads the question, someone else rewrites the file: same size, and
            // the same modification time to the millisecond (the question's words), other bytes.
            const { mtimeNs, atime } = await stat(target, { bigint: true });
            await writeFile(target, 'Z\n');
            // The same millisecond, another part of it than before.
            const subMs = Number(mtimeNs % 1_000_000n) < 500_000 ? 0.0007 : 0.0002;
            await utimes(target, atime, Number(mtimeNs / 1_000_000n) / 1000 + subMs);
          }
          return { action: 'accept', content: { confirm: true } };
        },
      },
    );
    await session.ok('write_file', { path: target, content: 'new A\n' });
    expect(asked).toHaveLength(2);
    expect(asked[1]).toBe(asked[0]);
    expect(await read('a.txt')).toBe('new A\n');
  });

  it('does not ask before creating a new file', async () => {
    let asked = 0;
    session = await open({ dirs: [tree.dir] }, { elicit: () => (asked++, { action: 'decline' }) });
    await session.ok('write_file', { path: tree.path('fresh.txt'), content: 'fresh' });
    expect(asked).toBe(0);
    expect(await read('fresh.txt')).toBe('fresh');
  });

  it('refuses to write over a directory', async () => {
    session = await open({ dirs: [tree.dir] });
    const before = await snapshot(tree.dir);
    expect(await refusal(session, 'write_file', { path: tree.path('dir'), content: 'x' })).toMatch(/is a directory/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });
});

describe('edit_file', () => {
  it('dryRun returns a diff and changes nothing on disk', async () => {
    session = await open({ dirs: [tree.dir] });
    const before = await snapshot(tree.dir);
    const { mtimeMs } = await stat(tree.path('a.txt'));
    const out = await session.ok<{ diff: string; dryRun: boolean }>('edit_file', {
      path: tree.path('a.txt'),
      edits: [{ oldText: 'A', newText: 'Z' }],
      dryRun: true,
    });
    expect(out.dryRun).toBe(true);
    expect(out.diff).toMatch(/^-A$/m);
    expect(out.diff).toMatch(/^\+Z$/m);
    expect(out.diff).toMatch(/^@@ /m);
    expect(await snapshot(tree.dir)).toEqual(before);
    expect((await stat(tree.path('a.txt'))).mtimeMs).toBe(mtimeMs);
  });

  it('applies edits and returns a git-style diff', async () => {
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('edit_file', {
      path: tree.path('code.ts'),
      edits: [
        { oldText: 'greet()', newText: 'greet(name: string)' },
        { oldText: '    const name = "world";\n', newText: '' },
      ],
    });
    expect(result.isError).toBeFalsy();
    expect(await read('code.ts')).toBe('function greet(name: string) {\n    return `hello ${name}`;\n}\n');
    expect((result.structuredContent as { diff: string }).diff).toMatch(/^-    const name = "world";$/m);
    expect(textOf(result)).toContain('```diff');
    expect(linksOf(result)).toHaveLength(1);
  });

  it('tolerates indentation and whitespace differences in oldText', async () => {
    session = await open({ dirs: [tree.dir] });
    const out = await session.ok<{ edits: { match: string; line: number }[] }>('edit_file', {
      path: tree.path('code.ts'),
      edits: [{ oldText: 'const name = "world";\nreturn `hello ${name}`;', newText: 'const name = "you";\nreturn `hi ${name}`;' }],
    });
    expect(out.edits).toEqual([{ line: 2, match: 'whitespace' }]);
    expect(await read('code.ts')).toBe('function greet() {\n    const name = "you";\n    return `hi ${name}`;\n}\n');
  });

  it('names the edit that did not match, says why, and writes nothing even when an earlier edit matched', async () => {
    session = await open({ dirs: [tree.dir] });
    const before = await snapshot(tree.dir);
    const message = await refusal(session, 'edit_file', {
      path: tree.path('code.ts'),
      edits: [
        { oldText: 'function greet()', newText: 'function hello()' },
        { oldText: 'return `goodbye ${name}`;', newText: 'return 1;' },
      ],
    });
    expect(message).toMatch(/edits\[1\]/);
    expect(message).toContain('goodbye');
    expect(message).toMatch(/matches nothing: .+/);
    expect(message).not.toMatch(/edits\[0\]/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('refuses an oldText that matches several places', async () => {
    session = await open({ dirs: [tree.dir] });
    const before = await snapshot(tree.dir);
    const message = await refusal(session, 'edit_file', { path: tree.path('long.txt'), edits: [{ oldText: 'a long', newText: 'x' }] });
    expect(message).toMatch(/edits\[0\].*matches 20 places/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });
});

describe('move_file', () => {
  it('moves to a new name and links to the result', async () => {
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('move_file', { source: tree.path('a.txt'), destination: tree.path('dir', 'moved.txt') });
    expect(result.structuredContent).toMatchObject({ destination: tree.path('dir', 'moved.txt'), replaced: false });
    expect(await read('dir', 'moved.txt')).toBe('A\n');
    await expect(stat(tree.path('a.txt'))).rejects.toThrow();
    expect(linksOf(result)).toEqual([`file://${tree.path('dir', 'moved.txt')}`]);
  });

  it('refuses to move onto an existing file when the client cannot ask, leaving both files', async () => {
    session = await open({ dirs: [tree.dir] });
    const before = await snapshot(tree.dir);
    const message = await refusal(session, 'move_file', { source: tree.path('a.txt'), destination: tree.path('b.txt') });
    expect(message).toMatch(/already exists/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('refuses when the user declines', async () => {
    session = await open({ dirs: [tree.dir] }, { elicit: decline });
    const before = await snapshot(tree.dir);
    await refusal(session, 'move_file', { source: tree.path('a.txt'), destination: tree.path('b.txt') });
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('replaces the destination when the user accepts', async () => {
    session = await open({ dirs: [tree.dir] }, { elicit: accept });
    const out = await session.ok('move_file', { source: tree.path('a.txt'), destination: tree.path('b.txt') });
    expect(out).toMatchObject({ replaced: true });
    expect(await read('b.txt')).toBe('A\n');
    await expect(stat(tree.path('a.txt'))).rejects.toThrow();
  });

  it('moves a directory with its contents', async () => {
    session = await open({ dirs: [tree.dir] });
    await session.ok('move_file', { source: tree.path('dir'), destination: tree.path('renamed') });
    expect(await read('renamed', 'nested', 'deep.txt')).toBe('deep\n');
  });
});

describe('copy_file', () => {
  it('copies a file and links to the copy', async () => {
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('copy_file', { source: tree.path('code.ts'), destination: tree.path('dir', 'copy.ts') });
    expect(result.structuredContent).toMatchObject({ type: 'file', replaced: false });
    expect(await read('dir', 'copy.ts')).toBe(await read('code.ts'));
    const { contents } = await session.client.readResource({ uri: linksOf(result)[0] });
    expect(contents[0]).toMatchObject({ text: await read('code.ts') });
    expect((await readdir(tree.path('dir'))).sort()).toEqual(['copy.ts', 'inner.txt', 'nested']);
  });

  it('refuses an existing destination when the client cannot ask', async () => {
    session = await open({ dirs: [tree.dir] });
    const before = await snapshot(tree.dir);
    const message = await refusal(session, 'copy_file', { source: tree.path('a.txt'), destination: tree.path('b.txt') });
    expect(message).toMatch(/already exists/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('replaces an existing file when the user accepts', async () => {
    session = await open({ dirs: [tree.dir] }, { elicit: accept });
    await session.ok('copy_file', { source: tree.path('a.txt'), destination: tree.path('b.txt') });
    expect(await read('b.txt')).toBe('A\n');
    expect(await read('a.txt')).toBe('A\n');
  });

  it('copies a directory recursively', async () => {
    session = await open({ dirs: [tree.dir] });
    const out = await session.ok('copy_file', { source: tree.path('dir'), destination: tree.path('dir-copy') });
    expect(out).toMatchObject({ type: 'directory' });
    expect(await read('dir-copy', 'nested', 'deep.txt')).toBe('deep\n');
  });
});

// Every tool accepts a file:// URI (the form of the resource_links tools return) as a
// path; move_file and copy_file must take the parent of the path, not of the URI.
describe('file:// URIs as move/copy sources', () => {
  it.each(['move_file', 'copy_file'])('%s accepts a file:// URI as source', async (tool) => {
    session = await open({ dirs: [tree.dir] });
    await session.ok(tool, { source: `file://${tree.path('a.txt')}`, destination: tree.path('a2.txt') });
    expect(await read('a2.txt')).toBe('A\n');
  });
});

describe('create_directory', () => {
  it('creates nested directories and is idempotent', async () => {
    session = await open({ dirs: [tree.dir] });
    expect(await session.ok('create_directory', { path: tree.path('p', 'q', 'r') })).toEqual({ path: tree.path('p', 'q', 'r'), created: true });
    expect((await stat(tree.path('p', 'q', 'r'))).isDirectory()).toBe(true);
    expect(await session.ok('create_directory', { path: tree.path('p', 'q', 'r') })).toMatchObject({ created: false });
  });

  it('refuses a path that is an existing file', async () => {
    session = await open({ dirs: [tree.dir] });
    expect(await refusal(session, 'create_directory', { path: tree.path('a.txt') })).toMatch(/not a directory/);
  });
});
