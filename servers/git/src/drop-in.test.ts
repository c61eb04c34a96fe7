// What a user swapping this server in for the official one relies on (issue 26 items 9-11):
// paths as git has them, messages as given, and the official schema's shapes.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { open, sampleRepo, linksOf, textOf, type Session } from './test-support.js';
import { uris } from './lib/uris.js';
import { repoId } from './lib/repo.js';

describe('paths with spaces, quotes and non-ASCII letters', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  const names = ['% of dogs.txt', 'quo"te.txt', 'é x.txt', 'tab\there.txt', 'bin file.dat'];
  beforeAll(async () => {
    repo = await sampleRepo();
    await repo.commit('odd names', Object.fromEntries(names.map((name) => [name, name.endsWith('.dat') ? '\0binary\0' : `${name}\n`])));
    s = await open({ repositories: [repo.root] });
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
  });

  it('git_show names each file exactly, in its files and its links, and git_file_at_ref reads each', async () => {
    const result = await s.call('git_show', { repo_path: repo.root, revision: 'HEAD' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const files = (result.structuredContent as { files: { path: string }[] }).files.map((f) => f.path).sort();
    expect(files).toEqual([...names].sort());
    const id = repoId(repo.root);
    const sha = await repo.git('rev-parse', 'HEAD');
    for (const name of names) expect(linksOf(result)).toContain(uris.file(id, sha, name));
    for (const name of names.filter((n) => !n.endsWith('.dat'))) {
      const out = await s.ok('git_file_at_ref', { repo_path: repo.root, path: name });
      expect(out.content).toBe(`${name}\n`);
    }
  });

  it('git_diff_unstaged names a modified file with a space exactly', async () => {
    await writeFile(repo.path('% of dogs.txt'), 'changed\n');
    const out = await s.ok('git_diff_unstaged', { repo_path: repo.root });
    expect(out.files.map((f: { path: string }) => f.path)).toEqual(['% of dogs.txt']);
    await repo.git('checkout', '--', '% of dogs.txt');
  });
});

describe('commit messages are stored as given', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  beforeAll(async () => {
    repo = await sampleRepo();
    s = await open({ repositories: [repo.root] });
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
  });

  it('a message starting with "#", with blank lines and indentation, is kept byte for byte', async () => {
    const message = '#42 fix the crash\n\n  indented line\n\n\n# not a comment\ntrailing spaces   \nend';
    await writeFile(repo.path('src/a.txt'), 'fixed\n');
    await s.ok('git_add', { repo_path: repo.root, files: ['src/a.txt'] });
    const out = await s.ok('git_commit', { repo_path: repo.root, message });
    expect(out.subject).toBe('#42 fix the crash');
    expect((await repo.git('cat-file', 'commit', 'HEAD')).split('\n\n').slice(1).join('\n\n')).toBe(message);
  });

  it('an annotated tag message is kept the same way', async () => {
    await s.ok('git_create_tag', { repo_path: repo.root, tag_name: 'hash', message: '#1 release\n\n  notes' });
    expect(await repo.git('tag', '-l', '--format=%(contents)', 'hash')).toBe('#1 release\n\n  notes');
  });
});
