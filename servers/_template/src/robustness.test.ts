import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { describeServerRobustness, makeTempTree, manyFiles, type CallAnswer } from '@mcp-reference/test-harness';
import { createTemplateServer } from './server.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

describeServerRobustness('template', {
  bin,
  async setup() {
    const notes = await makeTempTree(
      manyFiles(30, (i) => `note-${String(i).padStart(2, '0')}.md`, (i) => `# Note ${i}\n${'hello from a rather long line of note text\n'.repeat(20)}`),
    );
    // The note a replace asks about (its words are not among those the other checks search for).
    await writeFile(path.join(notes.dir, 'asked-about.md'), 'the note as the user saw it\n');
    return {
      args: [notes.dir],
      create: ({ maxResultBytes }) => createTemplateServer({ dirs: [notes.dir], logLevel: 'error', maxResultBytes }),
      quickCall: { name: 'search_notes', arguments: { query: 'note 1' } },
      // A page of 100 matching lines is well over a 2 KB budget.
      bigCall: { name: 'search_notes', arguments: { query: 'hello' }, maxResultBytes: 2_048 },
      // The notes server has no call slow enough to watch; those checks are skipped.
      // Paged results are a text in pieces too: the pages of 50 matches, by nextCursor, are
      // every matching line of every note, in order (as read here from the files).
      continuations: [
        {
          label: 'the 600 lines matching "hello", in pages of 50',
          create: () => createTemplateServer({ dirs: [notes.dir], logLevel: 'error', pageSize: 50 }),
          first: { name: 'search_notes', arguments: { query: 'hello' } },
          next: (answer: CallAnswer) => {
            const cursor = answer.structuredContent?.nextCursor as string | undefined;
            return cursor === undefined ? undefined : { name: 'search_notes', arguments: { query: 'hello', cursor } };
          },
          piece: (answer: CallAnswer) =>
            (answer.structuredContent?.matches as { name: string; line: number; text: string }[]).map((m) => `${m.name}:${m.line}: ${m.text}\n`).join(''),
          whole: async () => {
            let text = '';
            for (const file of (await readdir(notes.dir)).filter((name) => name.endsWith('.md')).sort()) {
              const lines = (await readFile(path.join(notes.dir, file), 'utf8')).split(/\r?\n/);
              lines.forEach((line, i) => {
                if (line.includes('hello')) text += `${file.slice(0, -3)}:${i + 1}: ${line}\n`;
              });
            }
            return text;
          },
        },
      ],
      // Replacing a note asks first; another session replaces it while the user thinks.
      confirmation: {
        create: () => createTemplateServer({ dirs: [notes.dir], logLevel: 'error' }),
        call: { name: 'add_note', arguments: { name: 'asked-about', text: 'the replacement the user agreed to\n' } },
        meanwhile: { name: 'add_note', arguments: { name: 'asked-about', text: 'written by another session meanwhile\n' } },
        state: () => readFile(path.join(notes.dir, 'asked-about.md'), 'utf8'),
      },
      cleanup: notes.cleanup,
    };
  },
});
