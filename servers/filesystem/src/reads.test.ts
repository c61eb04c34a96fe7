// The reading tools through a real client: slices of text files, the whole-read size
// limit, media as image content, per-file errors and file metadata.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { PNG_1X1, linksOf, open, refusal, textOf, type Session } from './test-support.js';

const MAX = 2048;
const lines = (n: number, width = 0) => Array.from({ length: n }, (_, i) => `line ${i + 1}`.padEnd(width, '.') + '\n').join('');

let tree: TempTree;
let session: Session;

beforeAll(async () => {
  tree = await makeTempTree({
    'ten.txt': lines(10),
    'big.txt': lines(100, 49), // 5,000 bytes: above MAX
    'pixel.png': PNG_1X1,
    'blob.bin': Buffer.from([0, 1, 2, 3, 255]),
    'empty.txt': '',
    dir: { 'inner.txt': 'inner\n' },
    'link.txt': { symlink: 'ten.txt' },
  });
  session = await open({ dirs: [tree.dir], maxReadBytes: MAX });
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

interface TextOut {
  path: string;
  content: string;
  lines: number;
  truncated: boolean;
}

describe('read_text_file', () => {
  it('reads a whole file and links to it', async () => {
    const result = await session.call('read_text_file', { path: tree.path('ten.txt') });
    expect(result.structuredContent).toEqual({ path: tree.path('ten.txt'), content: lines(10), lines: 10, truncated: false });
    expect(textOf(result)).toBe(lines(10));
    expect(linksOf(result)).toEqual([pathToFileURL(tree.path('ten.txt')).href]);
  });

  it('reads paths relative to the first allowed directory', async () => {
    expect((await session.ok<TextOut>('read_text_file', { path: 'dir/inner.txt' })).content).toBe('inner\n');
  });

  it('reads the first lines with head', async () => {
    const out = await session.ok<TextOut>('read_text_file', { path: tree.path('ten.txt'), head: 3 });
    expect(out).toMatchObject({ content: 'line 1\nline 2\nline 3\n', lines: 3, truncated: true });
  });

  it('reads the last lines with tail', async () => {
    const out = await session.ok<TextOut>('read_text_file', { path: tree.path('ten.txt'), tail: 2 });
    expect(out).toMatchObject({ content: 'line 9\nline 10\n', lines: 2, truncated: true });
  });

  it('reads a line range with start_line and end_line', async () => {
    const out = await session.ok<TextOut>('read_text_file', { path: tree.path('ten.txt'), start_line: 4, end_line: 6 });
    expect(out).toMatchObject({ content: 'line 4\nline 5\nline 6\n', lines: 3, truncated: true });
  });

  it('refuses head and tail together', async () => {
    expect(await refusal(session, 'read_text_file', { path: tree.path('ten.txt'), head: 1, tail: 1 })).toMatch(/only one of head, tail/);
  });

  it('reads an empty file', async () => {
    expect(await session.ok('read_text_file', { path: tree.path('empty.txt') })).toMatchObject({ content: '', lines: 0 });
  });

  it('refuses a directory, saying so', async () => {
    expect(await refusal(session, 'read_text_file', { path: tree.path('dir') })).toMatch(/is a directory/);
  });

  it('says what to do about a missing file', async () => {
    expect(await refusal(session, 'read_text_file', { path: tree.path('nope.txt') })).toMatch(/does not exist.*list/i);
  });
});

describe('files above maxReadBytes', () => {
  it.each(['read_text_file', 'read_file'])('%s refuses a whole read, pointing to head/tail/line ranges', async (tool) => {
    const message = await refusal(session, tool, { path: tree.path('big.txt') });
    expect(message).toMatch(/5000 bytes/);
    expect(message).toMatch(/2048/);
    expect(message).toMatch(/head/);
    expect(message).toMatch(/tail/);
    expect(message).toMatch(/start_line/);
  });

  it('still reads them with head, tail and line ranges', async () => {
    expect((await session.ok<TextOut>('read_text_file', { path: tree.path('big.txt'), head: 1 })).content).toBe(lines(1, 49));
    expect((await session.ok<TextOut>('read_text_file', { path: tree.path('big.txt'), tail: 1 })).content).toBe(`${'line 100'.padEnd(49, '.')}\n`);
    const range = await session.ok<TextOut>('read_text_file', { path: tree.path('big.txt'), start_line: 50, end_line: 51 });
    expect(range.content).toBe(`${'line 50'.padEnd(49, '.')}\n${'line 51'.padEnd(49, '.')}\n`);
  });

  it('read_multiple_files gives a per-file error pointing to read_text_file', async () => {
    const out = await session.ok<{ files: { error?: string }[] }>('read_multiple_files', { paths: [tree.path('big.txt')] });
    expect(out.files[0].error).toMatch(/read_text_file with head, tail or a line range/);
  });

  it('resources/read refuses them, pointing to read_text_file', async () => {
    await expect(session.client.readResource({ uri: pathToFileURL(tree.path('big.txt')).href })).rejects.toThrow(/head, tail or start_line/);
  });
});

describe('read_media_file', () => {
  it('returns a PNG as image content with its MIME type', async () => {
    const result = await session.call('read_media_file', { path: tree.path('pixel.png') });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ path: tree.path('pixel.png'), mimeType: 'image/png', size: PNG_1X1.length, kind: 'image' });
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toEqual({ type: 'image', mimeType: 'image/png', data: PNG_1X1.toString('base64') });
    expect(linksOf(result)).toEqual([pathToFileURL(tree.path('pixel.png')).href]);
  });

  it('returns other binaries as an embedded blob', async () => {
    const result = await session.call('read_media_file', { path: tree.path('blob.bin') });
    const embedded = result.content.find((block) => block.type === 'resource');
    expect(embedded?.resource).toMatchObject({ blob: Buffer.from([0, 1, 2, 3, 255]).toString('base64') });
  });
});

describe('read_multiple_files', () => {
  it('returns each file or its own error without failing the call', async () => {
    const result = await session.call('read_multiple_files', {
      paths: [tree.path('ten.txt'), tree.path('missing.txt'), tree.path('dir'), '/etc/passwd', 'dir/inner.txt'],
    });
    expect(result.isError).toBeFalsy();
    const files = (result.structuredContent as { files: { path: string; content?: string; error?: string }[] }).files;
    expect(files.map((f) => f.path)).toEqual([tree.path('ten.txt'), tree.path('missing.txt'), tree.path('dir'), '/etc/passwd', 'dir/inner.txt']);
    expect(files[0]).toEqual({ path: tree.path('ten.txt'), content: lines(10) });
    expect(files[1].error).toMatch(/does not exist/);
    expect(files[2].error).toMatch(/is a directory/);
    expect(files[3].error).toMatch(/Access denied/);
    expect(files[4].content).toBe('inner\n');
    expect(linksOf(result)).toHaveLength(2);
  });
});

describe('get_file_info', () => {
  interface Info {
    path: string;
    size: number;
    isFile: boolean;
    isDirectory: boolean;
    isSymlink: boolean;
    permissions: string;
    mimeType?: string;
    modified: string;
  }

  it('describes a file and links to it', async () => {
    const result = await session.call('get_file_info', { path: tree.path('pixel.png') });
    const info = result.structuredContent as unknown as Info;
    expect(info).toMatchObject({ path: tree.path('pixel.png'), size: PNG_1X1.length, isFile: true, isDirectory: false, isSymlink: false, mimeType: 'image/png' });
    expect(info.permissions).toMatch(/^[0-7]{3}$/);
    expect(Number.isNaN(Date.parse(info.modified))).toBe(false);
    expect(linksOf(result)).toEqual([pathToFileURL(tree.path('pixel.png')).href]);
  });

  it('describes a directory', async () => {
    expect(await session.ok('get_file_info', { path: tree.path('dir') })).toMatchObject({ isDirectory: true, isFile: false });
  });

  it.each([
    ['an absolute path', () => tree.path('link.txt')],
    ['a relative path', () => 'link.txt'],
    ['a file:// URI', () => pathToFileURL(tree.path('link.txt')).href],
  ])('reports a symlink given as %s, describing its target', async (_name, path) => {
    expect(await session.ok('get_file_info', { path: path() })).toMatchObject({ path: tree.path('ten.txt'), isSymlink: true, isFile: true });
  });
});
