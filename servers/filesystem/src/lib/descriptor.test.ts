import { closeSync, fstatSync, openSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Descriptor } from './descriptor.js';

let dir: string;
let file: string;
const content = Buffer.from('0123456789'.repeat(100_000)); // 1 MB

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'descriptor-'));
  file = path.join(dir, 'data.bin');
  await fsp.writeFile(file, content);
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

const isOpen = (fd: number) => {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
};

describe('Descriptor', () => {
  it('reads at a position, stats (plain and bigint) and reads the whole file like a FileHandle', async () => {
    const d = new Descriptor(openSync(file, 'r'));
    try {
      const buffer = Buffer.alloc(5);
      expect((await d.read(buffer, 0, 5, 13)).bytesRead).toBe(5);
      expect(buffer.toString()).toBe('34567');
      expect((await d.read(buffer, 0, 5, content.length - 2)).bytesRead).toBe(2);
      expect((await d.stat()).size).toBe(content.length);
      expect((await d.stat({ bigint: true })).size).toBe(BigInt(content.length));
      expect((await d.readFile()).equals(content)).toBe(true);
    } finally {
      await d.close();
    }
    expect(isOpen(d.fd)).toBe(false);
  });

  it('closes only after the reads in flight on it are done, so none lands on a reused descriptor number', async () => {
    const d = new Descriptor(openSync(file, 'r'));
    const buffers = Array.from({ length: 8 }, () => Buffer.alloc(content.length));
    const reads = buffers.map((buffer) => d.read(buffer, 0, buffer.length, 0));
    const closed = d.close();
    // Still open: the reads hold it. A file opened now gets another number.
    expect(isOpen(d.fd)).toBe(true);
    const other = openSync(path.join(dir, 'other'), 'w');
    try {
      expect(other).not.toBe(d.fd);
      for (const { bytesRead } of await Promise.all(reads)) expect(bytesRead).toBe(content.length);
      for (const buffer of buffers) expect(buffer.equals(content)).toBe(true);
      await closed;
      expect(isOpen(d.fd)).toBe(false);
    } finally {
      closeSync(other);
    }
  });

  it('refuses use after close with EBADF, and a second close does nothing', async () => {
    const d = new Descriptor(openSync(file, 'r'));
    await d.close();
    await expect(d.read(Buffer.alloc(1), 0, 1, 0)).rejects.toMatchObject({ code: 'EBADF' });
    await expect(d.readFile()).rejects.toMatchObject({ code: 'EBADF' });
    await expect(d.stat()).rejects.toMatchObject({ code: 'EBADF' });
    // Another file may hold the number now: closing again must not touch it.
    const other = openSync(file, 'r');
    try {
      await d.close();
      expect(isOpen(other)).toBe(true);
    } finally {
      closeSync(other);
    }
  });

  it('reports a failed read and still closes afterwards', async () => {
    const d = new Descriptor(openSync(dir, 'r')); // a directory: read fails with EISDIR
    const read = d.read(Buffer.alloc(4), 0, 4, 0);
    const closed = d.close();
    await expect(read).rejects.toMatchObject({ code: 'EISDIR' });
    await closed;
    expect(isOpen(d.fd)).toBe(false);
  });
});
