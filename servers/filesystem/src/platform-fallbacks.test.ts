// What macOS and Windows take that Linux does not, run here. MCP_FS_NO_PROC=1 (read in
// lib/proc-fd.ts) makes the server check paths and inodes instead of asking /proc, as it
// must where there is no /proc; CI runs every filesystem suite a second time with it
// (the "no /proc" vitest project). The tests below run in both modes.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { realpathAllowedDirs } from './lib/path-policy.js';
import { realPathOfHandle } from './lib/open-checked.js';
import { useProcFd } from './lib/proc-fd.js';
import { open, snapshot, type Session } from './test-support.js';

let tree: TempTree;
let session: Session | undefined;

beforeAll(async () => {
  // "private/tmp" with "tmp" a symlink to it, as macOS has /tmp -> /private/tmp.
  tree = await makeTempTree({
    private: { tmp: { work: { 'a.txt': 'a\n', sub: { 'b.txt': 'b\n' } } } },
    tmp: { symlink: 'private/tmp' },
    outside: { 'secret.txt': 'secret\n' },
  });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

afterAll(() => tree?.cleanup());

describe('the MCP_FS_NO_PROC switch', () => {
  it('is read on every call', () => {
    const before = process.env.MCP_FS_NO_PROC;
    try {
      process.env.MCP_FS_NO_PROC = '1';
      expect(useProcFd()).toBe(false);
      process.env.MCP_FS_NO_PROC = '0';
      expect(useProcFd()).toBe(true);
    } finally {
      if (before === undefined) delete process.env.MCP_FS_NO_PROC;
      else process.env.MCP_FS_NO_PROC = before;
    }
  });

  it.runIf(process.platform === 'linux')('takes the path-and-inode branch: a file renamed after it was opened is not followed', async () => {
    const file = tree.path('private', 'tmp', 'work', 'moving.txt');
    await fsp.writeFile(file, 'x');
    const handle = await fsp.open(file, 'r');
    try {
      await fsp.rename(file, `${file}.moved`);
      // /proc knows where the descriptor went; the fallback only knows the path it opened.
      expect(await realPathOfHandle(handle, file)).toBe(useProcFd() ? `${file}.moved` : undefined);
    } finally {
      await handle.close();
      await fsp.rm(`${file}.moved`, { force: true });
    }
  });
});

describe('allowed directory given through a symlink (macOS /tmp -> /private/tmp)', () => {
  it('is allowed as its real path, and both spellings of a path inside work for reads, writes and moves', async () => {
    const { directories } = await realpathAllowedDirs([tree.path('tmp', 'work')]);
    const real = tree.path('private', 'tmp', 'work');
    expect(directories).toEqual([real]);
    session = await open({ dirs: directories });
    const viaLink = (...parts: string[]) => path.join(tree.path('tmp', 'work'), ...parts);
    expect((await session.ok('read_text_file', { path: viaLink('a.txt') })).content).toBe('a\n');
    expect((await session.ok('read_text_file', { path: path.join(real, 'sub', 'b.txt') })).content).toBe('b\n');
    await session.ok('write_file', { path: viaLink('new.txt'), content: 'new\n' });
    await session.ok('edit_file', { path: viaLink('new.txt'), edits: [{ oldText: 'new', newText: 'edited' }] });
    await session.ok('move_file', { source: viaLink('new.txt'), destination: viaLink('sub', 'moved.txt') });
    await session.ok('copy_file', { source: viaLink('sub', 'moved.txt'), destination: viaLink('copied.txt') });
    expect(await fsp.readFile(path.join(real, 'copied.txt'), 'utf8')).toBe('edited\n');
    const listed = await session.ok<{ entries: { name: string }[] }>('list_directory', { path: viaLink() });
    expect(JSON.stringify(listed)).toContain('copied.txt');
    const found = await session.ok('grep_files', { path: viaLink(), pattern: 'edited' });
    expect(JSON.stringify(found)).toContain('moved.txt');
    await fsp.rm(path.join(real, 'copied.txt'));
    await fsp.rm(path.join(real, 'sub', 'moved.txt'));
  });

  it('still refuses a link inside it that leads out, and writes nothing', async () => {
    const real = tree.path('private', 'tmp', 'work');
    await fsp.symlink(tree.path('outside'), path.join(real, 'out'));
    try {
      const before = await snapshot(tree.path('outside'));
      session = await open({ dirs: (await realpathAllowedDirs([tree.path('tmp', 'work')])).directories });
      const via = path.join(tree.path('tmp', 'work'), 'out');
      expect(await session.refused('read_text_file', { path: path.join(via, 'secret.txt') })).toMatch(/outside the allowed directories/);
      expect(await session.refused('write_file', { path: path.join(via, 'marker.txt'), content: 'x' })).toMatch(/outside the allowed directories/);
      expect(await session.refused('grep_files', { path: via, pattern: 'secret' })).toMatch(/outside the allowed directories/);
      expect(await snapshot(tree.path('outside'))).toEqual(before);
    } finally {
      await fsp.rm(path.join(real, 'out'));
    }
  });
});

describe('names stored decomposed (NFD), as macOS stores them', () => {
  it('are read, edited and moved by their composed (NFC) spelling, and the stored name is kept', async () => {
    const real = tree.path('private', 'tmp', 'work');
    const stored = path.join(real, 'cafe\u0301.txt'); // NFD
    await fsp.writeFile(stored, 'cr\u00e8me\n');
    try {
      session = await open({ dirs: (await realpathAllowedDirs([tree.path('tmp', 'work')])).directories });
      const composed = path.join(tree.path('tmp', 'work'), 'caf\u00e9.txt'); // NFC
      expect((await session.ok('read_text_file', { path: composed })).content).toBe('cr\u00e8me\n');
      await session.ok('edit_file', { path: composed, edits: [{ oldText: 'cr\u00e8me', newText: 'br\u00fbl\u00e9e' }] });
      expect(await fsp.readFile(stored, 'utf8')).toBe('br\u00fbl\u00e9e\n');
      expect((await fsp.readdir(real)).filter((name) => name.startsWith('caf'))).toEqual(['cafe\u0301.txt']);
    } finally {
      await fsp.rm(stored, { force: true });
    }
  });
});
