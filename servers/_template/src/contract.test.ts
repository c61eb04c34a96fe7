import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describeServerContract, makeTempTree, manyFiles } from '@mcp-reference/test-harness';
import { createTemplateServer } from './server.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

describeServerContract('template', {
  bin,
  async setup() {
    const notes = await makeTempTree(manyFiles(12, (i) => `note-${String(i).padStart(2, '0')}.md`, (i) => `# Note ${i}\nhello from note ${i}\n`));
    return {
      args: [notes.dir],
      create: ({ pageSize }) => createTemplateServer({ dirs: [notes.dir], pageSize, logLevel: 'error' }),
      pageSize: 5,
      linkingCall: { name: 'search_notes', arguments: { query: 'hello' } },
      completion: { ref: { type: 'ref/resource', uri: 'note:///{name}' }, argument: { name: 'name', value: 'note-0' }, expect: 'note-03' },
      subscription: {
        uri: 'note:///note-01',
        change: () => writeFile(notes.path('note-01.md'), '# Note 1\nchanged outside the server\n'),
      },
      cleanup: notes.cleanup,
    };
  },
});
