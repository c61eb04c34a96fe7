import path from 'node:path';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it, expect } from 'vitest';
import { connectInMemory, describeServerRobustness, makeTempTree, manyFiles, textOfEveryWidth, type Continuation } from '@mcp-reference/test-harness';
import { createFilesystemServer } from './server.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

describeServerRobustness('filesystem', {
  bin,
  async setup() {
    const tree = await makeTempTree({ ...manyFiles(20), 'slow.txt': randomLines(40_000, 200) });
    await writeFile(tree.path('big.txt'), 'x'.repeat(64 * 1024));
    const pieces = textOfEveryWidth(60_000);
    await writeFile(tree.path('pieces.txt'), pieces);
    await writeFile(tree.path('asked-about.md'), 'the file as the user saw it\n');
    // Inputs made for backtracking engines: lines of a's ending otherwise, one 256 KB line, a long name.
    await writeFile(tree.path('hostile.txt'), `${'a'.repeat(40)}!\n${'a'.repeat(5_000)}b\n${'x'.repeat(256 * 1024)}\n`);
    await mkdir(tree.path('names'));
    await writeFile(tree.path('names', 'a'.repeat(200)), 'x');
    return {
      args: [tree.dir],
      // The factory passes maxResultBytes on to createServer (its own tools cut reads at the
      // response limit already, so the base's budget is checked with a small one).
      create: ({ maxResultBytes }) => createFilesystemServer({ dirs: [tree.dir], logLevel: 'error', maxResultBytes }),
      quickCall: { name: 'list_directory', arguments: { path: tree.dir } },
      bigCall: { name: 'read_text_file', arguments: { path: tree.path('big.txt') }, maxResultBytes: 16 * 1024 },
      // Patterns are matched in linear time (RE2), but the constant can still be large: a
      // 250-state automaton over 8 MB of random a/b lines (none long enough to
      // match) takes seconds even on a quiet machine, on a worker thread (1 MB took 0.6 s: answered
      // before the cancellation this test sends).
      slowCall: { name: 'grep_files', arguments: { path: tree.path('slow.txt'), pattern: 'a[ab]{250}$' } },
      // The .gitignore a listing reads for itself.
      ownFile: { path: tree.path('.gitignore'), call: { name: 'list_directory', arguments: { path: tree.dir } } },
      // Read in pieces of at most 4 KiB, by byte and by line: the pieces are the file.
      continuations: [
        ...(['start_byte', 'start_line'] as const).map((by): Continuation => ({
          label: `a 60 KB file read on by ${by}`,
          create: () => createFilesystemServer({ dirs: [tree.dir], logLevel: 'error', maxReadBytes: 4096 }),
          first: { name: 'read_text_file', arguments: { path: tree.path('pieces.txt'), [by]: by === 'start_byte' ? 0 : 1 } },
          next: (answer) => {
            // (`truncated` is also true for the last piece: the file has more than its content.)
            const out = answer.structuredContent as { nextStartByte?: number; nextStartLine?: number };
            if (out.nextStartByte === undefined) return undefined;
            // By line where the cut fell at a line end, by byte inside a line longer than the limit.
            const at = by === 'start_line' && out.nextStartLine !== undefined ? { start_line: out.nextStartLine } : { start_byte: out.nextStartByte };
            return { name: 'read_text_file', arguments: { path: tree.path('pieces.txt'), ...at } };
          },
          piece: (answer) => String(answer.structuredContent?.content),
          whole: () => pieces,
        })),
        {
          // Matches by cursor, 7 a page: every .txt file of the directory, in name order.
          label: 'search_files results in pages of 7',
          create: () => createFilesystemServer({ dirs: [tree.dir], logLevel: 'error' }),
          first: { name: 'search_files', arguments: { path: tree.dir, pattern: '*.txt', max_results: 7 } },
          next: (answer) => {
            const cursor = answer.structuredContent?.nextCursor as string | undefined;
            return cursor === undefined ? undefined : { name: 'search_files', arguments: { path: tree.dir, pattern: '*.txt', max_results: 7, cursor } };
          },
          piece: (answer) => (answer.structuredContent?.matches as { path: string }[]).map((m) => `${path.basename(m.path)}\n`).join(''),
          whole: async () => (await readdir(tree.dir)).filter((name) => name.endsWith('.txt')).sort().map((name) => `${name}\n`).join(''),
        },
      ],
      hostilePatterns: [
        { name: 'grep_files', arguments: { path: tree.path('hostile.txt'), pattern: '(a+)+$' } },
        { name: 'grep_files', arguments: { path: tree.path('hostile.txt'), pattern: '(a|b|.)*c' } },
        { name: 'grep_files', arguments: { path: tree.path('hostile.txt'), pattern: '.*zzz' } },
        { name: 'grep_files', arguments: { path: tree.path('hostile.txt'), pattern: '(a*)*\\1c' }, refused: /backreference/ },
        { name: 'search_files', arguments: { path: tree.path('names'), pattern: '@(a+)+b' } },
        { name: 'search_files', arguments: { path: tree.path('names'), pattern: '*a*a*a*a*a*a*b' } },
      ],
      // Replacing a file asks first; another session edits it while the user thinks.
      confirmation: {
        create: () => createFilesystemServer({ dirs: [tree.dir], logLevel: 'error' }),
        call: { name: 'write_file', arguments: { path: tree.path('asked-about.md'), content: 'the replacement the user agreed to\n' } },
        meanwhile: { name: 'edit_file', arguments: { path: tree.path('asked-about.md'), edits: [{ oldText: 'as the user saw it', newText: 'as another session edited it' }] } },
        state: () => readFile(tree.path('asked-about.md'), 'utf8'),
      },
      cleanup: tree.cleanup,
    };
  },
});

/** `count` lines of `length` pseudo-random a's and b's (the same every run). */
function randomLines(count: number, length: number): string {
  let seed = 42;
  let text = '';
  for (let i = 0; i < count; i++) {
    let line = '';
    for (let j = 0; j < length; j++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      line += seed & 0x10000 ? 'a' : 'b';
    }
    text += `${line}\n`;
  }
  return text;
}

describe('filesystem access when the client does not answer roots/list', () => {
  it('refuses every path with a message that says why, instead of widening to the command-line directories', async () => {
    const tree = await makeTempTree({ 'secret.txt': 'inside the ceiling\n' });
    const server = createFilesystemServer({ dirs: [tree.dir], logLevel: 'error' });
    const connection = await connectInMemory(server, { roots: () => new Promise<never>(() => undefined) });
    try {
      const result = await connection.client.callTool({ name: 'read_text_file', arguments: { path: tree.path('secret.txt') } });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0].text;
      expect(text).toMatch(/did not answer roots\/list/);
      expect(text).not.toContain('inside the ceiling');
    } finally {
      await connection.close();
      await server.close();
      await tree.cleanup();
    }
  }, 30_000);

  it('uses the roots of a client that answers (a root inside the ceiling narrows access to it)', async () => {
    const tree = await makeTempTree({ 'inner/ok.txt': 'in the root\n', 'outer.txt': 'outside the root\n' });
    const server = createFilesystemServer({ dirs: [tree.dir], logLevel: 'error' });
    const connection = await connectInMemory(server, { roots: [{ uri: pathToFileURL(tree.path('inner')).href }] });
    try {
      const inside = await connection.client.callTool({ name: 'read_text_file', arguments: { path: tree.path('inner/ok.txt') } });
      expect(inside.isError).toBeFalsy();
      const outside = await connection.client.callTool({ name: 'read_text_file', arguments: { path: tree.path('outer.txt') } });
      expect(outside.isError).toBe(true);
    } finally {
      await connection.close();
      await server.close();
      await tree.cleanup();
    }
  });
});
