// git_log's record streams on a real repository: records handed out page by page, in order,
// whole whatever the pieces git's output came in, and a record longer than many of those
// pieces (a hostile repository's huge commit subject) read at a cost linear in its length.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sampleRepo } from '../test-support.js';
import { spawnGit } from './git-runner.js';
import { LOG_FORMAT } from './parse.js';
import { createRecordStreams } from './record-stream.js';

let fixture: Awaited<ReturnType<typeof sampleRepo>>;
const streams = createRecordStreams();
/** 4 MB: git writes it in about 64 pieces of 64 KB. */
const hugeSubject = 's'.repeat(4 * 1024 * 1024);

beforeAll(async () => {
  fixture = await sampleRepo();
  await fixture.commit('third', { 'c.txt': 'charlie\n' });
  // Too long for a command line: the message comes from a file.
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'huge-subject-'));
  const message = path.join(scratch, 'message');
  await writeFile(message, hugeSubject);
  await fixture.git('commit', '--quiet', '--allow-empty', '-F', message);
  await rm(scratch, { recursive: true, force: true });
  await fixture.commit('after the huge one', { 'd.txt': 'delta\n' });
});

afterAll(async () => {
  streams.close();
  await fixture.cleanup();
});

const start = () => {
  const repo = { root: fixture.root, gitDir: path.join(fixture.root, '.git') };
  return streams.start(spawnGit(repo, ['log', LOG_FORMAT]), 'test', '\x1e', 0);
};
const subjectOf = (record: string) => record.split('\x1f')[7];

describe('record streams', () => {
  it('hands out whole records page by page, in order, the huge one among them', async () => {
    const stream = start();
    const first = await stream.take(1);
    expect(first.map(subjectOf)).toEqual(['after the huge one']);
    const next = await stream.take(2);
    expect(next.map(subjectOf)).toEqual([hugeSubject, 'third']);
    expect(stream.position).toBe(3);
    expect((await stream.take(10)).map(subjectOf)).toEqual(['second', 'first']);
    expect(await stream.more()).toBe(false);
  });

  it('reads a record longer than many pieces of output looking at each character about once', async () => {
    // What the stream scans for separators: the text of every split and indexOf on long strings.
    let scanned = 0;
    const { split, indexOf } = String.prototype;
    const count = (length: number) => {
      if (length > 10_000) scanned += length;
    };
    const spies = [
      vi.spyOn(String.prototype, 'split').mockImplementation(function (this: string, ...args: Parameters<typeof split>) {
        count(this.length);
        return split.apply(this, args);
      } as typeof split),
      vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (this: string, ...args: Parameters<typeof indexOf>) {
        count(this.length - Math.max(0, args[1] ?? 0));
        return indexOf.apply(this, args);
      } as typeof indexOf),
    ];
    let page: string[];
    try {
      const stream = start();
      page = await stream.take(3);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(page.map(subjectOf)).toEqual(['after the huge one', hugeSubject, 'third']);
    // Splitting all that was read at every 64 KB piece scanned some 130 MB.
    expect(scanned).toBeLessThan(3 * hugeSubject.length);
  });
});
