// Prompts: the file is embedded, path arguments complete from the allowed directories,
// and the review prompt carries the diffs of edits made earlier in the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { connectInMemory, makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { createFilesystemServer } from './server.js';
import { open, type Session } from './test-support.js';

let tree: TempTree;
let session: Session;

beforeAll(async () => {
  tree = await makeTempTree({
    'notes.md': '# Notes\n\nRemember the milk.\n',
    src: { 'main.ts': 'export function main() {\n  return 1;\n}\n', lib: { 'util.ts': 'export const util = 2;\n' } },
    docs: { 'guide.md': 'guide\n' },
  });
  session = await open({ dirs: [tree.dir] });
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

const completeArg = async (prompt: string, name: string, value: string) =>
  (await session.client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name, value } })).completion.values;

describe('summarize_file', () => {
  it('embeds the file', async () => {
    const { messages } = await session.client.getPrompt({ name: 'summarize_file', arguments: { path: tree.path('notes.md'), focus: 'groceries' } });
    expect(messages[0].content).toMatchObject({ type: 'text' });
    expect((messages[0].content as { text: string }).text).toContain('groceries');
    expect(messages[1].content).toEqual({
      type: 'resource',
      resource: { uri: pathToFileURL(tree.path('notes.md')).href, mimeType: 'text/markdown', text: '# Notes\n\nRemember the milk.\n' },
    });
  });

  it('completes its path from the allowed directories, one segment at a time', async () => {
    expect(await completeArg('summarize_file', 'path', '')).toEqual([`${tree.dir}/`]);
    expect(await completeArg('summarize_file', 'path', `${tree.dir}/`)).toEqual([`${tree.dir}/docs/`, `${tree.dir}/notes.md`, `${tree.dir}/src/`]);
    expect(await completeArg('summarize_file', 'path', `${tree.dir}/src/m`)).toEqual([`${tree.dir}/src/main.ts`]);
  });

  it('refuses a file outside the allowed directories', async () => {
    await expect(session.client.getPrompt({ name: 'summarize_file', arguments: { path: '/etc/hostname' } })).rejects.toThrow(/Access denied/);
  });
});

describe('find_definition', () => {
  it('completes its optional directory with directories only', async () => {
    expect(await completeArg('find_definition', 'directory', `${tree.dir}/`)).toEqual([`${tree.dir}/docs/`, `${tree.dir}/src/`]);
    expect(await completeArg('find_definition', 'directory', `${tree.dir}/src/`)).toEqual([`${tree.dir}/src/lib/`]);
  });

  it('asks to search the given directory, or every allowed one', async () => {
    const scoped = await session.client.getPrompt({ name: 'find_definition', arguments: { symbol: 'main', directory: tree.path('src') } });
    expect((scoped.messages[0].content as { text: string }).text).toContain(`\`main\` is defined under ${tree.path('src')}`);
    const everywhere = await session.client.getPrompt({ name: 'find_definition', arguments: { symbol: 'util' } });
    expect((everywhere.messages[0].content as { text: string }).text).toContain(`under ${tree.dir}`);
  });
});

describe('review_recent_edits', () => {
  it('includes the diff of an edit_file made earlier in the session', async () => {
    await session.ok('edit_file', { path: tree.path('src', 'main.ts'), edits: [{ oldText: 'return 1;', newText: 'return 42;' }] });
    // A dry run is not an edit.
    await session.ok('edit_file', { path: tree.path('notes.md'), edits: [{ oldText: 'milk', newText: 'eggs' }], dryRun: true });
    const { messages } = await session.client.getPrompt({ name: 'review_recent_edits', arguments: {} });
    const text = (messages[0].content as { text: string }).text;
    expect(text).toContain(tree.path('src', 'main.ts'));
    expect(text).toMatch(/^-  return 1;$/m);
    expect(text).toMatch(/^\+  return 42;$/m);
    expect(text).not.toContain('eggs');
  });

  it('filters by path', async () => {
    const { messages } = await session.client.getPrompt({ name: 'review_recent_edits', arguments: { path: tree.path('docs') } });
    expect((messages[0].content as { text: string }).text).toContain('No edits have been made');
  });
});

describe('review_recent_edits across sessions of one server', () => {
  it('shows a session no diff of a file outside its own allowed directories', async () => {
    const server = createFilesystemServer({ dirs: [tree.dir], logLevel: 'error' });
    const inSrc = await connectInMemory(server, { roots: [{ uri: pathToFileURL(tree.path('src')).href }] });
    const inDocs = await connectInMemory(server, { roots: [{ uri: pathToFileURL(tree.path('docs')).href }] });
    try {
      const edit = await inDocs.client.callTool({
        name: 'edit_file',
        arguments: { path: tree.path('docs', 'guide.md'), edits: [{ oldText: 'guide', newText: 'confidential guide' }] },
      });
      expect(edit.isError).toBeFalsy();
      const mine = await inDocs.client.getPrompt({ name: 'review_recent_edits', arguments: {} });
      expect((mine.messages[0].content as { text: string }).text).toContain('confidential guide');
      const theirs = await inSrc.client.getPrompt({ name: 'review_recent_edits', arguments: {} });
      expect((theirs.messages[0].content as { text: string }).text).not.toContain('confidential');
      expect((theirs.messages[0].content as { text: string }).text).not.toContain(tree.path('docs'));
    } finally {
      await inSrc.close();
      await inDocs.close();
      await server.close();
    }
  });
});
