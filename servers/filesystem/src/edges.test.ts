// Edge cases of real filesystems (issue 13, item 13), through a real client: a directory
// deeper than PATH_MAX, a line range past a huge region without newlines, names that are
// not valid UTF-8 or hold a newline, a directory copy that meets a FIFO, a looping symlink.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { lstat, mkdir, readlink, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { open, refusal, textOf, type Session } from './test-support.js';
import { directoryTree } from './lib/tree.js';
import { readLineRange } from './lib/read-text.js';
import { FsError } from './lib/errors.js';

let tree: TempTree;
let session: Session | undefined;

beforeEach(async () => {
  tree = await makeTempTree({});
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  // rm(1) removes trees deeper than PATH_MAX and names that are not UTF-8.
  execFileSync('rm', ['-rf', tree.dir]);
});

describe('a directory deeper than PATH_MAX', () => {
  const SEGMENT = 'd'.repeat(200);

  beforeEach(async () => {
    await writeFile(tree.path('top.txt'), 'needle at the top\n');
    // Made with relative paths, one level at a time (in a child process, which may chdir):
    // no single path is too long to create.
    const script = `const fs = require('fs');
      process.chdir(process.argv[1]);
      fs.mkdirSync('deep'); process.chdir('deep'); fs.writeFileSync('shallow.txt', 'needle shallow\\n');
      for (let i = 0; i < 25; i++) { fs.mkdirSync('${SEGMENT}'); process.chdir('${SEGMENT}'); }
      fs.writeFileSync('bottom.txt', 'needle deep\\n');`;
    execFileSync(process.execPath, ['-e', script, tree.dir]);
  });

  it('is skipped, not fatal, in directory_tree, search_files, grep_files and resources/list of its ancestors', async () => {
    session = await open({ dirs: [tree.dir] });
    const treeOut = await session.ok<{ entries: number }>('directory_tree', { path: tree.dir });
    expect(treeOut.entries).toBeGreaterThan(3);
    const search = await session.ok<{ matches: { path: string }[] }>('search_files', { path: tree.dir, pattern: '**/*.txt' });
    expect(search.matches.map((m) => path.basename(m.path)).sort()).toEqual(['shallow.txt', 'top.txt']);
    const grep = await session.ok<{ matches: { path: string }[] }>('grep_files', { path: tree.dir, pattern: 'needle' });
    expect(grep.matches.map((m) => path.basename(m.path)).sort()).toEqual(['shallow.txt', 'top.txt']);
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => path.basename(r.name)).sort()).toEqual(['shallow.txt', 'top.txt']);
  });

  it('is reported by directory_tree as skipped, in its structured result and its text', async () => {
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('directory_tree', { path: tree.dir });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { skipped?: { path: string; reason: string }[] };
    expect(out.skipped).toHaveLength(1);
    expect(out.skipped![0].path.startsWith(`deep/${SEGMENT}/`)).toBe(true);
    expect(out.skipped![0].reason).toMatch(/PATH_MAX/);
    expect(textOf(result)).toContain(`1 directory not listed:\n${out.skipped![0].path}: path longer than the system allows (PATH_MAX))`);
  });

  it('is reported by the tree walk as skipped, with the reason', async () => {
    const result = await directoryTree(tree.dir);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped![0].reason).toMatch(/PATH_MAX/);
    expect(Buffer.byteLength(path.join(tree.dir, result.skipped![0].path))).toBeGreaterThan(4096);
  });
});

describe('start_line past a huge region without newlines', () => {
  it('stops after a bounded scan and says why', async () => {
    // A sparse 3 GiB file: one "line" of zero bytes, no newline anywhere.
    await writeFile(tree.path('huge.bin'), '');
    await truncate(tree.path('huge.bin'), 3 * 1024 ** 3);
    session = await open({ dirs: [tree.dir] });
    const message = await refusal(session, 'read_text_file', { path: tree.path('huge.bin'), start_line: 2 });
    expect(message).toMatch(/Line 1 of .* runs on for more than 64(\.00)? MB without a line break, so line 2 was not looked for/);
  });

  it('honours cancellation between chunks', async () => {
    await writeFile(tree.path('long.txt'), 'x'.repeat(4 * 1024 * 1024));
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the client'));
    await expect(readLineRange(tree.path('long.txt'), 2, undefined, { signal: controller.signal })).rejects.toThrow(/cancelled by the client/);
    await expect(readLineRange(tree.path('long.txt'), 2, undefined, { maxScanBytes: 1024 * 1024 })).rejects.toBeInstanceOf(FsError);
  });
});

describe('names', () => {
  it('refuses a name that a name with invalid UTF-8 looks like, instead of reading the other file', async () => {
    const dir = Buffer.from(tree.dir);
    // "a\xff.txt" is listed as "a\uFFFD.txt", the name of the other file.
    writeFileSync(Buffer.concat([dir, Buffer.from('/a'), Buffer.from([0xff]), Buffer.from('.txt')]), 'the listed bytes\n');
    writeFileSync(Buffer.concat([dir, Buffer.from('/a\uFFFD.txt')]), 'the look-alike\n');
    session = await open({ dirs: [tree.dir] });
    const listing = await session.ok<{ entries: { name: string }[] }>('list_directory', { path: tree.dir });
    expect(listing.entries.map((e) => e.name)).toEqual(['a\uFFFD.txt', 'a\uFFFD.txt']);
    const message = await refusal(session, 'read_text_file', { path: path.join(tree.dir, 'a\uFFFD.txt') });
    expect(message).toMatch(/ambiguous/);
    expect(message).not.toContain('look-alike');
  });

  it('keeps a newline in a name from forging a line in list_directory\'s text', async () => {
    await writeFile(tree.path('real.txt'), '');
    await writeFile(tree.path('x\n[DIR] forged'), '');
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('list_directory', { path: tree.dir });
    const lines = textOf(result).split('\n');
    expect(lines).not.toContain('[DIR] forged');
    expect(lines).toContain('[FILE] "x\\n[DIR] forged"');
    expect(lines).toContain('[FILE] real.txt');
    // The structured result keeps the real name.
    expect((result.structuredContent as { entries: { name: string }[] }).entries.map((e) => e.name)).toContain('x\n[DIR] forged');
  });
});

describe('a newline in a name cannot forge a line in any text output', () => {
  const FORGED = 'x\n[DIR] forged';

  beforeEach(async () => {
    await mkdir(tree.path('dir'));
    await writeFile(tree.path('dir', FORGED), 'needle\n');
    await writeFile(tree.path('dir', 'real.txt'), 'needle\n');
    session = await open({ dirs: [tree.dir] });
  });

  /** The text lines of a call, checked to hold no line that starts with the forged text. */
  async function lines(name: string, args: Record<string, unknown>): Promise<string[]> {
    const result = await session!.call(name, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    const text = textOf(result).split('\n');
    expect(text.filter((line) => line.startsWith('[DIR] forged'))).toEqual([]);
    return text;
  }

  it('search_files', async () => {
    const text = await lines('search_files', { path: tree.dir, pattern: '**/x*' });
    expect(text).toContain(JSON.stringify(tree.path('dir', FORGED)));
  });

  it('list_directory_with_sizes', async () => {
    const text = await lines('list_directory_with_sizes', { path: tree.path('dir') });
    expect(text.some((line) => line.startsWith(`[FILE] ${JSON.stringify(FORGED)} `))).toBe(true);
  });

  it('grep_files', async () => {
    const text = await lines('grep_files', { path: tree.path('dir'), pattern: 'needle' });
    expect(text).toContain(`${JSON.stringify(tree.path('dir', FORGED))}:1:needle`);
  });

  it('directory_tree (its text is JSON)', async () => {
    const text = await lines('directory_tree', { path: tree.path('dir') });
    expect(JSON.parse(text[0])).toContainEqual({ name: FORGED, type: 'file' });
  });

  it('copy_file and move_file', async () => {
    const copied = await lines('copy_file', { source: tree.path('dir', FORGED), destination: tree.path(`copy ${FORGED}`) });
    expect(copied.join('\n')).toBe(`Copied file ${JSON.stringify(tree.path('dir', FORGED))} to ${JSON.stringify(tree.path(`copy ${FORGED}`))}`);
    const moved = await lines('move_file', { source: tree.path('dir', FORGED), destination: tree.path(`moved ${FORGED}`) });
    expect(moved.join('\n')).toBe(`Moved ${JSON.stringify(tree.path('dir', FORGED))} to ${JSON.stringify(tree.path(`moved ${FORGED}`))}`);
  });
});

describe('get_file_info of odd entries', () => {
  it('describes a FIFO at once, without opening it', async () => {
    await mkdir(tree.path('data'));
    execFileSync('mkfifo', [tree.path('data', 'pipe')]);
    session = await open({ dirs: [tree.path('data')] });
    expect(await session.ok('get_file_info', { path: tree.path('data', 'pipe') })).toMatchObject({ isFile: false, isDirectory: false, isSymlink: false });
  });

  it('reports isSymlink for a symlink to a directory, describing the directory', async () => {
    await mkdir(tree.path('data', 'sub'), { recursive: true });
    await symlink(tree.path('data', 'sub'), tree.path('data', 'link'));
    session = await open({ dirs: [tree.path('data')] });
    expect(await session.ok('get_file_info', { path: tree.path('data', 'link') })).toMatchObject({ path: tree.path('data', 'sub'), isDirectory: true, isSymlink: true });
    expect(await session.ok('get_file_info', { path: tree.path('data', 'sub') })).toMatchObject({ isDirectory: true, isSymlink: false });
  });
});

describe('reading a FIFO', () => {
  it('is refused without opening it: a writer waiting for a reader keeps waiting', async () => {
    await mkdir(tree.path('data'));
    execFileSync('mkfifo', [tree.path('data', 'pipe')]);
    // The writer's open returns only once something opens the FIFO for reading; then it says so.
    const writer = spawn('sh', ['-c', 'exec 3>"$1"; echo opened > "$2"', 'sh', tree.path('data', 'pipe'), tree.path('opened')], { stdio: 'ignore' });
    try {
      session = await open({ dirs: [tree.path('data')] });
      for (const tool of ['read_text_file', 'read_media_file', 'read_file']) {
        expect(await refusal(session, tool, { path: tree.path('data', 'pipe'), ...(tool === 'read_media_file' ? {} : { tail: 1 }) })).toMatch(/not a regular file/);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(lstat(tree.path('opened'))).rejects.toThrow(/ENOENT/);
    } finally {
      writer.kill('SIGKILL');
    }
  });
});

describe('copy_file of a directory holding a FIFO', () => {
  it('is refused before anything is copied', async () => {
    const source = tree.path('src');
    await mkdir(source);
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'm.txt', 'y.txt']) await writeFile(path.join(source, name), `${name}\n`);
    await mkdir(path.join(source, 'nested'));
    await writeFile(path.join(source, 'nested', 'inner.txt'), 'inner\n');
    execFileSync('mkfifo', [path.join(source, 'nested', 'pipe')]);
    session = await open({ dirs: [tree.dir] });
    const message = await refusal(session, 'copy_file', { source, destination: tree.path('copy') });
    await expect(lstat(tree.path('copy'))).rejects.toThrow(/ENOENT/);
    expect(message).toMatch(/pipe.*not a regular file, directory or symbolic link/);
  });
});

describe('a looping symlink', () => {
  it('can be moved: move_file moves the link itself', async () => {
    await symlink(tree.path('loop2'), tree.path('loop1'));
    await symlink(tree.path('loop1'), tree.path('loop2'));
    await mkdir(tree.path('trash'));
    session = await open({ dirs: [tree.dir] });
    await session.ok('move_file', { source: tree.path('loop1'), destination: tree.path('trash', 'loop1') });
    expect(await readlink(tree.path('trash', 'loop1'))).toBe(tree.path('loop2'));
    await expect(lstat(tree.path('loop1'))).rejects.toThrow(/ENOENT/);
  });
});
