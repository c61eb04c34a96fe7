import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { identityOf, isAtomicTempName, writeFileAtomic } from './atomic-write.js';
import { FsError } from './errors.js';

let dir: string;

beforeEach(async () => {
  dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'atomic-write-')));
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates a new file and leaves no temporary file behind', async () => {
    const target = path.join(dir, 'new.txt');
    await writeFileAtomic(target, 'hello');
    expect(await fsp.readFile(target, 'utf8')).toBe('hello');
    expect(await fsp.readdir(dir)).toEqual(['new.txt']);
  });

  it('replaces existing content and keeps the permission bits of the replaced file', async () => {
    const target = path.join(dir, 'script.sh');
    await fsp.writeFile(target, 'old');
    await fsp.chmod(target, 0o751);
    await writeFileAtomic(target, Buffer.from('new'));
    expect(await fsp.readFile(target, 'utf8')).toBe('new');
    expect((await fsp.stat(target)).mode & 0o777).toBe(0o751);
  });

  it('never exposes a partly written file to a concurrent reader', async () => {
    const target = path.join(dir, 'big.bin');
    await fsp.writeFile(target, Buffer.alloc(1 << 20, 'a'));
    // Many chunks, so the write spans many turns of the event loop and the reader
    // gets to look at the file while it is being written.
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 64; i++) {
        yield Buffer.alloc(256 << 10, 'b');
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    let done = false;
    let reads = 0;
    const observed = new Set<string>();
    const reader = (async () => {
      while (!done) {
        const seen = await fsp.readFile(target);
        reads++;
        const uniform = seen.every((byte) => byte === seen[0]);
        observed.add(`${String.fromCharCode(seen[0] ?? 0x3f)}:${seen.length}:${uniform}`);
      }
    })();
    await writeFileAtomic(target, chunks());
    done = true;
    await reader;

    for (const state of observed) expect(['a:1048576:true', `b:${16 << 20}:true`]).toContain(state);
    expect(reads).toBeGreaterThan(3);
    expect((await fsp.stat(target)).size).toBe(16 << 20);
  });

  it('keeps the old content and removes its temporary file when the data fails mid-write', async () => {
    const target = path.join(dir, 'keep.txt');
    await fsp.writeFile(target, 'original');
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.alloc(4 << 20, 'x');
      throw new Error('source vanished');
    }
    await expect(writeFileAtomic(target, failing())).rejects.toThrow('source vanished');
    expect(await fsp.readFile(target, 'utf8')).toBe('original');
    expect(await fsp.readdir(dir)).toEqual(['keep.txt']);
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    const outside = path.join(dir, 'outside.txt');
    await fsp.writeFile(outside, 'untouched');
    const link = path.join(dir, 'link.txt');
    await fsp.symlink(outside, link);
    await writeFileAtomic(link, 'replaced');
    expect(await fsp.readFile(outside, 'utf8')).toBe('untouched');
    expect((await fsp.lstat(link)).isSymbolicLink()).toBe(false);
    expect(await fsp.readFile(link, 'utf8')).toBe('replaced');
  });

  it('refuses to replace a directory and leaves it and the folder as they were', async () => {
    await fsp.mkdir(path.join(dir, 'sub'));
    await fsp.writeFile(path.join(dir, 'sub', 'inner.txt'), 'kept');
    const error = await writeFileAtomic(path.join(dir, 'sub'), 'x').catch((e: unknown) => e);
    expect((error as FsError).code).toBe('NOT_A_FILE');
    expect(await fsp.readFile(path.join(dir, 'sub', 'inner.txt'), 'utf8')).toBe('kept');
    expect(await fsp.readdir(dir)).toEqual(['sub']);
  });

  it('with overwrite: false refuses an existing file and keeps it, but creates a missing one', async () => {
    const target = path.join(dir, 'once.txt');
    await fsp.writeFile(target, 'first');
    const error = await writeFileAtomic(target, 'second', { overwrite: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FsError);
    expect((error as FsError).code).toBe('EXISTS');
    expect(await fsp.readFile(target, 'utf8')).toBe('first');

    await writeFileAtomic(path.join(dir, 'fresh.txt'), 'made', { overwrite: false });
    expect(await fsp.readFile(path.join(dir, 'fresh.txt'), 'utf8')).toBe('made');
    expect((await fsp.readdir(dir)).sort()).toEqual(['fresh.txt', 'once.txt']);
  });

  it('fails with NOT_FOUND when the parent directory is missing, creating nothing', async () => {
    const error = await writeFileAtomic(path.join(dir, 'no', 'such', 'f.txt'), 'x').catch((e: unknown) => e);
    expect((error as FsError).code).toBe('NOT_FOUND');
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('recognises its own temporary file names', () => {
    expect(isAtomicTempName('.notes.txt.0123456789ab.tmp')).toBe(true);
    expect(isAtomicTempName('notes.tmp')).toBe(false);
  });
});

describe('writeFileAtomic: expectations and confinement', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'atomic-expect-')));
  });

  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('refuses (CONFLICT) to replace a file changed since it was read, keeping the change and no temp file', async () => {
    const target = path.join(dir, 'f.txt');
    await fsp.writeFile(target, 'read by the editor\n');
    const seen = identityOf(await fsp.stat(target, { bigint: true }));
    await fsp.writeFile(target, 'changed by someone else, and longer\n');
    const error = await writeFileAtomic(target, 'edited\n', { expect: seen }).catch((e: unknown) => e);
    expect((error as FsError).code).toBe('CONFLICT');
    expect(await fsp.readFile(target, 'utf8')).toBe('changed by someone else, and longer\n');
    expect(await fsp.readdir(dir)).toEqual(['f.txt']);
    await writeFileAtomic(target, 'edited\n', { expect: identityOf(await fsp.stat(target, { bigint: true })) });
    expect(await fsp.readFile(target, 'utf8')).toBe('edited\n');
  });

  it("with expect: 'absent', does not replace a file that appeared meanwhile", async () => {
    const target = path.join(dir, 'new.txt');
    await fsp.writeFile(target, 'first\n');
    const error = await writeFileAtomic(target, 'second\n', { expect: 'absent' }).catch((e: unknown) => e);
    expect((error as FsError).code).toBe('CONFLICT');
    expect(await fsp.readFile(target, 'utf8')).toBe('first\n');
    expect(await fsp.readdir(dir)).toEqual(['new.txt']);
  });

  it('refuses a directory that is no longer the real one (a symlink swapped in), writing nothing anywhere', async () => {
    await fsp.mkdir(path.join(dir, 'in'));
    await fsp.mkdir(path.join(dir, 'out'));
    const sub = path.join(dir, 'in', 'sub');
    await fsp.mkdir(sub);
    await fsp.rename(sub, `${sub}.real`);
    await fsp.symlink(path.join(dir, 'out'), sub);
    const confine = (real: string) => Promise.resolve(real.startsWith(path.join(dir, 'in') + path.sep));
    const error = await writeFileAtomic(path.join(sub, 'f.txt'), 'x', { confine }).catch((e: unknown) => e);
    expect((error as FsError).code).toBe('ACCESS_DENIED');
    expect(await fsp.readdir(path.join(dir, 'out'))).toEqual([]);
    expect(await fsp.readdir(`${sub}.real`)).toEqual([]);
  });
});
