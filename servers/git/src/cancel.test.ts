import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { makeTempTree } from '@mcp-reference/test-harness';
import { childProcessSlots } from '@mcp-reference/shared/core';
import { open, sampleRepo, sleep, type Session } from './test-support.js';

/** git processes whose working directory is `dir` (Linux /proc). */
async function gitProcessesIn(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
    if (cwd !== dir) continue;
    const exe = await readlink(`/proc/${entry}/exe`).catch(() => '');
    if (/git/.test(exe)) found.push(Number(entry));
  }
  return found;
}

// 300 concurrent git_grep calls ran 300 git processes (1.1 GB, pings waiting 2 s): now they
// take turns in the process's slots for short-lived children. Each git here is a script on
// PATH that notes when it starts and ends around the real git (and takes 50 ms more), so
// the most that ever ran at once is counted, however short they are.
describe.runIf(process.platform === 'linux')('a flood of calls', () => {
  it('runs a few git processes at a time, and answers every call', async () => {
    const repo = await sampleRepo();
    const bin = await makeTempTree({});
    const log = bin.path('log');
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    await writeFile(bin.path('git'), `#!/bin/sh\necho + >> '${log}'\nsleep 0.05\n'${realGit}' "$@"\ncode=$?\necho - >> '${log}'\nexit $code\n`, { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${bin.dir}:${path}`;
    const s = await open({ repositories: [repo.root] });
    try {
      const results = await Promise.all(Array.from({ length: 40 }, () => s.ok<{ matches: unknown[] }>('git_grep', { repo_path: repo.root, pattern: 'alpha' })));
      for (const result of results) expect(result.matches.length).toBeGreaterThan(0);
      let running = 0;
      let most = 0;
      const marks = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
      for (const mark of marks) most = Math.max(most, (running += mark === '+' ? 1 : -1));
      expect(marks.length).toBeGreaterThanOrEqual(80);
      expect(running).toBe(0);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(childProcessSlots().stats().size);
    } finally {
      process.env.PATH = path;
      await s.close();
      await repo.cleanup();
      await bin.cleanup();
    }
  }, 60_000);
});

describe.runIf(process.platform === 'linux')('long calls', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  beforeAll(async () => {
    repo = await sampleRepo();
    // 40 MB of matching lines: git grep streams for a while.
    const line = 'needle in a haystack of text\n';
    await writeFile(repo.path('big.txt'), line.repeat(1_500_000));
    await repo.git('add', 'big.txt');
    await repo.git('commit', '-qm', 'big');
    s = await open({ repositories: [repo.root], maxOutputBytes: 512 * 1024 * 1024 });
  }, 60_000);
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
  });

  it('report progress, and cancelling kills the git process', async () => {
    const controller = new AbortController();
    let progressed = 0;
    const call = s.client.callTool(
      { name: 'git_grep', arguments: { repo_path: repo.root, pattern: 'needle', max_results: 10_000 } },
      undefined,
      {
        signal: controller.signal,
        onprogress: () => {
          progressed++;
          controller.abort();
        },
        timeout: 60_000,
      },
    );
    await expect(call).rejects.toThrow();
    expect(progressed).toBeGreaterThan(0);
    // The server's git child is gone shortly after the cancellation arrives.
    let left = await gitProcessesIn(repo.root);
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await sleep(100);
      left = await gitProcessesIn(repo.root);
    }
    expect(left).toEqual([]);
    // And the server keeps answering.
    expect((await s.ok('git_status', { repo_path: repo.root })).branch).toBe('main');
  }, 60_000);

  it('a file streamed by git_file_at_ref reports progress as it is read', async () => {
    // At a 64 KiB limit the 44 MB file is past 8x the limit: it is streamed from git, up to the line asked for.
    const small = await open({ repositories: [repo.root], maxOutputBytes: 64 * 1024 });
    try {
      const reports: number[] = [];
      const result = await small.client.callTool(
        { name: 'git_file_at_ref', arguments: { repo_path: repo.root, path: 'big.txt', ref: 'HEAD', start_line: 1_500_000 } },
        undefined,
        { onprogress: (p) => reports.push(p.progress), timeout: 60_000 },
      );
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { content: string }).content).toBe('needle in a haystack of text\n');
      // One report per 256 KB read at most, growing, and reaching most of the file.
      expect(reports.length).toBeGreaterThan(10);
      expect(reports).toEqual([...reports].sort((a, b) => a - b));
      expect(reports.at(-1)).toBeGreaterThan(40_000_000);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('closing the session kills a running git', async () => {
    const other = await open({ repositories: [repo.root], maxOutputBytes: 512 * 1024 * 1024 });
    const call = other.client.callTool({ name: 'git_grep', arguments: { repo_path: repo.root, pattern: 'needle', max_results: 10_000 } }, undefined, {
      onprogress: () => undefined,
      timeout: 60_000,
    }).catch(() => undefined);
    for (let i = 0; i < 100 && (await gitProcessesIn(repo.root)).length === 0; i++) await sleep(10);
    await other.close();
    await call;
    let left = await gitProcessesIn(repo.root);
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await sleep(100);
      left = await gitProcessesIn(repo.root);
    }
    expect(left).toEqual([]);
  }, 60_000);
});
