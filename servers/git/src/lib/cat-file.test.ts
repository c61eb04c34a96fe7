// The long-lived `git cat-file --batch-command` reader, on a real repository: answers in
// order, a missing object, and a large blob read through it without copying what it has read
// again at every chunk git writes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import path from 'node:path';
import { sampleRepo } from '../test-support.js';
import { createCatFile } from './cat-file.js';
import type { Repo } from './repo.js';

let fixture: Awaited<ReturnType<typeof sampleRepo>>;
let repo: Repo;
const cat = createCatFile();
/** 8 MB of text: git writes it to the pipe in about 130 pieces of 64 KB. */
const big = Array.from({ length: 160_000 }, (_, i) => `line ${String(i).padStart(6, '0')}: the quick brown fox jumps\n`).join('');

beforeAll(async () => {
  fixture = await sampleRepo();
  await fixture.commit('a large file', { 'big.txt': big });
  const gitDir = path.join(fixture.root, '.git');
  repo = { root: fixture.root, gitDir, commonDir: gitDir, id: 'fixture' };
});

afterAll(async () => {
  cat.close();
  await fixture.cleanup();
});

describe('git cat-file --batch-command', () => {
  it('answers requests made together, in order, a missing object among them', async () => {
    const [readme, missing, a] = await Promise.all([
      cat.read(repo, 'HEAD:README.md', 1024),
      cat.read(repo, 'HEAD:no-such-file', 1024),
      cat.read(repo, 'HEAD:src/a.txt', 1024),
    ]);
    expect(readme.data?.toString()).toBe('# Sample\n');
    expect(missing).toEqual({ type: 'missing', size: 0 });
    expect(a.data?.toString()).toBe('alpha\nbeta\ngamma\n');
  });

  it('reads a large blob whole, joining what git wrote about once, not again at every piece', async () => {
    const joined: number[] = [];
    const concat = Buffer.concat;
    const spy = vi.spyOn(Buffer, 'concat').mockImplementation(((list: readonly Uint8Array[], length?: number) => {
      const made = concat(list, length);
      joined.push(made.length);
      return made;
    }) as typeof Buffer.concat);
    let result;
    try {
      result = await cat.read(repo, 'HEAD:big.txt', 16 * 1024 * 1024);
    } finally {
      spy.mockRestore();
    }
    expect(result.type).toBe('blob');
    expect(result.size).toBe(big.length);
    expect(result.data?.equals(Buffer.from(big))).toBe(true);
    // Once, plus the header's few bytes: at every 64 KB piece it was 500 MB and more.
    expect(joined.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThan(2 * big.length);
    // And the reader is still in step for the next request.
    expect((await cat.read(repo, 'HEAD:src/b.txt', 1024)).data?.toString()).toBe('bravo\n');
  });
});
