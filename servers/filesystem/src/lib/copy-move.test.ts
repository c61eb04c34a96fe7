import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyDirectory, copyFile, isSameEntry, moveFile, renameTarget, sameNameFolded } from './copy-move.js';
import { pathFlavor } from './path-flavor.js';
import { FsError } from './errors.js';

let dir: string;

beforeEach(async () => {
  dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'copy-move-')));
  await fsp.writeFile(path.join(dir, 'src.txt'), 'source');
  await fsp.chmod(path.join(dir, 'src.txt'), 0o750);
  await fsp.writeFile(path.join(dir, 'existing.txt'), 'keep me');
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

const p = (name: string): string => path.join(dir, name);
const codeOf = async (promise: Promise<unknown>): Promise<string> => ((await promise.catch((e: unknown) => e)) as FsError).code;

describe('copyFile', () => {
  it('copies content and permission bits to a new file', async () => {
    await copyFile(p('src.txt'), p('copy.txt'));
    expect(await fsp.readFile(p('copy.txt'), 'utf8')).toBe('source');
    expect((await fsp.stat(p('copy.txt'))).mode & 0o777).toBe(0o750);
  });

  it('refuses to replace an existing file unless told to, leaving it intact', async () => {
    expect(await codeOf(copyFile(p('src.txt'), p('existing.txt')))).toBe('EXISTS');
    expect(await fsp.readFile(p('existing.txt'), 'utf8')).toBe('keep me');
    await copyFile(p('src.txt'), p('existing.txt'), { overwrite: true });
    expect(await fsp.readFile(p('existing.txt'), 'utf8')).toBe('source');
  });

  it('refuses directories, and a destination that is a directory', async () => {
    await fsp.mkdir(p('d'));
    expect(await codeOf(copyFile(p('d'), p('d2')))).toBe('NOT_A_FILE');
    expect(await codeOf(copyFile(p('src.txt'), p('d')))).toBe('EXISTS');
    expect(await fsp.readdir(p('d'))).toEqual([]);
  });

  it('copies a large file by streaming, byte for byte', async () => {
    const big = Buffer.alloc(8 * 1024 * 1024 + 3);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    await fsp.writeFile(p('big.bin'), big);
    await copyFile(p('big.bin'), p('big-copy.bin'));
    expect((await fsp.readFile(p('big-copy.bin'))).equals(big)).toBe(true);
  });
});

describe('moveFile', () => {
  it('renames a file', async () => {
    await moveFile(p('src.txt'), p('moved.txt'));
    expect(await fsp.readFile(p('moved.txt'), 'utf8')).toBe('source');
    await expect(fsp.access(p('src.txt'))).rejects.toThrow();
  });

  it('moves a directory with its contents', async () => {
    await fsp.mkdir(p('d'));
    await fsp.writeFile(p('d/f'), 'x');
    await moveFile(p('d'), p('e'));
    expect(await fsp.readFile(p('e/f'), 'utf8')).toBe('x');
  });

  it('refuses to replace an existing destination unless told to, changing nothing', async () => {
    expect(await codeOf(moveFile(p('src.txt'), p('existing.txt')))).toBe('EXISTS');
    expect(await fsp.readFile(p('existing.txt'), 'utf8')).toBe('keep me');
    expect(await fsp.readFile(p('src.txt'), 'utf8')).toBe('source');
    await moveFile(p('src.txt'), p('existing.txt'), { overwrite: true });
    expect(await fsp.readFile(p('existing.txt'), 'utf8')).toBe('source');
  });

  it('refuses to move a directory into itself', async () => {
    await fsp.mkdir(p('d'));
    expect(await codeOf(moveFile(p('d'), p('d/inner')))).toBe('INVALID_ARGUMENT');
    expect((await fsp.stat(p('d'))).isDirectory()).toBe(true);
  });

  it('reports a missing source as NOT_FOUND', async () => {
    expect(await codeOf(moveFile(p('missing'), p('x')))).toBe('NOT_FOUND');
  });
});

describe('copyDirectory: all or nothing', () => {
  it('removes a partial copy when an entry fails midway', async () => {
    await fsp.mkdir(p('tree'));
    for (const name of ['a.txt', 'b.txt', 'm.txt', 'z.txt']) await fsp.writeFile(path.join(dir, 'tree', name), name);
    // Every path is allowed but m.txt: its copy fails after a.txt and b.txt were copied.
    const confine = (real: string) => Promise.resolve(!real.endsWith('m.txt'));
    const error = await copyDirectory(p('tree'), p('copy'), { confine }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FsError);
    expect((error as FsError).message).toMatch(/Nothing was copied/);
    await expect(fsp.lstat(p('copy'))).rejects.toThrow(/ENOENT/);
  });

  it('copies files, directories and symlinks (as links)', async () => {
    await fsp.mkdir(p('tree/sub'), { recursive: true });
    await fsp.writeFile(p('tree/sub/f.txt'), 'f');
    await fsp.symlink('sub/f.txt', p('tree/link'));
    await copyDirectory(p('tree'), p('copy'));
    expect(await fsp.readFile(p('copy/sub/f.txt'), 'utf8')).toBe('f');
    expect(await fsp.readlink(p('copy/link'))).toBe('sub/f.txt');
  });
});

describe('case-only renames', () => {
  const win = pathFlavor('win32');
  const posix = pathFlavor('linux');

  it('a destination that resolved to the source itself gets the typed name back (Windows realpath gives the stored case)', () => {
    expect(renameTarget('C:\\d\\new.txt', 'C:\\d\\new.txt', 'C:/d/NEW.txt', win)).toBe('C:\\d\\NEW.txt');
    expect(renameTarget('C:\\d\\new.txt', 'C:\\d\\new.txt', 'd\\New.Txt', win)).toBe('C:\\d\\New.Txt');
    // The same name, or another name altogether: the resolved path as it was.
    expect(renameTarget('C:\\d\\new.txt', 'C:\\d\\new.txt', 'C:\\d\\new.txt', win)).toBe('C:\\d\\new.txt');
    expect(renameTarget('C:\\d\\new.txt', 'C:\\d\\new.txt', 'C:\\d\\other.txt', win)).toBe('C:\\d\\new.txt');
    expect(renameTarget('C:\\d\\new.txt', 'C:\\d\\other.txt', 'C:\\d\\other.txt', win)).toBe('C:\\d\\other.txt');
    expect(renameTarget('/d/caf\u00e9', '/d/caf\u00e9', '/d/CAFE\u0301', posix)).toBe('/d/CAFE\u0301');
  });

  it('names equal but for case and Unicode form fold together', () => {
    expect(sameNameFolded('new.txt', 'NEW.TXT')).toBe(true);
    expect(sameNameFolded('caf\u00e9', 'cafe\u0301')).toBe(true);
    expect(sameNameFolded('new.txt', 'new.txt2')).toBe(false);
  });

  it('on a case-sensitive volume two names differing in case are two entries, even hard links to one file', async () => {
    await fsp.link(p('src.txt'), p('SRC.txt'));
    expect(await isSameEntry(p('src.txt'), p('SRC.txt'))).toBe(false);
    // So moving one onto the other is a replacement, and asks for overwrite as before.
    expect(await codeOf(moveFile(p('src.txt'), p('SRC.txt')))).toBe('EXISTS');
    expect(await isSameEntry(p('src.txt'), p('SRC2.txt'))).toBe(false);
  });
});
