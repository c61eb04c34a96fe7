// Who may access what: command-line DIRs are a ceiling, client roots narrow it, roots
// alone define access without DIRs, and with neither every tool says how to configure one.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { open, refusal, snapshot, textOf, type Session } from './test-support.js';

let tree: TempTree;
let ceiling: string;
let session: Session | undefined;

const uri = (p: string) => pathToFileURL(p).href;

beforeAll(async () => {
  tree = await makeTempTree({
    parent: {
      ceiling: {
        'top.txt': 'top\n',
        project: { 'inner.txt': 'inner\n', deep: { 'x.txt': 'x\n' } },
        other: { 'o.txt': 'o\n' },
      },
      'beside.txt': 'beside\n',
      'link-to-project': { symlink: 'ceiling/project' },
    },
    elsewhere: { 'e.txt': 'elsewhere\n', sub: { 's.txt': 's\n' } },
    'link-to-elsewhere': { symlink: 'elsewhere' },
  });
  ceiling = tree.path('parent', 'ceiling');
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

afterAll(() => tree?.cleanup());

async function allowed(s: Session): Promise<string[]> {
  return (await s.ok<{ directories: string[] }>('list_allowed_directories', {})).directories;
}

async function readable(s: Session, path: string): Promise<boolean> {
  const result = await s.call('read_text_file', { path });
  if (result.isError) expect(textOf(result)).toMatch(/Access denied|No directory is allowed/);
  return !result.isError;
}

describe('command-line directories', () => {
  it('are the ceiling when the client has no roots', async () => {
    session = await open({ dirs: [ceiling] });
    expect(await allowed(session)).toEqual([ceiling]);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(true);
    expect(await readable(session, tree.path('parent', 'beside.txt'))).toBe(false);
    expect(await readable(session, tree.path('elsewhere', 'e.txt'))).toBe(false);
  });
});

describe('client roots under a ceiling', () => {
  it('narrow access to a root inside the ceiling', async () => {
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(`${ceiling}/project`) }] });
    expect(await allowed(session)).toEqual([`${ceiling}/project`]);
    expect(await readable(session, `${ceiling}/project/deep/x.txt`)).toBe(true);
    // In the ceiling but outside the root.
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(false);
    expect(await readable(session, `${ceiling}/other/o.txt`)).toBe(false);
    const listing = await session.call('list_directory', { path: ceiling });
    expect(listing.isError).toBe(true);
    expect(textOf(listing)).toContain(`${ceiling}/project`);
  });

  it('grant nothing when the root is outside the ceiling', async () => {
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(tree.path('elsewhere')) }] });
    expect(await allowed(session)).toEqual([]);
    expect(await readable(session, tree.path('elsewhere', 'e.txt'))).toBe(false);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(false);
    const before = await snapshot(tree.dir);
    const message = await refusal(session, 'write_file', { path: tree.path('elsewhere', 'new.txt'), content: 'x' });
    expect(message).toMatch(/No directory is allowed/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('grant only the ceiling when the root contains it', async () => {
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(tree.dir) }] });
    expect(await allowed(session)).toEqual([ceiling]);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(true);
    expect(await readable(session, tree.path('parent', 'beside.txt'))).toBe(false);
    expect(await readable(session, tree.path('elsewhere', 'e.txt'))).toBe(false);
  });

  it('are judged by where they lead when they are symlinks', async () => {
    // A root that is a symlink to a directory inside the ceiling grants that directory...
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(tree.path('parent', 'link-to-project')) }] });
    expect(await allowed(session)).toEqual([`${ceiling}/project`]);
    expect(await readable(session, `${ceiling}/project/inner.txt`)).toBe(true);
    await session.close();
    // ...and one that is a symlink leading outside it grants nothing.
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(tree.path('link-to-elsewhere')) }] });
    expect(await allowed(session)).toEqual([]);
    expect(await readable(session, tree.path('elsewhere', 'e.txt'))).toBe(false);
  });

  it('are judged one by one: a non-file root does not void the others (which widened access to the ceiling)', async () => {
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(`${ceiling}/other`) }, { uri: 'https://example.com/' }] });
    expect(await allowed(session)).toEqual([`${ceiling}/other`]);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(false);
  });

  it('keep only the roots inside the ceiling when some are outside', async () => {
    session = await open(
      { dirs: [ceiling] },
      { roots: [{ uri: uri(tree.path('elsewhere')) }, { uri: uri(`${ceiling}/other`) }] },
    );
    expect(await allowed(session)).toEqual([`${ceiling}/other`]);
    expect(await readable(session, `${ceiling}/other/o.txt`)).toBe(true);
    expect(await readable(session, tree.path('elsewhere', 'e.txt'))).toBe(false);
  });
});

// A client that declared roots, none of them usable, gets nothing, not the whole ceiling:
// a dropped root must not read as "the client has no roots".
describe('client roots that cannot be used', () => {
  it('a root that does not exist grants nothing ', async () => {
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(`${ceiling}/missing`) }] });
    expect(await allowed(session)).toEqual([]);
  });

  it('a file:// root on another host grants nothing', async () => {
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: 'file://remotehost/srv' }] });
    expect(await allowed(session)).toEqual([]);
  });

});

describe('client roots without a ceiling', () => {
  it('define access', async () => {
    session = await open({ dirs: [] }, { roots: [{ uri: uri(tree.path('elsewhere')) }] });
    expect(await allowed(session)).toEqual([tree.path('elsewhere')]);
    expect(await readable(session, tree.path('elsewhere', 'sub', 's.txt'))).toBe(true);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(false);
  });

  it('are picked up when they change at runtime, with resources/list_changed', async () => {
    session = await open({ dirs: [] }, { roots: [{ uri: uri(tree.path('elsewhere')) }] });
    expect(await readable(session, tree.path('elsewhere', 'e.txt'))).toBe(true);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(false);

    await session.setRoots([{ uri: uri(ceiling) }]);
    await session.waitForNotification('notifications/resources/list_changed');
    expect(await allowed(session)).toEqual([ceiling]);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(true);
    expect(await readable(session, tree.path('elsewhere', 'e.txt'))).toBe(false);
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(uri(`${ceiling}/top.txt`));
    expect(resources.map((r) => r.uri)).not.toContain(uri(tree.path('elsewhere', 'e.txt')));
  });

  it('narrow at runtime under a ceiling too', async () => {
    session = await open({ dirs: [ceiling] }, { roots: [{ uri: uri(ceiling) }] });
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(true);
    await session.setRoots([{ uri: uri(`${ceiling}/project`) }]);
    await session.waitForNotification('notifications/resources/list_changed');
    expect(await allowed(session)).toEqual([`${ceiling}/project`]);
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(false);
  });
});

describe('no directories and no roots', () => {
  // Minimal valid arguments for every tool: each must fail saying how to configure access.
  const calls: [string, (dir: string) => Record<string, unknown>][] = [
    ['read_text_file', (d) => ({ path: `${d}/top.txt` })],
    ['read_file', (d) => ({ path: `${d}/top.txt` })],
    ['read_media_file', (d) => ({ path: `${d}/top.txt` })],
    ['read_multiple_files', (d) => ({ paths: [`${d}/top.txt`] })],
    ['write_file', (d) => ({ path: `${d}/new.txt`, content: 'x' })],
    ['edit_file', (d) => ({ path: `${d}/top.txt`, edits: [{ oldText: 'top', newText: 'bottom' }] })],
    ['create_directory', (d) => ({ path: `${d}/newdir` })],
    ['list_directory', (d) => ({ path: d })],
    ['list_directory_with_sizes', (d) => ({ path: d })],
    ['directory_tree', (d) => ({ path: d })],
    ['search_files', (d) => ({ path: d, pattern: '*' })],
    ['grep_files', (d) => ({ path: d, pattern: 'top' })],
    ['get_file_info', (d) => ({ path: `${d}/top.txt` })],
    ['move_file', (d) => ({ source: `${d}/top.txt`, destination: `${d}/moved.txt` })],
    ['copy_file', (d) => ({ source: `${d}/top.txt`, destination: `${d}/copied.txt` })],
  ];

  it('covers every tool the server lists', async () => {
    session = await open({ dirs: [] });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...calls.map(([name]) => name), 'list_allowed_directories'].sort());
  });

  it.each(calls)('%s fails saying how to configure a directory', async (name, args) => {
    session = await open({ dirs: [] });
    const before = await snapshot(tree.dir);
    const result = await session.call(name, args(ceiling));
    const message =
      name === 'read_multiple_files' ? (result.structuredContent as { files: { error?: string }[] }).files[0].error! : (expect(result.isError).toBe(true), textOf(result));
    expect(message).toMatch(/DIR argument/);
    expect(message).toMatch(/roots/);
    expect(await snapshot(tree.dir)).toEqual(before);
  });

  it('list_allowed_directories says how to configure one', async () => {
    session = await open({ dirs: [] });
    const result = await session.call('list_allowed_directories', {});
    expect(result.structuredContent).toMatchObject({ directories: [], reason: expect.stringMatching(/DIR arguments.*roots/) });
    expect(textOf(result)).toMatch(/DIR arguments.*roots/);
  });

  it('resources/list is empty and resources/read is refused', async () => {
    session = await open({ dirs: [] });
    expect((await session.client.listResources()).resources).toEqual([]);
    await expect(session.client.readResource({ uri: uri(`${ceiling}/top.txt`) })).rejects.toThrow(/No directory is allowed/);
  });

  it('a client with roots that arrive later gains access without a restart', async () => {
    session = await open({ dirs: [] }, { roots: [] });
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(false);
    await session.setRoots([{ uri: uri(ceiling) }]);
    await session.waitForNotification('notifications/resources/list_changed');
    expect(await readable(session, `${ceiling}/top.txt`)).toBe(true);
  });
});

// A careless client may list thousands of roots. Each check scanned them all (a read checks
// several times) and resources/list dropped nested ones by comparing every pair: with 4,000
// roots resources/list took 29 s, holding the event loop; resolving 20,000 took 10 s.
describe('a client that lists thousands of roots', () => {
  const count = 5_000;
  let many: TempTree;
  beforeAll(async () => {
    many = await makeTempTree({ r0: { inner: { 'g.txt': 'g\n' } } });
    for (let i = 1; i < count; i += 500) {
      await Promise.all(Array.from({ length: Math.min(500, count - i) }, (_, k) => mkdir(many.path(`r${i + k}`))));
    }
    await writeFile(many.path(`r${count - 1}`, 'f.txt'), 'last\n');
  });
  afterAll(() => many?.cleanup());

  it('are all used, nested ones listed once, and errors name ten of them', { timeout: 30_000 }, async () => {
    const roots = [many.path('r0', 'inner'), ...Array.from({ length: count }, (_, i) => many.path(`r${i}`))].map((p) => ({ uri: uri(p) }));
    session = await open({ dirs: [] }, { roots });
    expect(await allowed(session)).toHaveLength(count + 1);
    expect(textOf(await session.call('read_text_file', { path: many.path(`r${count - 1}`, 'f.txt') }))).toBe('last\n');
    // r0/inner is a root inside the root r0: its file is listed once, under r0.
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([uri(many.path('r0', 'inner', 'g.txt')), uri(many.path(`r${count - 1}`, 'f.txt'))].sort());
    const before = await snapshot(tree.dir);
    const refused = await session.call('write_file', { path: `${ceiling}/top.txt`, content: 'changed' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/outside the allowed directories.*\(and 4,991 more\)/);
    expect(textOf(refused).length).toBeLessThan(5_000);
    expect(await snapshot(tree.dir)).toEqual(before);
  });
});
