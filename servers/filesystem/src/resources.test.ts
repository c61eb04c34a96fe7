// file:// resources: a lazy, stable, paged listing of every file; text and binary reads
// with MIME types; the file:///{+path} template completing one segment at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { makeTempTree, manyFiles, type TempTree } from '@mcp-reference/test-harness';
import { PNG_1X1, makeBigTree, open, type Session } from './test-support.js';

const uri = (p: string) => pathToFileURL(p).href;

async function listAll(session: Session, limit = 10_000): Promise<{ uris: string[]; pages: number }> {
  const uris: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await session.client.listResources(cursor ? { cursor } : {});
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < limit);
  return { uris, pages };
}

describe('resources over a small tree', () => {
  let tree: TempTree;
  let session: Session;

  beforeAll(async () => {
    tree = await makeTempTree({
      '.gitignore': 'ignored.txt\n',
      'ignored.txt': 'listed anyway: resources are every file\n',
      'b.txt': 'b\n',
      'a.txt': 'a\n',
      'with space é.txt': 'spaced\n',
      'pixel.png': PNG_1X1,
      docs: { ...manyFiles(4, (i) => `doc-${i}.md`), deep: { 'deeper.md': 'deeper\n' } },
      '.git': { HEAD: 'ref: refs/heads/main\n' },
      dir: {},
    });
    session = await open({ dirs: [tree.dir], pageSize: 5 });
  });

  afterAll(async () => {
    await session?.close();
    await tree?.cleanup();
  });

  it('lists every file recursively, in pages, without duplicates, in a stable order', async () => {
    const first = await listAll(session);
    const files = [
      '.gitignore',
      'a.txt',
      'b.txt',
      'docs/deep/deeper.md',
      'docs/doc-0.md',
      'docs/doc-1.md',
      'docs/doc-2.md',
      'docs/doc-3.md',
      'ignored.txt',
      'pixel.png',
      'with space é.txt',
    ];
    expect(first.pages).toBe(3);
    expect(new Set(first.uris).size).toBe(first.uris.length);
    expect([...first.uris].sort()).toEqual(files.map((f) => uri(tree.path(f))).sort());
    expect((await listAll(session)).uris).toEqual(first.uris);
  });

  it('gives each resource a name and a MIME type', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.find((r) => r.uri === uri(tree.path('a.txt')))).toMatchObject({ name: 'a.txt', mimeType: 'text/plain' });
  });

  it('reads a text file as text', async () => {
    const { contents } = await session.client.readResource({ uri: uri(tree.path('a.txt')) });
    expect(contents).toEqual([{ uri: uri(tree.path('a.txt')), mimeType: 'text/plain', text: 'a\n' }]);
  });

  it('reads a file whose URI is percent-encoded', async () => {
    const { contents } = await session.client.readResource({ uri: uri(tree.path('with space é.txt')) });
    expect(contents[0]).toMatchObject({ text: 'spaced\n' });
  });

  it('reads a PNG as a base64 blob with image/png', async () => {
    const { contents } = await session.client.readResource({ uri: uri(tree.path('pixel.png')) });
    expect(contents).toEqual([{ uri: uri(tree.path('pixel.png')), mimeType: 'image/png', blob: PNG_1X1.toString('base64') }]);
  });

  it('answers a missing file or a directory with an error', async () => {
    await expect(session.client.readResource({ uri: uri(tree.path('missing.txt')) })).rejects.toThrow(/does not exist/);
    await expect(session.client.readResource({ uri: uri(tree.path('docs')) })).rejects.toThrow(/is a directory/);
  });

  it('offers the file:///{+path} template', async () => {
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('file:///{+path}');
  });

  it('completes the template path one segment at a time', async () => {
    const complete = async (value: string) =>
      (await session.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value } })).completion.values;
    const rel = tree.dir.slice(1);
    expect(await complete(`${rel}/do`)).toEqual([`${rel}/docs/`]);
    expect(await complete(`${rel}/docs/`)).toEqual([`${rel}/docs/deep/`, ...[0, 1, 2, 3].map((i) => `${rel}/docs/doc-${i}.md`)]);
    expect(await complete(`${rel}/docs/doc-2`)).toEqual([`${rel}/docs/doc-2.md`]);
    // From nothing, the allowed directories.
    expect(await complete('')).toEqual([`${rel}/`]);
  });
});

describe('resources over a big tree', () => {
  let tree: TempTree;
  let session: Session;

  beforeAll(async () => {
    tree = await makeBigTree(30, 100); // 3,000 files
    session = await open({ dirs: [tree.dir], pageSize: 5 });
  });

  afterAll(async () => {
    await session?.close();
    await tree?.cleanup();
  });

  it('walks lazily: files created after the first page, late in the order, are still listed', async () => {
    const first = await session.client.listResources();
    expect(first.resources.map((r) => r.uri)).toEqual([0, 1, 2, 3, 4].map((f) => uri(tree.path('d00', `f000${f}.txt`))));
    expect(first.nextCursor).toBeDefined();
    // A listing computed up front (at page 1) could not contain these.
    await mkdir(tree.path('zz-late'));
    await writeFile(tree.path('zz-late', 'late.txt'), 'late\n');
    await writeFile(tree.path('d29', 'f9999.txt'), 'late too\n');
    // ...while a file created before the cursor is not listed twice or out of order.
    await writeFile(tree.path('d00', 'f0000-early.txt'), 'early\n');

    const uris = first.resources.map((r) => r.uri);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await session.client.listResources({ cursor });
      expect(page.resources.length).toBeLessThanOrEqual(5);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    }
    expect(uris).toHaveLength(3_002);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris.slice(-2)).toEqual([uri(tree.path('d29', 'f9999.txt')), uri(tree.path('zz-late', 'late.txt'))]);
    expect(uris).not.toContain(uri(tree.path('d00', 'f0000-early.txt')));
  });
});
