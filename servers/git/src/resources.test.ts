import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { makeTempTree } from '@mcp-reference/test-harness';
import { open, sampleRepo, type Session } from './test-support.js';
import { repoId } from './lib/repo.js';
import { uris } from './lib/uris.js';

const exec = promisify(execFile);
const textOf = (read: { contents: object[] }) => (read.contents[0] as { text: string }).text;

describe('resources', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  let id: string;
  beforeAll(async () => {
    repo = await sampleRepo();
    await repo.git('branch', 'topic/x');
    id = repoId(repo.root);
    s = await open({ repositories: [repo.root], pageSize: 100 });
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
  });

  it('lists every branch and tag of each repository', async () => {
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      uris.branch(id, 'feature'),
      uris.branch(id, 'main'),
      uris.branch(id, 'topic/x'),
      uris.tag(id, 'v1.0'),
    ]);
  });

  it('pages a repository with thousands of branches, never one huge list', async () => {
    const many = await sampleRepo();
    const head = await many.git('rev-parse', 'HEAD');
    const input = Array.from({ length: 2_500 }, (_, i) => `create refs/heads/b-${String(i).padStart(5, '0')} ${head}\n`).join('');
    await new Promise<void>((resolve, reject) => {
      const child = execFile('git', ['update-ref', '--stdin'], { cwd: many.dir }, (error) => (error ? reject(error) : resolve()));
      child.stdin!.end(input);
    });
    const m = await open({ repositories: [many.root], pageSize: 100 });
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await m.client.listResources(cursor ? { cursor } : undefined);
      expect(page.resources.length).toBeLessThanOrEqual(100);
      for (const r of page.resources) {
        expect(seen.has(r.uri)).toBe(false);
        seen.add(r.uri);
      }
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(seen.size).toBe(2_500 + 3); // + main, feature, v1.0
    expect(pages).toBe(26);
    await m.close();
    await many.cleanup();
  }, 60_000);

  it('keeps two repositories with the same directory name apart', async () => {
    const parent = await makeTempTree({});
    const dirs = [path.join(parent.dir, 'one/app'), path.join(parent.dir, 'two/app')];
    for (const dir of dirs) {
      await mkdir(dir, { recursive: true });
      await exec('git', ['init', '-q', '-b', 'main'], { cwd: dir });
      await writeFile(path.join(dir, 'f.txt'), dir);
      await exec('git', ['add', 'f.txt'], { cwd: dir });
      await exec('git', ['-c', 'user.name=T', '-c', 'user.email=t@e.invalid', 'commit', '-q', '-m', dir], { cwd: dir });
    }
    const real = await Promise.all(dirs.map((d) => realpath(d)));
    const both = await open({ repositories: real });
    const listed = (await both.client.listResources()).resources.map((r) => r.uri);
    expect(listed).toHaveLength(2);
    expect(new Set(listed.map((uri) => uri.split('/')[2])).size).toBe(2);
    for (const dir of real) {
      const read = await both.client.readResource({ uri: uris.file(repoId(dir), 'main', 'f.txt') });
      expect(read.contents[0]).toMatchObject({ text: dir });
    }
    await both.close();
    await parent.cleanup();
  });

  it('reads a branch, HEAD, the status, a commit and a file at a ref (ref percent-encoded)', async () => {
    const branch = JSON.parse(textOf(await s.client.readResource({ uri: uris.branch(id, 'topic/x') })));
    expect(branch).toMatchObject({ branch: 'topic/x', commit: await repo.git('rev-parse', 'topic/x') });
    expect(branch.log.map((c: { subject: string }) => c.subject)).toEqual(['second', 'first']);
    expect(JSON.parse(textOf(await s.client.readResource({ uri: uris.head(id) }))).branch).toBe('main');
    expect(JSON.parse(textOf(await s.client.readResource({ uri: uris.status(id) }))).clean).toBe(true);
    const sha = await repo.git('rev-parse', 'HEAD');
    expect(textOf(await s.client.readResource({ uri: uris.commit(id, sha) }))).toContain('second');
    expect(uris.file(id, 'topic/x', 'src/a.txt')).toContain('/file/topic%2Fx/src/a.txt');
    expect(textOf(await s.client.readResource({ uri: uris.file(id, 'topic/x', 'src/a.txt') }))).toBe('alpha\nbeta\ngamma\n');
    await expect(s.client.readResource({ uri: uris.file(id, 'main', 'nope.txt') })).rejects.toThrow(/not found/i);
    await expect(s.client.readResource({ uri: uris.branch(id, '../../config') })).rejects.toThrow(/not found/i);
    await expect(s.client.readResource({ uri: uris.branch('other-00000000', 'main') })).rejects.toThrow(/not found/i);
  });

  it('completes refs and, for the chosen ref, paths one segment at a time', async () => {
    const complete = async (uri: string, name: string, value: string, args: Record<string, string>) =>
      (await s.client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value }, context: { arguments: args } })).completion.values;
    expect(await complete('git://{repo}/branch/{+branch}', 'branch', 'fea', { repo: id })).toEqual(['feature']);
    expect(await complete('git://{repo}/branch/{+branch}', 'branch', 'topic/', { repo: id })).toEqual(['topic/x']);
    expect(await complete('git://{repo}/branch/{+branch}', 'repo', '', {})).toEqual([id]);
    expect(await complete('git://{repo}/file/{ref}/{+path}', 'path', 's', { repo: id, ref: 'main' })).toEqual(['src/']);
    expect(await complete('git://{repo}/file/{ref}/{+path}', 'path', 'src/', { repo: id, ref: 'main' })).toEqual(['src/a.txt', 'src/b.txt']);
    expect(await complete('git://{repo}/file/{ref}/{+path}', 'path', 'src/', { repo: id, ref: 'HEAD~1' })).toEqual(['src/a.txt']);
  });

  it('prompts build from the repository and their arguments complete', async () => {
    const values = (await s.client.complete({ ref: { type: 'ref/prompt', name: 'review_branch' }, argument: { name: 'branch', value: 'feat' }, context: { arguments: { repo_path: repo.root } } })).completion.values;
    expect(values).toEqual(['feature']);
    const repoPaths = (await s.client.complete({ ref: { type: 'ref/prompt', name: 'commit_message' }, argument: { name: 'repo_path', value: '' } })).completion.values;
    expect(repoPaths).toEqual([repo.root]);
    await writeFile(repo.path('src/a.txt'), 'staged change\n');
    await repo.git('add', 'src/a.txt');
    const prompt = await s.client.getPrompt({ name: 'commit_message', arguments: { repo_path: repo.root } });
    expect(JSON.stringify(prompt.messages)).toContain('+staged change');
    await repo.git('reset', '-q');
    await repo.git('checkout', '-q', '--', 'src/a.txt');
    const history = await s.client.getPrompt({ name: 'explain_file_history', arguments: { repo_path: repo.root, path: 'src/a.txt' } });
    expect(JSON.stringify(history.messages)).toContain('first');
  });
});

describe('subscriptions', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  let id: string;
  beforeAll(async () => {
    repo = await sampleRepo();
    id = repoId(repo.root);
    s = await open({ repositories: [repo.root] });
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
  });

  const firesOn = async (uri: string, change: () => Promise<unknown>) => {
    await s.client.subscribeResource({ uri });
    const since = s.notifications.length;
    await change();
    await s.waitForNotification('notifications/resources/updated', (p) => p?.uri === uri && s.notifications.length > since, 10_000);
    await s.client.unsubscribeResource({ uri });
  };

  it('HEAD fires on a checkout made by git outside the server', async () => {
    await firesOn(uris.head(id), () => repo.git('checkout', '-q', 'feature'));
    await repo.git('checkout', '-q', 'main');
  });

  it('a branch fires when packed and then moved by git outside the server', async () => {
    await repo.git('pack-refs', '--all');
    await firesOn(uris.branch(id, 'feature'), () => repo.git('update-ref', 'refs/heads/feature', 'HEAD~1'));
  });

  it('the status fires when a file changes in the work tree', async () => {
    await firesOn(uris.status(id), () => writeFile(repo.path('src/a.txt'), 'edited\n'));
  });

  it('watches only subscribed URIs, and stops when unsubscribed', async () => {
    expect(s.server.watchedCount()).toBe(0);
    await s.client.subscribeResource({ uri: uris.branch(id, 'main') });
    expect(s.server.watchedCount()).toBe(1);
    await s.client.unsubscribeResource({ uri: uris.branch(id, 'main') });
    expect(s.server.watchedCount()).toBe(0);
  });
});
