import { execFileSync } from 'node:child_process';
import { promises as fsp, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';
import { FsError } from './errors.js';
import { transientRenameCodes } from './rename-retry.js';

// A file that cannot be replaced for a while, as a file held open on Windows is: the
// immutable attribute (chattr +i) makes rename(2) over it fail with EPERM until it is
// lifted. It needs root (CAP_LINUX_IMMUTABLE) and a filesystem that has the attribute.
function chattr(flag: '+i' | '-i', file: string): boolean {
  try {
    execFileSync('chattr', [flag, file], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let dir: string;
let held: string;

beforeEach(async () => {
  dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'rename-retry-')));
  held = path.join(dir, 'held.txt');
  await fsp.writeFile(held, 'original');
});

afterEach(async () => {
  chattr('-i', held);
  await fsp.rm(dir, { recursive: true, force: true });
});

const canHold = (() => {
  const probe = path.join(os.tmpdir(), `rename-retry-probe-${process.pid}`);
  writeFileSync(probe, '');
  const ok = chattr('+i', probe);
  chattr('-i', probe);
  rmSync(probe, { force: true });
  return ok;
})();

describe('renames wait out a file held by another program', () => {
  it('retries EPERM, EBUSY and EACCES on Windows only', () => {
    expect(transientRenameCodes('win32')).toEqual(['EPERM', 'EBUSY', 'EACCES']);
    expect(transientRenameCodes('linux')).toEqual([]);
    expect(transientRenameCodes('darwin')).toEqual([]);
  });

  it.skipIf(!canHold)('a write goes through once the other program lets go (chattr +i lifted on the first retry)', async () => {
    expect(chattr('+i', held)).toBe(true);
    const retries: string[] = [];
    await writeFileAtomic(held, 'new', {
      renameRetry: {
        transient: ['EPERM'],
        delays: [1, 1, 1],
        onRetry: (attempt, code) => {
          retries.push(`${attempt}:${code}`);
          chattr('-i', held);
        },
      },
    });
    expect(retries).toEqual(['1:EPERM']);
    expect(await fsp.readFile(held, 'utf8')).toBe('new');
    expect(await fsp.readdir(dir)).toEqual(['held.txt']);
  });

  it.skipIf(!canHold)('a file still held after the retries: "in use by another program", file intact, no temporary file left', async () => {
    expect(chattr('+i', held)).toBe(true);
    let retries = 0;
    const error = await writeFileAtomic(held, 'new', {
      renameRetry: { transient: ['EPERM'], delays: [1, 1, 1], onRetry: () => void retries++ },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FsError);
    expect((error as FsError).code).toBe('ACCESS_DENIED');
    expect((error as FsError).message).toContain('in use by another program');
    expect((error as FsError).message).not.toContain('(permissions)');
    expect(retries).toBe(3);
    expect(await fsp.readFile(held, 'utf8')).toBe('original');
    expect(await fsp.readdir(dir)).toEqual(['held.txt']);
  });

  it.skipIf(!canHold)('without the transient codes (Linux) the same failure is not retried and is a permissions error', async () => {
    expect(chattr('+i', held)).toBe(true);
    let retries = 0;
    const error = await writeFileAtomic(held, 'new', { renameRetry: { transient: [], onRetry: () => void retries++ } }).catch((e: unknown) => e);
    expect((error as FsError).message).toContain('(permissions)');
    expect(retries).toBe(0);
    expect(await fsp.readdir(dir)).toEqual(['held.txt']);
  });
});
