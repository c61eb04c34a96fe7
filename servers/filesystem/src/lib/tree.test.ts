import { promises as fsp, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { directoryTree } from './tree.js';

let root: string;

beforeEach(async () => {
  root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'tree-')));
  for (const file of ['src/a.ts', 'src/lib/b.ts', 'README.md', 'node_modules/x/index.js']) {
    await fsp.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fsp.writeFile(path.join(root, file), '');
  }
  await fsp.mkdir(path.join(root, 'empty'));
  await fsp.symlink(path.join(root, 'src'), path.join(root, 'src-link'));
});

afterEach(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

describe('directoryTree', () => {
  it('builds the nested name/type/children structure of the official server', async () => {
    const result = await directoryTree(root, { excludePatterns: ['node_modules'] });
    expect(result).toEqual({
      tree: [
        { name: 'README.md', type: 'file' },
        { name: 'empty', type: 'directory', children: [] },
        {
          name: 'src',
          type: 'directory',
          children: [
            { name: 'a.ts', type: 'file' },
            { name: 'lib', type: 'directory', children: [{ name: 'b.ts', type: 'file' }] },
          ],
        },
        { name: 'src-link', type: 'file' },
      ],
      entries: 7,
      truncated: false,
      last: 'src-link',
    });
  });

  it('resumes after `last`, repeating the directories above the first entries as continued', async () => {
    const first = await directoryTree(root, { excludePatterns: ['node_modules'], maxEntries: 4 });
    expect(first.last).toBe('src/a.ts');
    const second = await directoryTree(root, { excludePatterns: ['node_modules'], maxEntries: 4, after: first.last });
    expect(second).toEqual({
      tree: [
        {
          name: 'src',
          type: 'directory',
          continued: true,
          children: [{ name: 'lib', type: 'directory', children: [{ name: 'b.ts', type: 'file' }] }],
        },
        { name: 'src-link', type: 'file' },
      ],
      entries: 3,
      truncated: false,
      last: 'src-link',
    });
  });

  it('stops at maxEntries, marking the cut directory and the result', async () => {
    const result = await directoryTree(root, { excludePatterns: ['node_modules'], maxEntries: 4 });
    expect(result.entries).toBe(4);
    expect(result.truncated).toBe(true);
    const src = result.tree.find((n) => n.name === 'src')!;
    expect(src.children).toEqual([{ name: 'a.ts', type: 'file' }]);
    expect(src.truncated).toBe(true);
  });

  it('marks directories cut by maxDepth, but not empty ones', async () => {
    const result = await directoryTree(root, { maxDepth: 1, excludePatterns: ['node_modules'] });
    expect(result.tree.find((n) => n.name === 'src')).toEqual({ name: 'src', type: 'directory', children: [], truncated: true });
    expect(result.tree.find((n) => n.name === 'empty')).toEqual({ name: 'empty', type: 'directory', children: [] });
    expect(result.truncated).toBe(false);
  });

  it('keeps a response for a large tree small', async () => {
    // Synchronous: 3,000 awaited writes can outlast the test timeout on a loaded machine.
    for (let i = 0; i < 3000; i++) writeFileSync(path.join(root, `file-${String(i).padStart(5, '0')}.txt`), '');
    const result = await directoryTree(root, { maxEntries: 1000 });
    expect(result.entries).toBe(1000);
    expect(JSON.stringify(result.tree, null, 2).length).toBeLessThan(100_000);
  });
});
