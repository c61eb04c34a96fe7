// Every path-taking tool, resource read and completion attacked with the classic ways out
// of an allowed directory. Each attack must be refused with a message that says why, and
// must leave the disk exactly as it was (nothing outside changed or created, no temp
// file left behind inside).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERAS, makeTempTree, type Era, type TempTree } from '@mcp-reference/test-harness';
import { open, refusal, snapshot, sleep, textOf, type Session } from './test-support.js';

const SECRET = 'TOP-SECRET-CONTENT';

let tree: TempTree;
let data: string;
let outside: string;
let session: Session;
/** The path and resource attack tables run with both clients (2025 and 2026-07-28), in memory. */
const sessions = {} as Record<Era, Session>;
let before: Record<string, string>;

beforeAll(async () => {
  tree = await makeTempTree({
    data: {
      'inside.txt': 'inside\n',
      sub: { 'a.txt': 'a\n' },
      'link-file': { symlink: '../outside/secret.txt' },
      'link-dir': { symlink: '../outside' },
      dangling: { symlink: '../outside/created-through-dangling.txt' },
      'dangling-dir': { symlink: '../outside/created-dir' },
      chain1: { symlink: 'chain2' },
      chain2: { symlink: '../outside/created-through-chain.txt' },
      loop1: { symlink: 'loop2' },
      loop2: { symlink: 'loop1' },
    },
    'data-evil': { 'evil.txt': `${SECRET} evil\n` },
    outside: { 'secret.txt': `${SECRET}\n`, 'secret.png': `${SECRET}` },
  });
  data = tree.path('data');
  outside = tree.path('outside');
  session = await open({ dirs: [data] });
  sessions.legacy = session;
  sessions.modern = await open({ dirs: [data] }, { era: 'modern' });
  before = await snapshot(tree.dir);
});

afterAll(async () => {
  await session?.close();
  await sessions.modern?.close();
  await tree?.cleanup();
});

const DENIED = /Access denied.*outside the allowed directories/;
const TOO_LONG = /^The path is [\d,]+ (bytes|characters) long; the longest \w+ opens is [\d,]+\. Give a shorter path\.$/;

interface Vector {
  name: string;
  path: () => string;
  message: RegExp;
}

const v = (name: string, path: () => string, message: RegExp = DENIED): Vector => ({ name, path, message });

/** Existing files outside, reached in every way we know. */
const fileVectors: Vector[] = [
  v('.. traversal', () => `${data}/../outside/secret.txt`),
  v('relative .. traversal', () => '../outside/secret.txt'),
  v('.. after a real subdirectory', () => `${data}/sub/../../outside/secret.txt`),
  v('absolute path outside', () => `${outside}/secret.txt`),
  v('prefix trick (data-evil)', () => `${tree.dir}/data-evil/evil.txt`),
  v('percent-encoded dots', () => `${data}/%2e%2e/outside/secret.txt`, /percent-encoded/),
  v('percent-encoded slash', () => `${data}/..%2f..%2foutside/secret.txt`, /percent-encoded/),
  v('file:// URI with encoded dots', () => `file://${data}/%2e%2e/outside/secret.txt`),
  v('NUL byte', () => `${data}/inside.txt\u0000/../../outside/secret.txt`, /NUL byte/),
  v('~ path (the home directory, outside)', () => '~/secret.txt'),
  v('Windows drive path', () => 'C:\\outside\\secret.txt', /looks like a Windows path/),
  v('Windows separators', () => '..\\outside\\secret.txt', /looks like a Windows path/),
  v('symlink to an outside file', () => `${data}/link-file`),
  v('file through a symlink to an outside directory', () => `${data}/link-dir/secret.txt`),
  v('dangling symlink leading outside', () => `${data}/dangling`),
  v('chain of symlinks ending outside', () => `${data}/chain1`),
  v('symlink loop', () => `${data}/loop1`, /symbolic link loop/),
  // Looking for its deepest existing ancestor held the event loop for 32 s.
  v('a path longer than the system opens', () => `${data}/${'a/'.repeat(150_000)}secret.txt`, TOO_LONG),
];

/** Directories outside. */
const dirVectors: Vector[] = [
  v('.. traversal', () => `${data}/..`),
  v('relative ..', () => '..'),
  v('absolute path outside', () => outside),
  v('filesystem root', () => '/'),
  v('prefix trick (data-evil)', () => `${tree.dir}/data-evil`),
  v('percent-encoded dots', () => `${data}/%2e%2e`, /percent-encoded/),
  v('NUL byte', () => `${data}\u0000`, /NUL byte/),
  v('~ path (the home directory, outside)', () => '~'),
  v('Windows drive path', () => 'C:\\', /looks like a Windows path/),
  v('symlink to an outside directory', () => `${data}/link-dir`),
  v('dangling directory symlink leading outside', () => `${data}/dangling-dir`),
  v('a path longer than the system opens', () => `${data}/${'a/'.repeat(150_000)}`, TOO_LONG),
];

/** Places to create or overwrite something outside. */
const writeVectors: Vector[] = [
  v('.. traversal', () => `${data}/../outside/new.txt`),
  v('relative .. traversal', () => '../outside/new.txt'),
  v('absolute path outside (new file)', () => `${outside}/new.txt`),
  v('absolute path outside (existing file)', () => `${outside}/secret.txt`),
  v('prefix trick (data-evil)', () => `${tree.dir}/data-evil/new.txt`),
  v('percent-encoded dots', () => `${data}/%2e%2e/outside/new.txt`, /percent-encoded/),
  v('NUL byte', () => `${data}/new.txt\u0000`, /NUL byte/),
  v('~ path (the home directory, outside)', () => '~/new.txt'),
  v('Windows drive path', () => 'C:\\new.txt', /looks like a Windows path/),
  v('existing symlink to an outside file', () => `${data}/link-file`),
  v('dangling symlink leading outside', () => `${data}/dangling`),
  v('new file under a symlinked parent leading outside', () => `${data}/link-dir/new.txt`),
  v('new file two levels under a symlinked parent', () => `${data}/link-dir/deeper/new.txt`),
  v('new file under a dangling directory symlink', () => `${data}/dangling-dir/new.txt`),
  v('chain of symlinks, the last dangling outside', () => `${data}/chain1`),
  v('symlink loop', () => `${data}/loop1`, /symbolic link loop/),
  v('a path longer than the system opens', () => `${data}/${'a/'.repeat(150_000)}new.txt`, TOO_LONG),
];

interface Target {
  tool: string;
  role?: string;
  /** Another refusal that is as good for this tool (move/copy refuse a source of ".." or "/" before resolving it). */
  alsoRefusedWith?: RegExp;
  args: (path: string) => Record<string, unknown>;
  vectors: Vector[];
}

const NOT_NAMED = /^(\/|\.\.|.*\/\.\.) does not name a file or directory\.$/;

const targets: Target[] = [
  { tool: 'read_text_file', args: (path) => ({ path }), vectors: fileVectors },
  { tool: 'read_text_file', role: 'tail', args: (path) => ({ path, tail: 1 }), vectors: fileVectors },
  { tool: 'read_file', args: (path) => ({ path }), vectors: fileVectors },
  { tool: 'read_media_file', args: (path) => ({ path }), vectors: fileVectors },
  { tool: 'get_file_info', args: (path) => ({ path }), vectors: [...fileVectors, ...dirVectors] },
  { tool: 'edit_file', args: (path) => ({ path, edits: [{ oldText: SECRET, newText: 'pwned' }] }), vectors: fileVectors },
  { tool: 'write_file', args: (path) => ({ path, content: 'pwned' }), vectors: writeVectors },
  { tool: 'create_directory', args: (path) => ({ path }), vectors: [...writeVectors, ...dirVectors] },
  { tool: 'list_directory', args: (path) => ({ path }), vectors: dirVectors },
  { tool: 'list_directory_with_sizes', args: (path) => ({ path }), vectors: dirVectors },
  { tool: 'directory_tree', args: (path) => ({ path }), vectors: dirVectors },
  { tool: 'search_files', args: (path) => ({ path, pattern: '**/*' }), vectors: dirVectors },
  { tool: 'grep_files', args: (path) => ({ path, pattern: 'SECRET' }), vectors: [...dirVectors, ...fileVectors] },
  // A looping symlink is not refused as a move source: moving the link itself touches nothing (see edges.test.ts).
  { tool: 'move_file', role: 'source', alsoRefusedWith: NOT_NAMED, args: (source) => ({ source, destination: `${data}/moved.txt` }), vectors: [...fileVectors, ...dirVectors].filter((v) => v.name !== 'symlink loop') },
  { tool: 'move_file', role: 'destination', args: (destination) => ({ source: `${data}/inside.txt`, destination }), vectors: writeVectors },
  { tool: 'copy_file', role: 'source', alsoRefusedWith: NOT_NAMED, args: (source) => ({ source, destination: `${data}/copied.txt` }), vectors: [...fileVectors, ...dirVectors] },
  { tool: 'copy_file', role: 'destination', args: (destination) => ({ source: `${data}/inside.txt`, destination }), vectors: writeVectors },
];

const cases = targets.flatMap((target) =>
  target.vectors.map((vector) => ({ label: `${target.tool}${target.role ? ` (${target.role})` : ''} refuses ${vector.name}`, target, vector })),
);

describe.each(ERAS)('path attacks on every tool (%s client)', (era) => {
  let session: Session;
  beforeAll(() => {
    session = sessions[era];
  });
  it.each(cases)('$label', async ({ target, vector }) => {
    const message = await refusal(session, target.tool, target.args(vector.path()));
    expect(message).not.toContain(SECRET);
    if (!target.alsoRefusedWith?.test(message)) {
      expect(message).toMatch(vector.message);
      if (vector.message === DENIED) expect(message).toContain(data); // says where access is allowed
    }
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it.each(fileVectors)('read_multiple_files gives a per-file refusal for $name', async (vector) => {
    const out = await session.ok<{ files: { path: string; content?: string; error?: string }[] }>('read_multiple_files', {
      paths: [vector.path(), `${data}/inside.txt`],
    });
    expect(out.files[0].content).toBeUndefined();
    expect(out.files[0].error).toMatch(vector.message);
    expect(out.files[1].content).toBe('inside\n');
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(await snapshot(tree.dir)).toEqual(before);
  });
});

describe.each(ERAS)('resource attacks (%s client)', (era) => {
  let session: Session;
  beforeAll(() => {
    session = sessions[era];
  });
  const uris = [
    ['an absolute outside file', () => pathToFileURL(`${outside}/secret.txt`).href],
    ['a symlink to an outside file', () => pathToFileURL(`${data}/link-file`).href],
    ['a file through a symlinked directory', () => pathToFileURL(`${data}/link-dir/secret.txt`).href],
    ['%2e%2e-encoded traversal', () => `file://${data}/%2e%2e/outside/secret.txt`],
    ['%2E%2E-encoded traversal', () => `file://${data}/%2E%2E/outside/secret.txt`],
    ['plain .. traversal', () => `file://${data}/../outside/secret.txt`],
    ['an encoded slash', () => `file://${data}/..%2f..%2foutside/secret.txt`],
    ['the prefix trick', () => pathToFileURL(`${tree.dir}/data-evil/evil.txt`).href],
    ['a remote host', () => `file://evil.example/${outside}/secret.txt`],
  ] as const;

  it.each(uris)('resources/read refuses %s and reads nothing', async (_name, uri) => {
    const error = await session.client.readResource({ uri: uri() }).then(
      (result) => {
        throw new Error(`read succeeded: ${JSON.stringify(result)}`);
      },
      (error: Error & { code?: number }) => error,
    );
    expect(typeof error.code).toBe('number');
    expect(error.message).not.toContain(SECRET);
    expect(error.message.length).toBeGreaterThan(20);
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('says why an outside resource was refused', async () => {
    await expect(session.client.readResource({ uri: pathToFileURL(`${outside}/secret.txt`).href })).rejects.toThrow(DENIED);
    await expect(session.client.readResource({ uri: pathToFileURL(`${data}/link-file`).href })).rejects.toThrow(DENIED);
  });

  it.each([
    ['through a symlink to an outside directory', () => `${data.slice(1)}/link-dir/`],
    ['through a symlink, with a prefix', () => `${data.slice(1)}/link-dir/sec`],
    ['with .. out of the allowed directory', () => `${data.slice(1)}/../outside/`],
    ['in the parent of the allowed directory', () => `${tree.dir.slice(1)}/`],
    ['in an outside directory', () => `${outside.slice(1)}/`],
    ['in the prefix-trick sibling', () => `${tree.dir.slice(1)}/data-evil/`],
  ])('file:///{+path} completion reveals no outside name %s', async (_name, value) => {
    const { completion } = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'file:///{+path}' },
      argument: { name: 'path', value: value() },
    });
    for (const candidate of completion.values) {
      expect(candidate).not.toMatch(/secret|evil|outside\/|created/);
      expect(`/${candidate}`.startsWith(data)).toBe(true);
    }
  });

  it('prompt path completion reveals no outside name through a symlink', async () => {
    for (const [name, argument] of [
      ['summarize_file', 'path'],
      ['find_definition', 'directory'],
      ['review_recent_edits', 'path'],
    ]) {
      const { completion } = await session.client.complete({
        ref: { type: 'ref/prompt', name },
        argument: { name: argument, value: `${data}/link-dir/` },
      });
      expect(completion.values, name).toEqual([]);
    }
  });

  it('resources/list lists no file outside, even through symlinks', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await session.client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(uris.sort()).toEqual([pathToFileURL(`${data}/inside.txt`).href, pathToFileURL(`${data}/sub/a.txt`).href]);
  });
});

describe('listing a directory that contains outside-pointing symlinks', () => {
  it('list_directory lists the links as symlinks without following them', async () => {
    const out = await session.ok<{ entries: { name: string; type: string }[] }>('list_directory', { path: data });
    expect(out.entries).toEqual(
      expect.arrayContaining([
        { name: 'link-file', type: 'symlink' },
        { name: 'link-dir', type: 'symlink' },
        { name: 'dangling', type: 'symlink' },
        { name: 'inside.txt', type: 'file' },
      ]),
    );
    expect(JSON.stringify(out)).not.toMatch(/secret/);
  });

  it('list_directory_with_sizes, directory_tree, search_files and grep_files do not follow them', async () => {
    const sizes = await session.ok<{ entries: { name: string; size: number }[] }>('list_directory_with_sizes', { path: data });
    expect(sizes.entries.map((e) => e.name)).toContain('link-dir');
    const treeOut = await session.ok('directory_tree', { path: data });
    expect(JSON.stringify(treeOut)).toContain('link-dir');
    expect(JSON.stringify(treeOut)).not.toMatch(/secret/);
    const found = await session.ok<{ matches: unknown[] }>('search_files', { path: data, pattern: '**/secret*' });
    expect(found.matches).toEqual([]);
    const grep = await session.ok<{ matches: unknown[] }>('grep_files', { path: data, pattern: SECRET });
    expect(grep.matches).toEqual([]);
    expect(await snapshot(tree.dir)).toEqual(before);
  });
});

describe('forged cursors', () => {
  // Cursors are opaque but not signed: a client can rewrite the position inside. The
  // position only says where to resume in a walk of the allowed directory, so a forged
  // one must not lead the walk anywhere else.
  const forge = (cursor: string, change: (body: Record<string, unknown>) => void) => {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    change(body);
    return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  };
  const keys = ['../outside', '../outside/secret.txt', '../../..', '/', '/etc/passwd', 'link-dir/secret.txt'];

  it.each(keys)('a tool cursor forged to resume after %s lists nothing outside', async (key) => {
    const { nextCursor } = await session.ok<{ nextCursor?: string }>('search_files', { path: data, pattern: '**/*', max_results: 1 });
    const cursor = forge(nextCursor!, (body) => (body.k = key));
    for (const [tool, args] of [
      ['list_directory', { path: data, cursor }],
      ['search_files', { path: data, pattern: '**/*', cursor }],
      ['directory_tree', { path: data, cursor }],
    ] as const) {
      const result = await session.call(tool, { ...args });
      const text = JSON.stringify(result);
      expect(text, tool).not.toMatch(/secret|TOP-SECRET|data-evil/);
      // A resume point that is not below the listed directory is refused as a bad cursor, not a crash.
      if (key.startsWith('/') || key.includes('..')) {
        expect(result.isError, tool).toBe(true);
        expect(text, tool).toMatch(/Invalid cursor/);
      }
      for (const match of (result.structuredContent?.matches as { path: string }[] | undefined) ?? []) expect(match.path.startsWith(`${data}/`)).toBe(true);
    }
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it.each(keys)('a resources/list cursor forged to resume after %s lists nothing outside', async (key) => {
    const paged = await open({ dirs: [data], pageSize: 1 });
    try {
      const { nextCursor } = await paged.client.listResources();
      for (const k of [key, pathToFileURL(path.resolve(data, key)).href]) {
        const cursor = forge(nextCursor!, (body) => (body.k = k));
        const page = await paged.client.listResources({ cursor }).catch((error: Error) => ({ resources: [], error }));
        for (const resource of page.resources) expect(resource.uri.startsWith(pathToFileURL(`${data}/`).href)).toBe(true);
      }
    } finally {
      await paged.close();
    }
  });
});

describe('subscribing to an outside file', () => {
  it('is accepted but never reports changes made outside', async () => {
    const own = await makeTempTree({ data: { 'a.txt': 'a' }, outside: { 'watched.txt': 'one' } });
    const s = await open({ dirs: [own.path('data')] });
    try {
      const uri = pathToFileURL(own.path('outside', 'watched.txt')).href;
      await s.client.subscribeResource({ uri });
      await writeFile(own.path('outside', 'watched.txt'), 'two');
      await sleep(600);
      expect(s.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
      await s.client.unsubscribeResource({ uri });
    } finally {
      await s.close();
      await own.cleanup();
    }
  });
});

describe('a path deep inside that does not exist', () => {
  it('is answered as missing to read, and created to write', async () => {
    // Deeper than 64 levels, the deepest existing ancestor is looked for in the thread pool, by
    // halving. (A path longer than the system opens is refused above.)
    const own = await makeTempTree({ data: { 'a.txt': 'a' } });
    const s = await open({ dirs: [own.path('data')] });
    try {
      const deep = own.path('data', ...Array.from({ length: 200 }, () => 'd'), 'f.txt');
      expect(await refusal(s, 'read_text_file', { path: deep })).toMatch(/does not exist/);
      expect(await refusal(s, 'write_file', { path: own.path('outside-by-depth', ...Array.from({ length: 200 }, () => 'd'), 'f.txt'), content: 'x' })).toMatch(DENIED);
      await s.ok('create_directory', { path: path.dirname(deep) });
      await s.ok('write_file', { path: deep, content: 'deep\n' });
      expect(textOf(await s.call('read_text_file', { path: deep }))).toBe('deep\n');
    } finally {
      await s.close();
      await own.cleanup();
    }
  });
});
