// Tools that list and find: structured entries (validated by the client against each
// tool's outputSchema), paging with cursors, caps, .gitignore, and resource_links that
// resolve with resources/read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { makeTempTree, manyFiles, type TempTree } from '@mcp-reference/test-harness';
import { linksOf, open, textOf, type Session, type ToolResult } from './test-support.js';

const PAGE = 10;

let tree: TempTree;
let session: Session;

beforeAll(async () => {
  tree = await makeTempTree({
    '.gitignore': 'ignored-dir/\n*.log\n',
    src: {
      'a.ts': 'export const alpha = 1;\nfunction beta() {}\n// TODO: fix alpha\n',
      'b.ts': 'const gamma = alpha + 1; // todo later\n',
      'c.js': 'TODO in js\n',
      nested: { 'deep.ts': 'line1\nline2\nTODO deep\nline4\nline5\n' },
      'special.txt': 'price is $5.00 (approx)\n',
    },
    'ignored-dir': { 'x.ts': 'TODO ignored\n' },
    'build.log': 'TODO log\n',
    many: manyFiles(25),
    sizes: { 'small.txt': 'x', 'large.txt': 'x'.repeat(300), 'medium.txt': 'x'.repeat(50), sub: {} },
  });
  session = await open({ dirs: [tree.dir], pageSize: PAGE });
  await session.client.listTools(); // lets the client validate structuredContent against outputSchema
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

/** Every resource_link of a result reads back, with the file's own content. */
async function expectLinksResolve(result: ToolResult, atLeast = 1): Promise<string[]> {
  const links = linksOf(result);
  expect(links.length).toBeGreaterThanOrEqual(atLeast);
  for (const uri of links) {
    const { contents } = await session.client.readResource({ uri });
    expect(contents[0].uri).toBe(uri);
    expect((contents[0] as { text?: string }).text).toBe(await readFile(fileURLToPath(uri), 'utf8'));
  }
  return links;
}

describe('list_directory', () => {
  it('pages over more entries than the page size, without duplicates, in name order', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const out = await session.ok<{ entries: { name: string; type: string }[]; nextCursor?: string }>('list_directory', {
        path: tree.path('many'),
        ...(cursor ? { cursor } : {}),
      });
      expect(out.entries.length).toBeLessThanOrEqual(PAGE);
      names.push(...out.entries.map((e) => e.name));
      cursor = out.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(names).toEqual(Object.keys(manyFiles(25)).sort());
  });

  it('marks types, leaves out .gitignored entries by default, and links to files', async () => {
    const result = await session.call('list_directory', { path: tree.dir });
    const entries = (result.structuredContent as { entries: { name: string; type: string }[] }).entries;
    expect(entries).toEqual([
      { name: '.gitignore', type: 'file' },
      { name: 'many', type: 'directory' },
      { name: 'sizes', type: 'directory' },
      { name: 'src', type: 'directory' },
    ]);
    expect(textOf(result)).toMatch(/^\[DIR\] src$/m);
    await expectLinksResolve(result);
  });

  it('includes .gitignored entries with respect_gitignore false', async () => {
    const out = await session.ok<{ entries: { name: string }[] }>('list_directory', { path: tree.dir, respect_gitignore: false });
    expect(out.entries.map((e) => e.name)).toEqual(expect.arrayContaining(['build.log', 'ignored-dir']));
  });
});

describe('list_directory_with_sizes', () => {
  it('sorts by size, largest first, with totals', async () => {
    const out = await session.ok<{ entries: { name: string; size: number }[]; totalFiles: number; totalDirectories: number; totalSize: number }>(
      'list_directory_with_sizes',
      { path: tree.path('sizes'), sortBy: 'size' },
    );
    expect(out.entries.map((e) => [e.name, e.size])).toEqual([
      ['large.txt', 300],
      ['medium.txt', 50],
      ['small.txt', 1],
      ['sub', 0],
    ]);
    expect(out).toMatchObject({ totalFiles: 3, totalDirectories: 1, totalSize: 351 });
  });
});

describe('search_files', () => {
  interface Found {
    root: string;
    matches: { path: string; type: string }[];
    nextCursor?: string;
  }

  it('finds by glob at any depth, respects .gitignore, and links to what it found', async () => {
    const result = await session.call('search_files', { path: tree.dir, pattern: '**/*.ts' });
    const out = result.structuredContent as unknown as Found;
    expect(out.matches).toEqual([
      { path: tree.path('src', 'a.ts'), type: 'file' },
      { path: tree.path('src', 'b.ts'), type: 'file' },
      { path: tree.path('src', 'nested', 'deep.ts'), type: 'file' },
    ]);
    expect(await expectLinksResolve(result, 3)).toHaveLength(3);
  });

  it('includes ignored files with respect_gitignore false, and leaves out excludePatterns', async () => {
    const out = await session.ok<Found>('search_files', { path: tree.dir, pattern: '**/*.ts', respect_gitignore: false, excludePatterns: ['nested'] });
    expect(out.matches.map((m) => m.path)).toEqual([tree.path('ignored-dir', 'x.ts'), tree.path('src', 'a.ts'), tree.path('src', 'b.ts')]);
  });

  it('matches names containing a pattern without glob characters', async () => {
    const out = await session.ok<Found>('search_files', { path: tree.dir, pattern: 'deep' });
    expect(out.matches.map((m) => m.path)).toEqual([tree.path('src', 'nested', 'deep.ts')]);
  });

  it('pages with max_results and a cursor, without duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const out = await session.ok<Found>('search_files', { path: tree.path('many'), pattern: '*.txt', max_results: 7, ...(cursor ? { cursor } : {}) });
      expect(out.matches.length).toBeLessThanOrEqual(7);
      seen.push(...out.matches.map((m) => m.path));
      cursor = out.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(Object.keys(manyFiles(25)).sort().map((name) => tree.path('many', name)));
  });
});

describe('grep_files', () => {
  interface Grep {
    matches: { path: string; line: number; column: number; text: string; before?: string[]; after?: string[] }[];
    truncated: boolean;
    filesScanned: number;
    filesMatched: number;
  }

  it('finds a regular expression, respects .gitignore, and links to the matching files', async () => {
    const result = await session.call('grep_files', { pattern: 'TODO\\s+\\w+', path: tree.dir });
    const out = result.structuredContent as unknown as Grep;
    expect(out.matches.map((m) => [m.path, m.line, m.text])).toEqual([
      [tree.path('src', 'c.js'), 1, 'TODO in js'],
      [tree.path('src', 'nested', 'deep.ts'), 3, 'TODO deep'],
    ]);
    expect(out.truncated).toBe(false);
    expect(textOf(result)).toContain(`${tree.path('src', 'c.js')}:1:TODO in js`);
    await expectLinksResolve(result, 2);
  });

  it('searches ignored files with respect_gitignore false, and case-insensitively on request', async () => {
    const out = await session.ok<Grep>('grep_files', { pattern: 'todo', path: tree.dir, respect_gitignore: false, case_sensitive: false });
    expect(out.matches.map((m) => m.path)).toEqual(
      expect.arrayContaining([tree.path('build.log'), tree.path('ignored-dir', 'x.ts'), tree.path('src', 'b.ts')]),
    );
    expect(out.matches).toHaveLength(6);
  });

  it('takes the pattern literally with literal: true', async () => {
    const literal = await session.ok<Grep>('grep_files', { pattern: '$5.00 (approx)', path: tree.dir, literal: true });
    expect(literal.matches.map((m) => [m.path, m.column])).toEqual([[tree.path('src', 'special.txt'), 10]]);
    const regex = await session.ok<Grep>('grep_files', { pattern: '$5.00 (approx)', path: tree.dir });
    expect(regex.matches).toEqual([]);
  });

  it('filters files with include and exclude globs', async () => {
    const included = await session.ok<Grep>('grep_files', { pattern: 'TODO', path: tree.dir, include: ['*.ts'] });
    expect(included.matches.map((m) => m.path)).toEqual([tree.path('src', 'a.ts'), tree.path('src', 'nested', 'deep.ts')]);
    const excluded = await session.ok<Grep>('grep_files', { pattern: 'TODO', path: tree.dir, include: ['*.ts'], exclude: ['nested'] });
    expect(excluded.matches.map((m) => m.path)).toEqual([tree.path('src', 'a.ts')]);
  });

  it('returns context lines', async () => {
    const out = await session.ok<Grep>('grep_files', { pattern: 'TODO deep', path: tree.path('src', 'nested'), context_lines: 1 });
    expect(out.matches).toEqual([{ path: tree.path('src', 'nested', 'deep.ts'), line: 3, column: 1, text: 'TODO deep', before: ['line2'], after: ['line4'] }]);
  });

  it('stops at max_results and says it was truncated', async () => {
    const out = await session.ok<Grep>('grep_files', { pattern: 'line', path: tree.path('many'), max_results: 3 });
    expect(out.matches).toHaveLength(3);
    expect(out.truncated).toBe(true);
  });

  it('searches one file when path is a file', async () => {
    const out = await session.ok<Grep>('grep_files', { pattern: 'alpha', path: tree.path('src', 'a.ts') });
    expect(out.matches.map((m) => m.line)).toEqual([1, 3]);
  });

  it('refuses an invalid regular expression, saying why', async () => {
    const result = await session.call('grep_files', { pattern: '(unclosed', path: tree.dir });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/regular expression|pattern/i);
  });
});

describe('directory_tree', () => {
  interface Node {
    name: string;
    type: string;
    children?: Node[];
    continued?: true;
  }
  interface TreeOut {
    tree: Node[];
    entries: number;
    nextCursor?: string;
  }
  const names = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.name, ...(n.children ? names(n.children).map((c) => `${n.name}/${c}`) : [])]);
  /** Entries new on this page: directories repeated from an earlier page (continued) are not. */
  const fresh = (nodes: Node[], prefix = ''): string[] =>
    nodes.flatMap((n) => [...(n.continued ? [] : [`${prefix}${n.name}`]), ...(n.children ? fresh(n.children, `${prefix}${n.name}/`) : [])]);

  it('returns nested entries, respecting .gitignore and excludePatterns', async () => {
    const out = await session.ok<TreeOut>('directory_tree', { path: tree.path('src') });
    expect(names(out.tree)).toEqual(['a.ts', 'b.ts', 'c.js', 'nested', 'nested/deep.ts', 'special.txt']);
    expect(out.entries).toBe(6);
    expect(out.nextCursor).toBeUndefined();
    const whole = await session.ok<TreeOut>('directory_tree', { path: tree.dir, excludePatterns: ['many', 'sizes', 'src'] });
    expect(names(whole.tree)).toEqual(['.gitignore']);
  });

  it('includes ignored entries with respect_gitignore false', async () => {
    const out = await session.ok<TreeOut>('directory_tree', { path: tree.dir, respect_gitignore: false, excludePatterns: ['many', 'sizes', 'src'] });
    expect(names(out.tree)).toEqual(['.gitignore', 'build.log', 'ignored-dir', 'ignored-dir/x.ts']);
  });

  it('stops at max_entries and continues with a cursor, listing each entry once', async () => {
    const all = await session.ok<TreeOut>('directory_tree', { path: tree.dir });
    const first = await session.ok<TreeOut>('directory_tree', { path: tree.dir, max_entries: 3 });
    expect(first.entries).toBe(3);
    expect(names(first.tree)).toHaveLength(3);
    expect(first.nextCursor).toBeDefined();
    const seen = fresh(first.tree);
    let cursor = first.nextCursor;
    let pages = 1;
    while (cursor && pages < 100) {
      const page = await session.ok<TreeOut>('directory_tree', { path: tree.dir, max_entries: 3, cursor });
      expect(fresh(page.tree)).toHaveLength(page.entries);
      expect(page.entries).toBeLessThanOrEqual(3);
      seen.push(...fresh(page.tree));
      cursor = page.nextCursor;
      pages++;
    }
    expect(seen).toEqual(fresh(all.tree));
    expect(new Set(seen).size).toBe(seen.length);
  });
});
