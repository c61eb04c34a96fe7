// Issue 13 items 14-16: inputs and output formats of the official server
// (@modelcontextprotocol/server-filesystem), so this server can be swapped in, and the
// lesser findings: grep context merged as grep -C, annotations, subscriptions to files
// not yet created, one MIME type everywhere, .gitignore in resources/list, prompts under
// --read-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectStdio, isWellFormedText, makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { bin, open, PNG_1X1, sleep, textOf, type Session } from './test-support.js';

let tree: TempTree;
let session: Session;
const uri = (file: string) => pathToFileURL(file).href;

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

beforeAll(async () => {
  tree = await makeTempTree({
    '.gitignore': 'ignored.txt\n',
    'ignored.txt': 'ignored\n',
    'ten.txt': numbered(10),
    'pixel.png': PNG_1X1,
    'data.bin': Buffer.from([0x00, 0x01, 0x02, 0xff]),
    'notes': 'plain text without an extension\n',
    'grep.txt': ['a', 'hit 1', 'b', 'hit 2', 'c', 'd', 'e', 'f', 'g', 'hit 3', 'h'].join('\n') + '\n',
    'many-hits.txt': 'hit\nhit\nhit\n',
    'more-hits.txt': 'hit\n',
    'emoji-line.txt': `before\na${'😀'.repeat(1000)}NEEDLE${'😀'.repeat(1000)}\n${'😀'.repeat(1000)}\n`,
    tree: { sub: { 'leaf.txt': 'x' }, 'top.txt': 'y' },
    watch: {},
  });
  session = await open({ dirs: [tree.dir] });
  await session.client.listTools(); // the client validates structuredContent against outputSchema
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

describe('inputs the official server accepts', () => {
  it('head: 0 and tail: 0 read the whole file; head and tail accept any number', async () => {
    expect((await session.ok<{ content: string }>('read_text_file', { path: tree.path('ten.txt'), head: 0 })).content).toBe(numbered(10));
    expect((await session.ok<{ content: string }>('read_text_file', { path: tree.path('ten.txt'), tail: 0 })).content).toBe(numbered(10));
    expect((await session.ok<{ content: string }>('read_file', { path: tree.path('ten.txt'), head: 2 })).content).toBe(numbered(2));
    expect((await session.ok<{ content: string }>('read_text_file', { path: tree.path('ten.txt'), head: 1.5 })).content).toBe(numbered(2));
  });

  it('path "" is the first allowed directory, ~/ the home directory (when allowed), an NFC name finds the NFD file', async () => {
    const listing = await session.ok<{ path: string }>('list_directory', { path: '' });
    expect(listing.path).toBe(tree.dir);
    const home = process.env.HOME;
    try {
      process.env.HOME = tree.dir;
      expect((await session.ok<{ content: string }>('read_text_file', { path: '~/ten.txt', head: 1 })).content).toBe(numbered(1));
    } finally {
      process.env.HOME = home;
    }
    await writeFile(tree.path('cafe\u0301.txt'), 'stored decomposed\n');
    expect((await session.ok<{ content: string }>('read_text_file', { path: tree.path('caf\u00e9.txt') })).content).toBe('stored decomposed\n');
  });

  it('edit_file with edits: [] succeeds with an empty diff and changes nothing', async () => {
    const before = numbered(10);
    const out = await session.ok<{ diff: string }>('edit_file', { path: tree.path('ten.txt'), edits: [] });
    expect(out.diff).not.toMatch(/^@@/m);
    expect(out.diff).not.toMatch(/^[-+][^-+]/m);
    expect(await readFile(tree.path('ten.txt'), 'utf8')).toBe(before);
  });

  it('a missing directory on the command line is a warning and is skipped; the others are served', async () => {
    const missing = path.join(tree.dir, 'no-such-dir');
    const stdio = await connectStdio(process.execPath, [bin, missing, tree.path('tree')], { stderr: 'pipe' });
    try {
      const result = await stdio.client.callTool({ name: 'list_allowed_directories', arguments: {} });
      expect((result.structuredContent as { directories: string[] }).directories).toEqual([tree.path('tree')]);
    } finally {
      await stdio.close();
    }
  });

  it('with every directory missing it still starts, allows nothing even to a client with roots, and says why', async () => {
    const missing = path.join(tree.dir, 'no-such-dir');
    const stdio = await connectStdio(process.execPath, [bin, missing], {
      stderr: 'ignore',
      roots: [{ uri: pathToFileURL(tree.dir).href }],
    });
    try {
      const result = (await stdio.client.callTool({ name: 'read_text_file', arguments: { path: tree.path('ten.txt') } })) as {
        isError?: boolean;
        content: { text?: string }[];
      };
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain('None of the directories this server was started with can be used');
      expect(result.content[0].text).toContain('no-such-dir');
      const listed = await stdio.client.callTool({ name: 'list_allowed_directories', arguments: {} });
      expect(listed.structuredContent).toMatchObject({ directories: [] });
      expect((listed.content as { text: string }[])[0].text).toContain('None of the directories this server was started with can be used');
    } finally {
      await stdio.close();
    }
  });
});

describe('text formats clients parse', () => {
  it("directory_tree's text is the official JSON: an array of {name, type, children}", async () => {
    const result = await session.call('directory_tree', { path: tree.path('tree') });
    const parsed = JSON.parse(result.content[0].text!);
    expect(parsed).toEqual([
      { name: 'sub', type: 'directory', children: [{ name: 'leaf.txt', type: 'file' }] },
      { name: 'top.txt', type: 'file' },
    ]);
  });

  it("read_media_file's first content block is the image", async () => {
    const result = await session.call('read_media_file', { path: tree.path('pixel.png') });
    expect(result.content[0]).toEqual({ type: 'image', data: PNG_1X1.toString('base64'), mimeType: 'image/png' });
  });
});

describe('grep_files', () => {
  type Grep = { matches: { path: string; line: number; before?: string[]; after?: string[] }[]; filesMatched: number; truncated: boolean };

  it('merges overlapping context as grep -C does: every line once, "--" only between groups apart', async () => {
    const result = await session.call('grep_files', { path: tree.path('grep.txt'), pattern: '^hit', context_lines: 2 });
    const out = result.structuredContent as Grep;
    expect(out.matches.map((m) => [m.line, m.before ?? [], m.after ?? []])).toEqual([
      [2, ['a'], ['b']],
      [4, [], ['c', 'd']],
      [10, ['f', 'g'], ['h']],
    ]);
    const file = tree.path('grep.txt');
    expect(textOf(result)).toBe(
      [`${file}-1-a`, `${file}:2:hit 1`, `${file}-3-b`, `${file}:4:hit 2`, `${file}-5-c`, `${file}-6-d`, '--', `${file}-8-f`, `${file}-9-g`, `${file}:10:hit 3`, `${file}-11-h`].join('\n'),
    );
  });

  it('clips a long line around its match on whole characters (an emoji is two UTF-16 units)', async () => {
    const result = await session.call('grep_files', { path: tree.path('emoji-line.txt'), pattern: 'NEEDLE', context_lines: 1 });
    const [match] = (result.structuredContent as { matches: Array<{ text: string; before?: string[]; after?: string[] }> }).matches;
    expect(match.text).toMatch(/^…(😀)+NEEDLE(😀)+…$/u);
    for (const line of [match.text, ...(match.before ?? []), ...(match.after ?? []), textOf(result)]) expect(isWellFormedText(line)).toBe(true);
    expect(match.after?.[0]).toMatch(/^(😀)+…$/u);
  });

  it('counts a file whose matches were cut off by max_results in filesMatched', async () => {
    const out = await session.ok<Grep>('grep_files', { path: tree.dir, pattern: '^hit$', include: ['*-hits.txt'], max_results: 2 });
    expect(out.truncated).toBe(true);
    expect(out.matches.map((m) => path.basename(m.path))).toEqual(['many-hits.txt', 'many-hits.txt']);
    expect(out.filesMatched).toBe(1);
  });
});

describe('lesser findings', () => {
  it('create_directory says it is not destructive', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.find((t) => t.name === 'create_directory')?.annotations).toMatchObject({ destructiveHint: false });
  });

  it('a subscription to a file that does not exist yet fires when it is created', async () => {
    const target = tree.path('watch', 'later.txt');
    await session.client.subscribeResource({ uri: uri(target) });
    await sleep(200);
    await writeFile(target, 'here now\n');
    await session.waitForNotification('notifications/resources/updated', (p) => p?.uri === uri(target));
    await session.client.unsubscribeResource({ uri: uri(target) });
  });

  it('resources/list, resources/read and summarize_file give a file the same MIME type', async () => {
    const { resources } = await session.client.listResources();
    for (const [name, expected] of [
      ['ten.txt', 'text/plain'],
      ['pixel.png', 'image/png'],
    ] as const) {
      expect(resources.find((r) => r.uri === uri(tree.path(name)))?.mimeType).toBe(expected);
      const { contents } = await session.client.readResource({ uri: uri(tree.path(name)) });
      expect(contents[0].mimeType).toBe(expected);
      const prompt = await session.client.getPrompt({ name: 'summarize_file', arguments: { path: tree.path(name) } });
      expect((prompt.messages[1].content as { resource: { mimeType: string } }).resource.mimeType).toBe(expected);
    }
    // Without a known extension, the listing does not guess; reading decides by content.
    expect(resources.find((r) => r.uri === uri(tree.path('notes')))?.mimeType).toBeUndefined();
    expect((await session.client.readResource({ uri: uri(tree.path('notes')) })).contents[0].mimeType).toBe('text/plain');
    expect((await session.client.readResource({ uri: uri(tree.path('data.bin')) })).contents[0].mimeType).toBe('application/octet-stream');
  });

  it('summarize_file embeds a binary file as a blob, not as text', async () => {
    const prompt = await session.client.getPrompt({ name: 'summarize_file', arguments: { path: tree.path('data.bin') } });
    const resource = (prompt.messages[1].content as { resource: Record<string, unknown> }).resource;
    expect(resource).toMatchObject({ blob: Buffer.from([0x00, 0x01, 0x02, 0xff]).toString('base64'), mimeType: 'application/octet-stream' });
    expect(resource.text).toBeUndefined();
    expect((prompt.messages[0].content as { text: string }).text).toMatch(/binary/);
  });

  // The contract lists every file as a resource; only the listing tools take respect_gitignore.
  it('resources/list lists every file, git-ignored ones too, while list_directory leaves them out', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(uri(tree.path('ignored.txt')));
    expect(resources.map((r) => r.uri)).toContain(uri(tree.path('ten.txt')));
    const listing = await session.client.callTool({ name: 'list_directory', arguments: { path: tree.dir } });
    expect(JSON.stringify(listing.structuredContent)).not.toContain('ignored.txt');
  });

  it('resource names do not collide across allowed directories', async () => {
    const two = await makeTempTree({ one: { 'README.md': '1' }, two: { 'README.md': '2' } });
    const multi = await open({ dirs: [two.path('one'), two.path('two')] });
    try {
      const { resources } = await multi.client.listResources();
      expect(resources).toHaveLength(2);
      expect(new Set(resources.map((r) => r.name)).size).toBe(2);
    } finally {
      await multi.close();
      await two.cleanup();
    }
  });

  it('review_recent_edits is not offered under --read-only', async () => {
    const readOnly = await open({ dirs: [tree.dir], readOnly: true });
    try {
      const { prompts } = await readOnly.client.listPrompts();
      expect(prompts.map((p) => p.name)).not.toContain('review_recent_edits');
      expect(prompts.map((p) => p.name)).toContain('summarize_file');
    } finally {
      await readOnly.close();
    }
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('review_recent_edits');
  });
});


