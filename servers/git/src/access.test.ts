import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { open, sampleRepo, refusal } from './test-support.js';

describe('which repositories a session may use', () => {
  let a: Awaited<ReturnType<typeof sampleRepo>>;
  let b: Awaited<ReturnType<typeof sampleRepo>>;
  let elsewhere: TempTree;
  beforeAll(async () => {
    a = await sampleRepo();
    b = await sampleRepo();
    elsewhere = await makeTempTree({ 'plain/file.txt': 'x\n' });
  });
  afterAll(async () => {
    await a.cleanup();
    await b.cleanup();
    await elsewhere.cleanup();
  });

  it('with no --repository and no roots, the server starts and every tool says how to configure one', async () => {
    const s = await open({ repositories: [] });
    const tools = (await s.client.listTools()).tools;
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      const message = await refusal(s, tool.name, { repo_path: a.root, branch_type: 'local', files: ['x'], message: 'm', target: 'HEAD', revision: 'HEAD', branch_name: 'x', file: 'README.md', pattern: 'x', path: 'README.md', action: 'list', tag_name: 'x' });
      expect(message, tool.name).toMatch(/--repository/);
    }
    await s.close();
  });

  it('refuses a repository outside the --repository list, and a plain directory', async () => {
    const s = await open({ repositories: [a.root] });
    expect(await refusal(s, 'git_status', { repo_path: b.root })).toMatch(/outside the allowed repositories/);
    expect(await refusal(s, 'git_status', { repo_path: '/' })).toMatch(/outside/);
    expect(await refusal(s, 'git_status', { repo_path: elsewhere.dir })).toMatch(/outside/);
    await s.close();
  });

  it('resolves symlinks: a link inside that leads to another repository is refused', async () => {
    await symlink(b.root, a.path('link-to-b'));
    const s = await open({ repositories: [a.root] });
    expect(await refusal(s, 'git_log', { repo_path: a.path('link-to-b') })).toMatch(/outside/);
    // A symlink given on the command line is judged by where it leads.
    const link = elsewhere.path('link-to-a');
    await symlink(a.root, link);
    const viaLink = await open({ repositories: [await realpath(link)] });
    expect((await viaLink.ok('git_status', { repo_path: link })).repository).toBe(a.root);
    await viaLink.close();
    await s.close();
  });

  it('refuses a .git file that points outside the allowed repositories, with no effect there', async () => {
    const decoy = await makeTempTree({ 'file.txt': 'decoy\n' });
    await writeFile(path.join(decoy.dir, '.git'), `gitdir: ${path.join(b.root, '.git')}\n`);
    const s = await open({ repositories: [decoy.dir] });
    expect(await refusal(s, 'git_add', { repo_path: decoy.dir, files: ['file.txt'] })).toMatch(/outside the allowed repositories/);
    expect(await b.git('diff', '--cached', '--name-only')).toBe('');
    await s.close();
    await decoy.cleanup();
  });

  it('a linked worktree is usable only when its repository is allowed too', async () => {
    const wt = path.join(elsewhere.dir, 'wt');
    await a.git('worktree', 'add', '-q', wt, 'feature');
    const realWt = await realpath(wt);
    const alone = await open({ repositories: [realWt] });
    expect(await refusal(alone, 'git_status', { repo_path: realWt })).toMatch(/outside the allowed repositories/);
    await alone.close();
    const both = await open({ repositories: [realWt, a.root] });
    expect((await both.ok('git_status', { repo_path: realWt })).branch).toBe('feature');
    await both.close();
    await a.git('worktree', 'remove', '--force', wt);
  });

  it('client roots narrow the --repository list and never widen it', async () => {
    const rootIn = (dir: string) => [{ uri: pathToFileURL(dir).href }];
    // A root inside a grants a (the repository that contains it), not b.
    const narrowed = await open({ repositories: [a.root, b.root] }, { roots: rootIn(path.join(a.root, 'src')) });
    expect((await narrowed.ok('git_status', { repo_path: a.root })).repository).toBe(a.root);
    expect(await refusal(narrowed, 'git_status', { repo_path: b.root })).toMatch(/outside/);
    await narrowed.close();
    // Roots that all lie outside grant nothing.
    const outside = await open({ repositories: [a.root] }, { roots: rootIn(elsewhere.dir) });
    expect(await refusal(outside, 'git_status', { repo_path: a.root })).toMatch(/--repository/);
    await outside.close();
    // Without --repository, a root inside a repository grants that repository.
    const rootsOnly = await open({ repositories: [] }, { roots: rootIn(path.join(b.root, 'docs')) });
    expect((await rootsOnly.ok('git_status', { repo_path: b.root })).repository).toBe(b.root);
    expect(await refusal(rootsOnly, 'git_status', { repo_path: a.root })).toMatch(/outside/);
    // Roots changes are picked up.
    await rootsOnly.setRoots(rootIn(a.root));
    await rootsOnly.waitForNotification('notifications/resources/list_changed', undefined, 5_000);
    expect((await rootsOnly.ok('git_status', { repo_path: a.root })).repository).toBe(a.root);
    await rootsOnly.close();
  });

  it('a client that lists thousands of roots: each is used, and an error names ten of them', async () => {
    // 3,000 roots: a plain directory each, and b's work tree. A refusal listed every one of
    // them (180 KB), and each check scanned them all.
    const count = 3_000;
    for (let i = 0; i < count; i += 500) {
      await Promise.all(Array.from({ length: Math.min(500, count - i) }, (_, k) => mkdir(path.join(elsewhere.dir, 'many', `r${i + k}`), { recursive: true })));
    }
    const roots = [...Array.from({ length: count }, (_, i) => path.join(elsewhere.dir, 'many', `r${i}`)), b.root].map((dir) => ({ uri: pathToFileURL(dir).href }));
    const session = await open({ repositories: [] }, { roots });
    try {
      expect((await session.ok('git_status', { repo_path: b.root })).repository).toBe(b.root);
      const refused = await refusal(session, 'git_status', { repo_path: a.root });
      expect(refused).toMatch(/outside the allowed repositories: .* \(and 2,991 more\)/);
      expect(refused.length).toBeLessThan(5_000);
    } finally {
      await session.close();
    }
  });

  it('a nested repository inside an allowed one is its own repository; a plain subdirectory is the outer one', async () => {
    const inner = a.path('vendor/inner');
    await mkdir(inner, { recursive: true });
    const { execFile } = await import('node:child_process');
    const run = (args: string[]) => new Promise((resolve, reject) => execFile('git', args, { cwd: inner }, (e, out) => (e ? reject(e) : resolve(out))));
    await run(['init', '-q']);
    await writeFile(path.join(inner, 'i.txt'), 'i\n');
    await run(['add', 'i.txt']);
    await run(['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'inner']);
    const s = await open({ repositories: [a.root] });
    expect((await s.ok('git_log', { repo_path: inner })).commits[0].subject).toBe('inner');
    expect((await s.ok('git_log', { repo_path: a.path('vendor') })).commits[0].subject).toBe('second');
    await s.close();
  });
});
