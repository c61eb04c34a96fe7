// Issue 21 item 1: a file the server reads for itself (a .gitignore met on a walk) gets
// the checks a client's read gets. A FIFO there froze the whole process until some
// process opened it for writing; a symlink to /dev/zero grew the heap to a gigabyte; a
// 300 MB one stalled every session; one symlinked outside the allowed directories was
// followed. Each is now skipped, reported once as a warning, and the call answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { makeSpecialFile, makeTempTree, type SpecialFile, type SpecialFileKind, type TempTree } from '@mcp-reference/test-harness';
import { open, type Session } from './test-support.js';

let tree: TempTree;
let outside: TempTree;
let session: Session;
let special: SpecialFile | undefined;

beforeEach(async () => {
  tree = await makeTempTree({ 'a.txt': 'needle\n', sub: { 'b.txt': 'needle\n' } });
  // Ignores everything: were it followed, every listing below would come back empty.
  outside = await makeTempTree({ 'rules.txt': '*\n' });
  session = await open({ dirs: [tree.dir] });
  await session.client.setLoggingLevel('warning');
});

afterEach(async () => {
  special?.dispose();
  special = undefined;
  await session?.close();
  await tree?.cleanup();
  await outside?.cleanup();
});

/** The four tools that read .gitignore files, each with the names it must still show. */
function calls(dir: string): [string, Record<string, unknown>, string[]][] {
  return [
    ['list_directory', { path: dir }, [dir === '.' ? 'a.txt' : 'b.txt']],
    ['grep_files', { path: '.', pattern: 'needle' }, ['a.txt', 'b.txt']],
    ['directory_tree', { path: '.' }, ['a.txt', 'b.txt']],
    ['search_files', { path: '.', pattern: '**/*.txt' }, ['a.txt', 'b.txt']],
  ];
}

function warnings(): string {
  return session.notifications
    .filter((n) => n.method === 'notifications/message')
    .map((n) => JSON.stringify(n.params))
    .join('\n');
}

describe.runIf(process.platform === 'linux')('a .gitignore that is not an ordinary file', () => {
  it.each([
    ['fifo', 'the root', '.gitignore', /not a regular file/],
    ['fifo', 'a subdirectory', 'sub/.gitignore', /not a regular file/],
    ['dev-zero-symlink', 'the root', '.gitignore', /symbolic link/],
    ['outside-symlink', 'a subdirectory', 'sub/.gitignore', /symbolic link/],
    ['huge', 'the root', '.gitignore', /larger than/],
  ] as const)('%s in %s: every walking tool answers (a ping too), skips it and says so once', async (kind, _where, file, reason) => {
    special = makeSpecialFile(tree.path(file), kind as SpecialFileKind, { outsideTarget: outside.path('rules.txt') });
    const all = calls(file.startsWith('sub') ? 'sub' : '.');
    for (const [name, args, names] of all) {
      const [out] = await Promise.all([session.ok<Record<string, unknown>>(name, args), session.client.ping()]);
      // The rules were not applied: the files are still found.
      for (const shown of names) expect(JSON.stringify(out), name).toContain(shown);
    }
    // Answered without the rescuer (a separate process that opens a FIFO for writing
    // after 8 s, so that a server blocked on it cannot hang the test run).
    expect(special.rescued(), 'the server waited on the FIFO').toBe(false);
    const said = warnings();
    expect(said).toMatch(reason);
    // Once per call that met it, not once per directory under it.
    const times = said.split('\n').filter((line) => line.includes('.gitignore')).length;
    expect(times).toBeGreaterThan(0);
    expect(times).toBeLessThanOrEqual(all.length);
  }, 30_000);

  it('an ordinary .gitignore still applies, and nothing is reported', async () => {
    writeFileSync(tree.path('.gitignore'), 'a.txt\n');
    mkdirSync(tree.path('sub', 'deep'));
    writeFileSync(tree.path('sub', '.gitignore'), 'deep/\n');
    const listed = await session.ok<{ entries: { name: string }[] }>('list_directory', { path: '.' });
    expect(listed.entries.map((e) => e.name)).not.toContain('a.txt');
    const found = await session.ok<{ matches: { path: string }[] }>('search_files', { path: '.', pattern: '**/*' });
    expect(found.matches.map((m) => m.path)).not.toContain(tree.path('sub', 'deep'));
    expect(warnings()).toBe('');
  });
});
