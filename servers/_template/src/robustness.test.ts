import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeServerRobustness, makeTempTree, manyFiles } from '@mcp-reference/test-harness';
import { createTemplateServer } from './server.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

describeServerRobustness('template', {
  bin,
  async setup() {
    const notes = await makeTempTree(
      manyFiles(30, (i) => `note-${String(i).padStart(2, '0')}.md`, (i) => `# Note ${i}\n${'hello from a rather long line of note text\n'.repeat(20)}`),
    );
    return {
      args: [notes.dir],
      create: ({ maxResultBytes }) => createTemplateServer({ dirs: [notes.dir], logLevel: 'error', maxResultBytes }),
      quickCall: { name: 'search_notes', arguments: { query: 'note 1' } },
      // A page of 100 matching lines is well over a 2 KB budget.
      bigCall: { name: 'search_notes', arguments: { query: 'hello' }, maxResultBytes: 2_048 },
      // The notes server has no call slow enough to watch; those checks are skipped.
      cleanup: notes.cleanup,
    };
  },
});
