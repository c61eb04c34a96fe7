import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeServerContract, makeTempTree, manyFiles } from '@mcp-reference/test-harness';
import { createFilesystemServer } from './server.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

describeServerContract('filesystem', {
  bin,
  async setup() {
    const tree = await makeTempTree({ ...manyFiles(8), docs: manyFiles(6, (i) => `doc-${i}.md`) });
    const watched = tree.path('file-00001.txt');
    return {
      args: [tree.dir],
      create: ({ pageSize }) => createFilesystemServer({ dirs: [tree.dir], pageSize, logLevel: 'error' }),
      pageSize: 5,
      linkingCall: { name: 'search_files', arguments: { path: tree.dir, pattern: '**/*.md' } },
      completion: {
        ref: { type: 'ref/resource', uri: 'file:///{+path}' },
        argument: { name: 'path', value: `${tree.dir.slice(1)}/do` },
        expect: `${tree.dir.slice(1)}/docs/`,
      },
      subscription: { uri: pathToFileURL(watched).href, change: () => writeFile(watched, 'changed outside the server\n') },
      cleanup: tree.cleanup,
    };
  },
});
