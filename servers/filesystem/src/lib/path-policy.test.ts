import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from './errors.js';
import { createPathPolicy, driveNote, expandHome, isWithin, realpathAllowedDirs } from './path-policy.js';
import { pathFlavor } from './path-flavor.js';
import type { PathPolicy } from './path-policy.js';

let base: string;
let allowed: string;
let outsideDir: string;
let policy: PathPolicy;

beforeEach(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'path-policy-')));
  allowed = path.join(base, 'data');
  outsideDir = path.join(base, 'data-evil');
  await fsp.mkdir(allowed);
  await fsp.mkdir(outsideDir);
  await fsp.writeFile(path.join(allowed, 'a.txt'), 'inside');
  await fsp.writeFile(path.join(outsideDir, 'secret.txt'), 'secret');
  policy = createPathPolicy(async () => [allowed]);
});

afterEach(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FsError);
    return (error as FsError).code;
  }
  throw new Error('expected the call to be refused');
}

describe('isWithin', () => {
  it('compares whole segments, so a sibling with a common prefix is outside', () => {
    expect(isWithin('/data', '/data')).toBe(true);
    expect(isWithin('/data', '/data/x/y')).toBe(true);
    expect(isWithin('/data', '/data-evil/x')).toBe(false);
    expect(isWithin('/data', '/')).toBe(false);
    expect(isWithin('/data', '/data/..foo')).toBe(true);
    expect(isWithin('/', '/anything')).toBe(true);
  });
});

describe('resolution inside the allowed directories', () => {
  it('resolves an absolute path to its real path', async () => {
    expect(await policy.resolveReadable(path.join(allowed, 'a.txt'))).toBe(path.join(allowed, 'a.txt'));
  });

  it('resolves a relative path against the first allowed directory', async () => {
    expect(await policy.resolveReadable('a.txt')).toBe(path.join(allowed, 'a.txt'));
  });

  it('accepts file:// URIs such as the links the server hands out', async () => {
    expect(await policy.resolveReadable(pathToFileURL(path.join(allowed, 'a.txt')).href)).toBe(path.join(allowed, 'a.txt'));
  });

  it('follows a symlink that stays inside to its real target', async () => {
    await fsp.mkdir(path.join(allowed, 'sub'));
    await fsp.symlink(path.join(allowed, 'a.txt'), path.join(allowed, 'sub', 'link'));
    expect(await policy.resolveReadable(path.join(allowed, 'sub', 'link'))).toBe(path.join(allowed, 'a.txt'));
  });

  it('accepts an allowed directory reached through a symlinked spelling', async () => {
    await fsp.symlink(allowed, path.join(base, 'alias'));
    expect(await policy.resolveReadable(path.join(base, 'alias', 'a.txt'))).toBe(path.join(allowed, 'a.txt'));
  });

  it('reports a missing file as NOT_FOUND and names the nearest existing directory', async () => {
    const error = await policy.resolveReadable(path.join(allowed, 'nope', 'x.txt')).catch((e: unknown) => e);
    expect((error as FsError).code).toBe('NOT_FOUND');
    expect((error as FsError).message).toContain(allowed);
  });

  it('distinguishes files from directories', async () => {
    expect(await codeOf(policy.resolveDirectory(path.join(allowed, 'a.txt')))).toBe('NOT_A_DIRECTORY');
    expect(await codeOf(policy.resolveFile(allowed))).toBe('NOT_A_FILE');
    expect(await policy.resolveDirectory(allowed)).toBe(allowed);
    expect(await policy.resolveFile(path.join(allowed, 'a.txt'))).toBe(path.join(allowed, 'a.txt'));
  });

  it('lets a new file and missing parent directories be written', async () => {
    expect(await policy.resolveWritable(path.join(allowed, 'new', 'deep', 'f.txt'))).toBe(
      path.join(allowed, 'new', 'deep', 'f.txt'),
    );
  });

  it('refuses to create something inside a file', async () => {
    expect(await codeOf(policy.resolveWritable(path.join(allowed, 'a.txt', 'child')))).toBe('NOT_A_DIRECTORY');
  });

  it('reads the allowed directories on every call, so a change of roots applies at once', async () => {
    let dirs = [allowed];
    const dynamic = createPathPolicy(() => dirs);
    expect(await dynamic.resolveReadable(path.join(allowed, 'a.txt'))).toBe(path.join(allowed, 'a.txt'));
    dirs = [outsideDir];
    expect(await codeOf(dynamic.resolveReadable(path.join(allowed, 'a.txt')))).toBe('ACCESS_DENIED');
  });
});

describe('refusals', () => {
  it('refuses everything, with configuration advice, when no directory is allowed', async () => {
    const empty = createPathPolicy(async () => []);
    const error = await empty.resolveReadable('/tmp').catch((e: unknown) => e);
    expect((error as FsError).code).toBe('NO_ALLOWED_DIRECTORIES');
    expect((error as FsError).message).toMatch(/DIR arguments/);
    expect((error as FsError).message).toMatch(/roots/);
  });

  it('refuses a sibling directory that shares the prefix', async () => {
    expect(await codeOf(policy.resolveReadable(path.join(outsideDir, 'secret.txt')))).toBe('ACCESS_DENIED');
  });

  it('refuses .. traversal out of the allowed directory', async () => {
    expect(await codeOf(policy.resolveReadable(path.join(allowed, '..', 'data-evil', 'secret.txt')))).toBe('ACCESS_DENIED');
    expect(await codeOf(policy.resolveReadable('../data-evil/secret.txt'))).toBe('ACCESS_DENIED');
  });

  it('refuses a symlink to a file outside, for reading and for writing, and writing through it changes nothing', async () => {
    const link = path.join(allowed, 'escape');
    await fsp.symlink(path.join(outsideDir, 'secret.txt'), link);
    expect(await codeOf(policy.resolveReadable(link))).toBe('ACCESS_DENIED');
    expect(await codeOf(policy.resolveWritable(link))).toBe('ACCESS_DENIED');
    expect(await fsp.readFile(path.join(outsideDir, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('refuses a symlinked directory leading outside, and paths beneath it', async () => {
    await fsp.symlink(outsideDir, path.join(allowed, 'dirlink'));
    expect(await codeOf(policy.resolveDirectory(path.join(allowed, 'dirlink')))).toBe('ACCESS_DENIED');
    expect(await codeOf(policy.resolveReadable(path.join(allowed, 'dirlink', 'secret.txt')))).toBe('ACCESS_DENIED');
    expect(await codeOf(policy.resolveWritable(path.join(allowed, 'dirlink', 'planted.txt')))).toBe('ACCESS_DENIED');
    await expect(fsp.access(path.join(outsideDir, 'planted.txt'))).rejects.toThrow();
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    const link = path.join(allowed, 'dangling');
    await fsp.symlink(path.join(outsideDir, 'not-yet.txt'), link);
    expect(await codeOf(policy.resolveWritable(link))).toBe('ACCESS_DENIED');
    expect(await codeOf(policy.resolveReadable(link))).toBe('ACCESS_DENIED');
    await expect(fsp.access(path.join(outsideDir, 'not-yet.txt'))).rejects.toThrow();
  });

  it('refuses a dangling symlink into a missing directory outside', async () => {
    await fsp.symlink(path.join(outsideDir, 'missing-dir'), path.join(allowed, 'dl'));
    expect(await codeOf(policy.resolveWritable(path.join(allowed, 'dl', 'f.txt')))).toBe('ACCESS_DENIED');
  });

  it('resolves a dangling symlink that points inside to its future target', async () => {
    await fsp.symlink(path.join(allowed, 'future.txt'), path.join(allowed, 'to-future'));
    expect(await policy.resolveWritable(path.join(allowed, 'to-future'))).toBe(path.join(allowed, 'future.txt'));
  });

  it('refuses symlink loops as INVALID_PATH', async () => {
    await fsp.symlink(path.join(allowed, 'loop-b'), path.join(allowed, 'loop-a'));
    await fsp.symlink(path.join(allowed, 'loop-a'), path.join(allowed, 'loop-b'));
    expect(await codeOf(policy.resolveReadable(path.join(allowed, 'loop-a')))).toMatch(/INVALID_PATH|ACCESS_DENIED/);
  });

  it('does not reveal whether an outside path exists', async () => {
    const existing = await policy.resolveReadable(path.join(outsideDir, 'secret.txt')).catch((e: FsError) => e);
    const missing = await policy.resolveReadable(path.join(outsideDir, 'nothing.txt')).catch((e: FsError) => e);
    expect((existing as FsError).code).toBe('ACCESS_DENIED');
    expect((missing as FsError).code).toBe('ACCESS_DENIED');
    expect(await codeOf(policy.resolveWritable('/etc/passwd/child'))).toBe('ACCESS_DENIED');
  });

  it.each([
    ['NUL byte', 'a.txt\0.png'],
    ['encoded dots', '%2e%2e/data-evil/secret.txt'],
    ['encoded slash', '..%2fdata-evil%2Fsecret.txt'],
    ['encoded backslash', '..%5csecret.txt'],
  ])('refuses a path with %s as INVALID_PATH', async (_name, requested) => {
    expect(await codeOf(policy.resolveWritable(requested))).toBe('INVALID_PATH');
  });

  it('reads "" as the first allowed directory, as the official server does', async () => {
    expect(await policy.resolveReadable('')).toBe(allowed);
  });

  it('expands ~ and ~/ to the home directory, which must still be allowed, as the official server does', async () => {
    const home = process.env.HOME;
    try {
      process.env.HOME = path.dirname(allowed); // outside the allowed directory
      for (const requested of ['~', '~/notes.txt']) {
        expect(await codeOf(policy.resolveReadable(requested))).toBe('ACCESS_DENIED');
      }
      expect(await policy.resolveReadable('~/data/a.txt')).toBe(path.join(allowed, 'a.txt'));
      process.env.HOME = allowed; // the allowed directory itself
      expect(await policy.resolveReadable('~/a.txt')).toBe(path.join(allowed, 'a.txt'));
      expect(await policy.resolveReadable('~')).toBe(allowed);
    } finally {
      process.env.HOME = home;
    }
    // "~name" is not a home directory: an ordinary relative name.
    expect(await codeOf(policy.resolveReadable('~root/.ssh'))).toBe('NOT_FOUND');
  });

  it('finds a name sent in NFC that is stored in NFD, and the other way round', async () => {
    const nfd = 'cafe\u0301.txt';
    const nfc = 'caf\u00e9.txt';
    await fsp.writeFile(path.join(allowed, nfd), 'decomposed');
    await fsp.mkdir(path.join(allowed, 'r\u00e9sum\u00e9'));
    await fsp.writeFile(path.join(allowed, 'r\u00e9sum\u00e9', 'x.txt'), 'composed dir');
    try {
      expect(await policy.resolveReadable(path.join(allowed, nfc))).toBe(path.join(allowed, nfd));
      expect(await policy.resolveReadable(path.join(allowed, 're\u0301sume\u0301', 'x.txt'))).toBe(path.join(allowed, 'r\u00e9sum\u00e9', 'x.txt'));
      // A new file keeps the name as sent.
      expect(await policy.resolveWritable(path.join(allowed, 'nai\u0308ve.txt'))).toBe(path.join(allowed, 'nai\u0308ve.txt'));
    } finally {
      await fsp.rm(path.join(allowed, nfd));
      await fsp.rm(path.join(allowed, 'r\u00e9sum\u00e9'), { recursive: true });
    }
  });

  it.runIf(process.platform !== 'win32')('refuses Windows-style paths instead of creating odd file names', async () => {
    for (const requested of ['C:\\Users\\me\\a.txt', 'C:/Users/me', 'sub\\a.txt']) {
      const error = await policy.resolveWritable(requested).catch((e: FsError) => e);
      expect((error as FsError).code).toBe('INVALID_PATH');
      expect((error as FsError).message).toMatch(/Windows/);
    }
    expect(await fsp.readdir(allowed)).toEqual(['a.txt']);
  });
});

describe('realpathAllowedDirs', () => {
  it('returns real absolute directories and explains each dropped input', async () => {
    await fsp.symlink(allowed, path.join(base, 'alias'));
    const result = await realpathAllowedDirs([
      path.join(base, 'alias'),
      pathToFileURL(outsideDir).href,
      allowed,
      path.join(base, 'missing'),
      path.join(allowed, 'a.txt'),
    ]);
    expect(result.directories).toEqual([allowed, outsideDir]);
    expect(result.skipped).toEqual([
      { input: path.join(base, 'missing'), reason: 'does not exist' },
      { input: path.join(allowed, 'a.txt'), reason: 'not a directory' },
    ]);
  });
});

describe('Windows path rules (path.win32)', () => {
  const win = pathFlavor('win32');
  const linux = pathFlavor('linux');

  it('"~\\\\" is the home directory on Windows, as "~/" is; elsewhere "~\\\\" is not expanded', () => {
    expect(expandHome('~\\notes.txt', 'C:\\Users\\me', win)).toBe('C:\\Users\\me\\notes.txt');
    expect(expandHome('~/notes.txt', 'C:\\Users\\me', win)).toBe('C:\\Users\\me\\notes.txt');
    expect(expandHome('~', 'C:\\Users\\me', win)).toBe('C:\\Users\\me');
    expect(expandHome('~name\\x', 'C:\\Users\\me', win)).toBe('~name\\x');
    expect(expandHome('~\\notes.txt', '/home/me', linux)).toBe('~\\notes.txt');
    expect(expandHome('~/notes.txt', '/home/me', linux)).toBe('/home/me/notes.txt');
  });

  it('an error about a drive-less path says which drive it was taken on', () => {
    expect(driveNote('\\data\\x.txt', 'C:\\data\\x.txt', win)).toBe(' (a path without a drive letter, taken on the current drive C: as C:\\data\\x.txt)');
    expect(driveNote('/data/x.txt', 'C:\\data\\x.txt', win)).toContain('drive C:');
    for (const requested of ['D:\\data\\x.txt', '\\\\server\\share\\x', 'x.txt']) expect(driveNote(requested, 'D:\\data\\x.txt', win)).toBe('');
    expect(driveNote('/data/x.txt', '/data/x.txt', linux)).toBe('');
  });
});
