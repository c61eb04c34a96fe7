import { describe, it, expect, afterEach } from 'vitest';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { connectInMemory, makeTempTree, type Connection, type TempTree } from '@mcp-reference/test-harness';
import { createTemplateServer } from './server.js';

describe('template server', () => {
  let notes: TempTree;
  let connection: Connection;
  afterEach(async () => {
    await connection?.close();
    await notes?.cleanup();
  });

  it('writes a note atomically and links to it', async () => {
    notes = await makeTempTree({});
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], logLevel: 'error' }));
    const result = await connection.client.callTool({ name: 'add_note', arguments: { name: 'groceries', text: 'milk' } });
    expect(result.structuredContent).toEqual({ name: 'groceries', uri: 'note:///groceries', created: true, bytes: 4 });
    expect(await readFile(notes.path('groceries.md'), 'utf8')).toBe('milk');
    expect(await readdir(notes.dir)).toEqual(['groceries.md']); // no temp file left behind
    const read = await connection.client.readResource({ uri: 'note:///groceries' });
    expect(read.contents[0]).toMatchObject({ text: 'milk', mimeType: 'text/markdown' });
  });

  it('refuses note names that would leave the directory, and writes nothing', async () => {
    notes = await makeTempTree({ sub: {} });
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.path('sub')], logLevel: 'error' }));
    for (const name of ['../escape', 'a/b', '..', '.hidden']) {
      const result = await connection.client.callTool({ name: 'add_note', arguments: { name, text: 'x' } });
      expect(result.isError, name).toBe(true);
    }
    expect(await readdir(notes.dir)).toEqual(['sub']);
    expect(await readdir(notes.path('sub'))).toEqual([]);
  });

  it('asks before replacing a note and keeps it when the user declines', async () => {
    notes = await makeTempTree({ 'plan.md': 'original' });
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], logLevel: 'error' }), {
      elicit: () => ({ action: 'decline' }),
    });
    const result = await connection.client.callTool({ name: 'add_note', arguments: { name: 'plan', text: 'new' } });
    expect(result.isError).toBe(true);
    expect(await readFile(notes.path('plan.md'), 'utf8')).toBe('original');
  });

  it('on 2026-07-28, where the call runs again with the answer, asks again about a note changed between the rounds', async () => {
    notes = await makeTempTree({ 'plan.md': 'original' });
    const asked: string[] = [];
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], logLevel: 'error' }), {
      era: 'modern',
      elicit: async (message) => {
        asked.push(message);
        // While the person reads the question, someone else rewrites the note: the question
        // ("Replace the existing note?") reads the same, but it is not the note they saw.
        if (asked.length === 1) await writeFile(notes.path('plan.md'), 'rewritten meanwhile');
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const result = await connection.client.callTool({ name: 'add_note', arguments: { name: 'plan', text: 'new' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(await readFile(notes.path('plan.md'), 'utf8')).toBe('new');
  });

  it('has no writing tool in read-only mode', async () => {
    notes = await makeTempTree({});
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], readOnly: true, logLevel: 'error' }));
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_notes']);
  });

  it('pages search results with a cursor', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 7; i++) files[`n${i}.md`] = 'needle\n';
    notes = await makeTempTree(files);
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], pageSize: 3, logLevel: 'error' }));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await connection.client.callTool({ name: 'search_notes', arguments: { query: 'needle', ...(cursor ? { cursor } : {}) } });
      const out = result.structuredContent as { matches: { name: string }[]; nextCursor?: string };
      seen.push(...out.matches.map((m) => m.name));
      cursor = out.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
  });

  it('answers summarize_note for a missing or invalid note with -32602 and a message', async () => {
    notes = await makeTempTree({ 'a.md': 'x' });
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], logLevel: 'error' }));
    for (const [name, message] of [['missing', /no note named "missing"/], ['../escape', /Invalid note name/]] as const) {
      const error = await connection.client.getPrompt({ name: 'summarize_note', arguments: { name } }).catch((e) => e);
      expect(error.code, name).toBe(-32602);
      expect(error.message, name).toMatch(message);
    }
  });

  it('tells the model why a note name was refused', async () => {
    notes = await makeTempTree({});
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], logLevel: 'error' }));
    const result = await connection.client.callTool({ name: 'add_note', arguments: { name: '../x', text: 'x' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(/^Invalid note name "\.\.\/x": use 1-100 letters/);
  });

  it('completes the optional style argument of summarize_note', async () => {
    notes = await makeTempTree({ 'a.md': 'x' });
    connection = await connectInMemory(createTemplateServer({ dirs: [notes.dir], logLevel: 'error' }));
    const answer = await connection.client.complete({ ref: { type: 'ref/prompt', name: 'summarize_note' }, argument: { name: 'style', value: 'b' } });
    expect(answer.completion.values).toEqual(['bullet points']);
  });
});
