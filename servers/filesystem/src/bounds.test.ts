// Issue 13 item 3: every tool bounds what it builds and returns, and says how to ask for
// the rest: read_text_file cuts a whole read at the response limit, read_multiple_files
// has a total budget, list_directory_with_sizes pages, grep_files caps its output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symlinkSync, writeFileSync } from 'node:fs';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { makeBigTree, open, textOf, type Session } from './test-support.js';

let tree: TempTree;
let session: Session;

const lineOf = (i: number) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(40)}\n`; // 54 bytes
const bigText = (bytes: number) => Array.from({ length: Math.ceil(bytes / 54) }, (_, i) => lineOf(i + 1)).join('');
const FIVE_MB = bigText(5.2 * 1024 * 1024);

beforeAll(async () => {
  tree = await makeTempTree({ 'big.txt': FIVE_MB, many: {}, quarter: {}, sizes: { 'target.txt': 'x'.repeat(1234) } });
  for (let i = 0; i < 250; i++) writeFileSync(tree.path('many', `f${String(i).padStart(3, '0')}.txt`), 'y'.repeat(i));
  const quarter = bigText(400 * 1024);
  for (let i = 0; i < 25; i++) writeFileSync(tree.path('quarter', `q${String(i).padStart(2, '0')}.txt`), quarter);
  symlinkSync('target.txt', tree.path('sizes', 'link.txt'));
  session = await open({ dirs: [tree.dir], pageSize: 100 });
  await session.client.listTools(); // the client validates structuredContent against outputSchema
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

/** Size of the response as it would travel (JSON of the whole result). */
const sizeOf = (result: unknown) => Buffer.byteLength(JSON.stringify(result));

describe('read_text_file', () => {
  it('cuts a 5.2 MB whole read at the response limit, at a line end, and says where to continue', async () => {
    const result = await session.call('read_text_file', { path: tree.path('big.txt') });
    expect(result.isError).toBeFalsy();
    expect(sizeOf(result)).toBeLessThan(6 * 1024 * 1024);
    const out = result.structuredContent as { content: string; lines: number; truncated: boolean; nextStartLine?: number };
    expect(out.truncated).toBe(true);
    expect(out.content.endsWith('\n')).toBe(true);
    expect(FIVE_MB.startsWith(out.content)).toBe(true);
    expect(out.nextStartLine).toBe(out.lines + 1);
    expect(textOf(result)).toContain(`start_line: ${out.nextStartLine}`);
    // Reading on from there continues exactly where the cut was.
    const next = await session.ok<{ content: string }>('read_text_file', { path: tree.path('big.txt'), start_line: out.nextStartLine, end_line: out.nextStartLine! + 1 });
    expect(next.content).toBe(lineOf(out.nextStartLine!) + lineOf(out.nextStartLine! + 1));
  });

  it('refuses a head that would exceed the response limit, saying to ask for fewer lines', async () => {
    const result = await session.call('read_text_file', { path: tree.path('big.txt'), head: 90_000 });
    expect(result.isError).toBe(true);
    expect(sizeOf(result)).toBeLessThan(10_000);
  });
});

describe('read_multiple_files', () => {
  it('keeps every file in the answer but stops adding content at the budget, naming the files to read separately', async () => {
    const paths = Array.from({ length: 25 }, (_, i) => tree.path('quarter', `q${String(i).padStart(2, '0')}.txt`));
    const result = await session.call('read_multiple_files', { paths });
    expect(result.isError).toBeFalsy();
    expect(sizeOf(result)).toBeLessThan(8 * 1024 * 1024);
    const out = result.structuredContent as { files: { path: string; content?: string; error?: string }[]; omitted?: number };
    expect(out.files.map((f) => f.path)).toEqual(paths);
    const read = out.files.filter((f) => f.content !== undefined);
    const left = out.files.filter((f) => f.content === undefined);
    expect(read.length).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThan(0);
    expect(out.omitted).toBe(left.length);
    for (const f of left) expect(f.error).toMatch(/limit.*read it in another read_multiple_files call/i);
    expect(textOf(result)).toMatch(/left out .* read them separately/);
  });

  it('accepts more than 100 paths, as the official server does', async () => {
    const paths = Array.from({ length: 150 }, (_, i) => tree.path('many', `f${String(i).padStart(3, '0')}.txt`));
    const out = await session.ok<{ files: { content?: string }[] }>('read_multiple_files', { paths });
    expect(out.files).toHaveLength(150);
    expect(out.files[149].content).toBe('y'.repeat(149));
  });
});

describe('list_directory_with_sizes', () => {
  type Listing = { entries: { name: string; size: number }[]; totalFiles: number; totalSize: number; nextCursor?: string };

  it.each(['name', 'size'] as const)('pages a directory of 250 entries (sortBy %s), with totals for the whole directory', async (sortBy) => {
    const names: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const out = await session.ok<Listing>('list_directory_with_sizes', { path: tree.path('many'), sortBy, ...(cursor ? { cursor } : {}) });
      expect(out.entries.length).toBeLessThanOrEqual(100);
      expect(out.totalFiles).toBe(250);
      expect(out.totalSize).toBe((249 * 250) / 2);
      names.push(...out.entries.map((e) => e.name));
      sizes.push(...out.entries.map((e) => e.size));
      cursor = out.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(names).size).toBe(250);
    if (sortBy === 'size') expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    else expect(names).toEqual([...names].sort());
  });

  it('gives a symlink the size get_file_info gives it (its allowed target)', async () => {
    const listing = await session.ok<Listing>('list_directory_with_sizes', { path: tree.path('sizes') });
    const info = await session.ok<{ size: number }>('get_file_info', { path: tree.path('sizes', 'link.txt') });
    expect(listing.entries.find((e) => e.name === 'link.txt')?.size).toBe(info.size);
    expect(info.size).toBe(1234);
  });
});

describe('grep_files', () => {
  it('bounds the output of many matches with wide context, and says why it stopped', async () => {
    const result = await session.call('grep_files', { path: tree.path('big.txt'), pattern: 'line', max_results: 100_000, context_lines: 20 });
    expect(result.isError).toBeFalsy();
    expect(sizeOf(result)).toBeLessThan(8 * 1024 * 1024);
    const out = result.structuredContent as { matches: { line: number; before?: string[]; after?: string[] }[]; truncated: boolean; truncatedBy?: string };
    expect(out.truncated).toBe(true);
    expect(out.truncatedBy).toBe('output_size');
    expect(textOf(result)).toMatch(/size limit/);
    // Every line matches, so no match has context of its own: nothing is shown twice.
    expect(out.matches.every((m) => !m.before?.length && !m.after?.length)).toBe(true);
    expect(out.matches.map((m) => m.line)).toEqual(out.matches.map((_, i) => i + 1));
  });
});

describe('list_directory_with_sizes paging (issue 21, item 10)', () => {
  type Listing = { entries: { name: string; size: number }[]; totalFiles: number; totalSize: number; nextCursor?: string };

  it.each(['name', 'size'] as const)('costs each page after the first its own size, not the whole directory again (sortBy %s)', async (sortBy) => {
    const big = await makeBigTree(1, 20_000, (_, f) => 'z'.repeat(f % 97));
    const paged = await open({ dirs: [big.dir], pageSize: 100 });
    try {
      const dir = big.path('d00');
      // One-time costs (loading the tool) out of the way first.
      await paged.ok<Listing>('list_directory_with_sizes', { path: big.dir, sortBy });
      let started = performance.now();
      const first = await paged.ok<Listing>('list_directory_with_sizes', { path: dir, sortBy });
      const firstMs = performance.now() - started;
      let cursor = first.nextCursor;
      const seen = new Set(first.entries.map((e) => e.name));
      started = performance.now();
      for (let i = 0; i < 20; i++) {
        const out = await paged.ok<Listing>('list_directory_with_sizes', { path: dir, sortBy, cursor });
        expect(out.totalFiles).toBe(20_000);
        expect(out.totalSize).toBe(first.totalSize);
        for (const e of out.entries) seen.add(e.name);
        cursor = out.nextCursor;
      }
      const laterMs = (performance.now() - started) / 20;
      expect(seen.size).toBe(2_100);
      // Generous: each later page used to lstat all 20,000 entries again, as long as the first.
      expect(laterMs, `first page ${firstMs.toFixed(0)} ms, later pages ${laterMs.toFixed(1)} ms each`).toBeLessThan(firstMs / 4);
    } finally {
      await paged.close();
      await big.cleanup();
    }
  }, 60_000);

  it('pages on correctly from a cursor whose kept listing is gone (another server instance)', async () => {
    const first = await session.ok<Listing>('list_directory_with_sizes', { path: tree.path('many'), sortBy: 'size' });
    const other = await open({ dirs: [tree.dir], pageSize: 100 });
    try {
      const next = await other.ok<Listing>('list_directory_with_sizes', { path: tree.path('many'), sortBy: 'size', cursor: first.nextCursor });
      expect(next.entries[0].size).toBe(first.entries[99].size - 1);
      expect(next.entries).toHaveLength(100);
    } finally {
      await other.close();
    }
  });
});
