// Long operations over a big tree report progress to a client that asks for it, and stop
// when the client cancels, after which the server keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TempTree } from '@mcp-reference/test-harness';
import { makeBigTree, open, type Session } from './test-support.js';

const DIRS = 20;
const FILES_PER_DIR = 1_000;

let tree: TempTree;
let session: Session;

beforeAll(async () => {
  tree = await makeBigTree(DIRS, FILES_PER_DIR, (d, f) => `content ${d}-${f}\nneedle-${f % 97}\n`);
  session = await open({ dirs: [tree.dir] });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

type Progress = { progress: number; total?: number; message?: string };

describe('progress', () => {
  it.each([
    ['grep_files', { pattern: 'never-found-anywhere', path: '.' }],
    ['search_files', { pattern: '**/never-found-*', path: '.' }],
    ['directory_tree', { path: '.', max_entries: 50_000 }],
  ] as const)('%s over 20,000 files reports progress', async (name, args) => {
    const reports: Progress[] = [];
    const result = await session.client.callTool({ name, arguments: { ...args } }, undefined, {
      onprogress: (progress: Progress) => reports.push(progress),
      timeout: 30_000,
    });
    expect(result.isError).toBeFalsy();
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(reports[0].progress).toBeGreaterThan(0);
    expect(reports[0].message).toMatch(new RegExp(`^${name}: \\d+ entries examined$`));
    for (let i = 1; i < reports.length; i++) expect(reports[i].progress).toBeGreaterThanOrEqual(reports[i - 1].progress);
  });

  it('grep_files finds matches across the whole big tree', async () => {
    const result = await session.client.callTool({ name: 'grep_files', arguments: { pattern: '^needle-96$', path: '.', max_results: 10_000 } });
    const out = result.structuredContent as { matches: unknown[]; filesScanned: number; truncated: boolean };
    expect(out.filesScanned).toBe(DIRS * FILES_PER_DIR);
    expect(out.matches).toHaveLength(DIRS * 10); // f % 97 === 96 for 10 of every 1,000
    expect(out.truncated).toBe(false);
  });
});

describe('cancellation', () => {
  it.each([
    ['grep_files', { pattern: 'never-found-anywhere', path: '.' }],
    ['search_files', { pattern: '**/never-found-*', path: '.' }],
  ] as const)('an aborted %s ends without hanging, and the server keeps answering', async (name, args) => {
    const controller = new AbortController();
    const cancel = () => controller.abort(new Error('cancelled by the test'));
    // Right after the request is sent (or at the first progress report), while the walk
    // is under way: a walk of 20,000 entries takes longer than a turn of the event loop.
    const timer = setTimeout(cancel, 1);
    const call = session.client.callTool({ name, arguments: { ...args } }, undefined, { signal: controller.signal, onprogress: cancel });
    await expect(call).rejects.toThrow(/cancelled by the test/);
    clearTimeout(timer);
    const again = await session.ok<{ directories: string[] }>('list_allowed_directories', {});
    expect(again.directories).toEqual([tree.dir]);
    const read = await session.ok<{ content: string }>('read_text_file', { path: 'd00/f0000.txt' });
    expect(read.content).toBe('content 0-0\nneedle-0\n');
  });

  it('the server answers other requests while a long grep runs', async () => {
    const order: string[] = [];
    const grep = session.client
      .callTool({ name: 'grep_files', arguments: { pattern: 'never-found-anywhere', path: '.', respect_gitignore: false } })
      .then(() => order.push('grep'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await session.ok('list_allowed_directories', {}).then(() => order.push('list_allowed_directories'));
    await grep;
    expect(order).toEqual(['list_allowed_directories', 'grep']);
  });
});
