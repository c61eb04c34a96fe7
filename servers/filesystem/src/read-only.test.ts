// --read-only removes every tool that writes, in the factory and in the built bin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { makeTempTree, connectStdio, type TempTree } from '@mcp-reference/test-harness';
import { bin, open, snapshot, type Session } from './test-support.js';

const WRITING = ['write_file', 'edit_file', 'create_directory', 'move_file', 'copy_file'];
const READING = [
  'read_text_file',
  'read_file',
  'read_media_file',
  'read_multiple_files',
  'list_directory',
  'list_directory_with_sizes',
  'directory_tree',
  'search_files',
  'grep_files',
  'get_file_info',
  'list_allowed_directories',
];

let tree: TempTree;

beforeAll(async () => {
  tree = await makeTempTree({ 'a.txt': 'A\n' });
});

afterAll(() => tree?.cleanup());

describe('createFilesystemServer({ readOnly: true })', () => {
  let session: Session;
  beforeAll(async () => {
    session = await open({ dirs: [tree.dir], readOnly: true });
  });
  afterAll(() => session?.close());

  it('lists no writing tool, and every reading one', async () => {
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    for (const name of WRITING) expect(names).not.toContain(name);
    expect(names.sort()).toEqual([...READING].sort());
  });

  it.each(WRITING)('answers a call to %s with a JSON-RPC error and writes nothing', async (name) => {
    const before = await snapshot(tree.dir);
    const args: Record<string, unknown> = { path: tree.path('a.txt'), content: 'x', edits: [{ oldText: 'A', newText: 'B' }], source: tree.path('a.txt'), destination: tree.path('b.txt') };
    const error = await session.client.callTool({ name, arguments: args }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(new RegExp(`Unknown tool: ${name}`));
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('still reads', async () => {
    expect(await session.ok('read_text_file', { path: tree.path('a.txt') })).toMatchObject({ content: 'A\n' });
  });
});

describe('the built bin over stdio', () => {
  beforeAll(() => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
  });

  it('with --read-only lists no writing tool', async () => {
    const connection = await connectStdio(process.execPath, [bin, '--read-only', tree.dir]);
    try {
      const names = (await connection.client.listTools()).tools.map((t) => t.name);
      expect(names.sort()).toEqual([...READING].sort());
      const result = await connection.client.callTool({ name: 'read_text_file', arguments: { path: tree.path('a.txt') } });
      expect(result.structuredContent).toMatchObject({ content: 'A\n' });
    } finally {
      await connection.close();
    }
  });

  it('without it lists the writing tools and confines them to the DIR arguments', async () => {
    const connection = await connectStdio(process.execPath, [bin, tree.dir]);
    try {
      const names = (await connection.client.listTools()).tools.map((t) => t.name);
      for (const name of WRITING) expect(names).toContain(name);
      const before = await snapshot(tree.dir);
      const result = await connection.client.callTool({ name: 'write_file', arguments: { path: `${tree.dir}/../escaped.txt`, content: 'x' } });
      expect(result.isError).toBe(true);
      expect(existsSync(`${tree.dir}/../escaped.txt`)).toBe(false);
      expect(await snapshot(tree.dir)).toEqual(before);
    } finally {
      await connection.close();
    }
  });
});
