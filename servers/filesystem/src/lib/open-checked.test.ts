import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertDirectoryInside, assertOpenedInside, openRegularDescriptor, openRegularFile, realPathOfHandle } from './open-checked.js';
import { FsError } from './errors.js';

let dir: string;
const inside = (real: string) => Promise.resolve(real === path.join(dir, 'in') || real.startsWith(path.join(dir, 'in') + path.sep));

beforeEach(async () => {
  dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'open-checked-')));
  await fsp.mkdir(path.join(dir, 'in'));
  await fsp.mkdir(path.join(dir, 'out'));
  await fsp.writeFile(path.join(dir, 'in', 'file.txt'), 'inside\n');
  await fsp.writeFile(path.join(dir, 'out', 'file.txt'), 'outside\n');
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

const failure = async (promise: Promise<unknown>): Promise<FsError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FsError);
  return error as FsError;
};

// The FileHandle opener (grep, copies) and the Descriptor one behind path-policy's openFile refuse alike.
const openers = [
  ['openRegularFile', (file: string) => openRegularFile(file)],
  ['openRegularDescriptor', async (file: string) => openRegularDescriptor(file)],
] as const;

describe.each(openers)('%s', (_name, openRegular) => {
  it('opens a regular file', async () => {
    const handle = await openRegular(path.join(dir, 'in', 'file.txt'));
    try {
      expect((await handle.readFile()).toString()).toBe('inside\n');
      expect(await realPathOfHandle(handle, path.join(dir, 'in', 'file.txt'))).toBe(path.join(dir, 'in', 'file.txt'));
    } finally {
      await handle.close();
    }
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(dir, 'in', 'pipe')]);
    const error = await failure(openRegular(path.join(dir, 'in', 'pipe')));
    expect(error.code).toBe('NOT_A_FILE');
    expect(error.message).toMatch(/not a regular file/);
  });

  it('refuses a directory and a final symlink', async () => {
    expect((await failure(openRegular(path.join(dir, 'in')))).code).toBe('NOT_A_FILE');
    await fsp.symlink(path.join(dir, 'in', 'file.txt'), path.join(dir, 'in', 'link'));
    expect((await failure(openRegular(path.join(dir, 'in', 'link')))).code).toBe('ACCESS_DENIED');
  });
});

describe('assertOpenedInside / assertDirectoryInside', () => {
  it('refuses what was opened through a directory swapped for a symlink to outside', async () => {
    await fsp.rename(path.join(dir, 'in'), path.join(dir, 'in.real'));
    await fsp.symlink(path.join(dir, 'out'), path.join(dir, 'in'));
    // The path a check approved earlier now leads outside.
    const checked = path.join(dir, 'in', 'file.txt');
    const handle = await openRegularFile(checked);
    try {
      const error = await failure(assertOpenedInside(handle, checked, inside));
      expect(error.code).toBe('ACCESS_DENIED');
      expect(error.message).not.toContain('outside\n');
    } finally {
      await handle.close();
    }
    expect((await failure(assertDirectoryInside(path.join(dir, 'in'), inside))).code).toBe('ACCESS_DENIED');
  });

  it('accepts the real thing', async () => {
    const checked = path.join(dir, 'in', 'file.txt');
    const handle = await openRegularFile(checked);
    try {
      expect(await assertOpenedInside(handle, checked, inside)).toBe(checked);
    } finally {
      await handle.close();
    }
    await assertDirectoryInside(path.join(dir, 'in'), inside);
  });
});
