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

describe('the official schema and behaviour a client may rely on', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  beforeAll(async () => {
    repo = await sampleRepo();
    await repo.git('update-ref', 'refs/remotes/origin/main', 'main');
    await repo.git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    s = await open({ repositories: [repo.root] });
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
  });

  it('an explicit null for an optional field means "not given" (defaults apply), and the schema says null is allowed', async () => {
    const log = await s.ok('git_log', { repo_path: repo.root, max_count: null, ref: null, start_timestamp: null, end_timestamp: null, author: null, path: null });
    expect(log.commits.length).toBe(2);
    const diff = await s.call('git_diff_unstaged', { repo_path: repo.root, context_lines: null });
    expect(diff.isError, textOf(diff)).toBeFalsy();
    const tools = (await s.client.listTools()).tools;
    const maxCount = tools.find((t) => t.name === 'git_log')!.inputSchema.properties!.max_count;
    expect(JSON.stringify(maxCount)).toContain('"null"');
    // A required field still refuses null.
    expect((await s.call('git_commit', { repo_path: repo.root, message: null })).isError).toBe(true);
  });

  it('git_checkout of a tag, a commit or a remote branch detaches HEAD there, as git checkout does; a branch attaches it again', async () => {
    for (const target of ['v1.0', await repo.git('rev-parse', 'main~1'), 'origin/main']) {
      const out = await s.ok('git_checkout', { repo_path: repo.root, branch_name: target, force: null });
      expect(out).toMatchObject({ branch: null, detached: true, commit: await repo.git('rev-parse', `${target}^{commit}`) });
      expect(await repo.git('rev-parse', 'HEAD')).toBe(out.commit);
      await expect(repo.git('symbolic-ref', '-q', 'HEAD')).rejects.toThrow();
    }
    const back = await s.ok('git_checkout', { repo_path: repo.root, branch_name: 'main' });
    expect(back).toMatchObject({ branch: 'main', detached: false });
    expect(await repo.git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    const missing = await s.call('git_checkout', { repo_path: repo.root, branch_name: 'nowhere' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/no local branch, tag, remote branch or commit "nowhere"/);
  });

  it('git_add with a glob stages what git add stages for it; pathspec magic is refused', async () => {
    await writeFile(repo.path('one.txt'), '1\n');
    await writeFile(repo.path('docs/two.txt'), '2\n');
    await writeFile(repo.path('three.md'), '3\n');
    await s.ok('git_add', { repo_path: repo.root, files: ['*.txt'] });
    expect((await repo.git('diff', '--cached', '--name-only')).split('\n').sort()).toEqual(['docs/two.txt', 'one.txt']);
    expect((await s.call('git_add', { repo_path: repo.root, files: [':(top)three.md'] })).isError).toBe(true);
    expect(await repo.git('diff', '--cached', '--name-only')).not.toContain('three.md');
    await repo.git('reset', '-q');
  });

  it('origin/HEAD appears in the remote branch list', async () => {
    const out = await s.ok('git_branch', { repo_path: repo.root, branch_type: 'remote' });
    expect(out.branches.map((b: { name: string }) => b.name).sort()).toEqual(['origin/HEAD', 'origin/main']);
  });

  it('errors say what failed: nothing to commit, a leftover index.lock', async () => {
    const nothing = await s.call('git_commit', { repo_path: repo.root, message: 'empty' });
    expect(nothing.isError).toBe(true);
    expect(textOf(nothing)).toMatch(/nothing (added )?to commit/);
    expect(textOf(nothing)).not.toMatch(/git commit failed: git commit failed/);
    await writeFile(repo.path('.git/index.lock'), '');
    try {
      await writeFile(repo.path('one.txt'), 'again\n');
      const locked = await s.call('git_add', { repo_path: repo.root, files: ['one.txt'] });
      expect(locked.isError).toBe(true);
      expect(textOf(locked)).toMatch(/index\.lock/);
    } finally {
      const { rm } = await import('node:fs/promises');
      await rm(repo.path('.git/index.lock'), { force: true });
    }
  });
});
