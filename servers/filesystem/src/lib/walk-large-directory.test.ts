// A large directory is read in the thread pool, not on the main thread: its system calls took
// 0.4-0.5 s for 200,000 entries (ext4), with every session of the server waiting for them.
import { promises as fsp, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const pooled = vi.hoisted(() => ({ reads: [] as string[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs/promises')>();
  const readdir = (async (dir: string, options: unknown) => {
    pooled.reads.push(String(dir));
    return original.readdir(dir, options as never);
  }) as typeof original.readdir;
  return { ...original, default: { ...original, readdir }, readdir };
});

const { LARGE_DIRECTORY_BYTES, readDirectory, walk } = await import('./walk.js');
const { listDirectory } = await import('./list-directory.js');

let base: string;
let large: string;
let small: string;
let entries = 0;

beforeAll(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'walk-large-')));
  small = path.join(base, 'small');
  large = path.join(base, 'large');
  await fsp.mkdir(small);
  await fsp.mkdir(large);
  writeFileSync(path.join(small, 'one.txt'), '');
  // As many entries as it takes for the directory's size to reach the threshold (about 2,000 on ext4).
  while (statSync(large).size < LARGE_DIRECTORY_BYTES) {
    if (entries >= 200_000) throw new Error(`this filesystem does not grow a directory's size (${statSync(large).size} bytes)`);
    for (let i = 0; i < 500; i++) writeFileSync(path.join(large, `entry-with-a-longish-name-${String(entries++).padStart(6, '0')}.txt`), '');
  }
}, 120_000);

afterAll(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

describe('a directory of many entries', () => {
  it('is read in the thread pool by the walk, a listing and readDirectory, and listed whole and in order', async () => {
    pooled.reads.length = 0;
    const walked: string[] = [];
    for await (const entry of walk(large)) walked.push(entry.name);
    expect(walked).toHaveLength(entries);
    expect(walked).toEqual([...walked].sort());
    expect((await listDirectory(large)).entries).toHaveLength(entries);
    expect(await readDirectory(large)).toHaveLength(entries);
    expect(pooled.reads).toHaveLength(3);
  });

  it('a small one is read at once (cheaper than a trip through the pool)', async () => {
    pooled.reads.length = 0;
    expect((await listDirectory(small)).entries.map((e) => e.name)).toEqual(['one.txt']);
    for await (const entry of walk(small)) expect(entry.name).toBe('one.txt');
    expect(pooled.reads).toEqual([]);
  });
});
