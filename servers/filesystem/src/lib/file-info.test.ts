import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from './errors.js';
import { getFileInfo } from './file-info.js';

let dir: string;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'file-info-'));
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('getFileInfo', () => {
  it('reports size, type, times and octal permissions like the official server', async () => {
    const file = path.join(dir, 'f.txt');
    await fsp.writeFile(file, '12345');
    await fsp.chmod(file, 0o640);
    const when = new Date('2020-01-02T03:04:05Z');
    await fsp.utimes(file, when, when);
    const info = await getFileInfo(file);
    expect(info).toMatchObject({ size: 5, isFile: true, isDirectory: false, permissions: '640' });
    expect(info.modified.toISOString()).toBe(when.toISOString());
    expect(info.created).toBeInstanceOf(Date);
  });

  it('pads permissions to three digits and reports directories', async () => {
    const sub = path.join(dir, 'd');
    await fsp.mkdir(sub);
    await fsp.chmod(sub, 0o700);
    expect(await getFileInfo(sub)).toMatchObject({ isDirectory: true, isFile: false, permissions: '700' });
    await fsp.chmod(sub, 0o007);
    expect((await getFileInfo(sub)).permissions).toBe('007');
  });

  it('reports a missing path as NOT_FOUND', async () => {
    const error = await getFileInfo(path.join(dir, 'missing')).catch((e: unknown) => e);
    expect((error as FsError).code).toBe('NOT_FOUND');
  });
});
