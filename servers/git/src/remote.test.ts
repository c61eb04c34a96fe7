import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { chmod, realpath, stat, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { promisify } from 'node:util';
import path from 'node:path';
import { connectInMemory, makeTempTree, slowPerson, unlessStillWaiting, type TempTree } from '@mcp-reference/test-harness';
import { open, sampleRepo, refusal, sleep, textOf, type Session } from './test-support.js';
import { MAX_LISTED_UPDATES } from './tools/git-fetch.js';

const exec = promisify(execFile);
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd, env })).stdout.trim();
const exists = (file: string) => stat(file).then(() => true, () => false);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `git daemon` serving `base` on 127.0.0.1 (fetch and push). */
async function startDaemon(base: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'git',
    ['daemon', '--reuseaddr', '--listen=127.0.0.1', `--port=${port}`, `--base-path=${base}`, '--export-all', '--enable=receive-pack', '--informative-errors', base],
    { env, stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    await sleep(50);
  }
  return {
    url: `git://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('remote operations against git daemon on 127.0.0.1', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let served: TempTree;
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let bare: string;
  let other: string;
  let s: Session;

  beforeAll(async () => {
    repo = await sampleRepo();
    served = await makeTempTree({});
    bare = path.join(await realpath(served.dir), 'upstream.git');
    await exec('git', ['clone', '-q', '--bare', repo.root, bare], { env });
    other = path.join(await realpath(served.dir), 'other');
    await exec('git', ['clone', '-q', bare, other], { env });
    daemon = await startDaemon(await realpath(served.dir));
    await repo.git('remote', 'add', 'origin', `${daemon.url}/upstream.git`);
    await repo.git('fetch', '-q', 'origin');
    await repo.git('branch', '--set-upstream-to=origin/main', 'main');
    s = await open({ repositories: [repo.root] }, { elicit: () => ({ action: 'accept', content: { confirm: true } }) });
  }, 30_000);
  afterAll(async () => {
    await s.close();
    await daemon.stop();
    await repo.cleanup();
    await served.cleanup();
  });

  const commitInOther = async (file: string) => {
    await git(other, 'fetch', '-q', 'origin');
    await git(other, 'reset', '-q', '--hard', 'origin/main');
    await writeFile(path.join(other, file), `${file}\n`);
    await git(other, 'add', file);
    await git(other, '-c', 'user.name=O', '-c', 'user.email=o@e.invalid', 'commit', '-q', '-m', `add ${file}`);
    await git(other, 'push', '-q', 'origin', 'main');
    return git(other, 'rev-parse', 'HEAD');
  };

  it('git_fetch brings new upstream commits into origin/main, and git_pull fast-forwards', async () => {
    const upstream = await commitInOther('up1.txt');
    const fetched = await s.ok('git_fetch', { repo_path: repo.root });
    expect(fetched.updated).toEqual(expect.arrayContaining([expect.objectContaining({ ref: 'refs/remotes/origin/main', new: upstream })]));
    const pulled = await s.ok('git_pull', { repo_path: repo.root });
    expect(pulled).toMatchObject({ fast_forwarded: true, after: upstream });
    expect(await repo.git('rev-parse', 'HEAD')).toBe(upstream);
  });

  it(`git_fetch lists the first ${MAX_LISTED_UPDATES.toLocaleString('en')} refs it changed and counts them all`, async () => {
    const head = await git(bare, 'rev-parse', 'main');
    const n = MAX_LISTED_UPDATES + 5;
    execFileSync('git', ['update-ref', '--stdin'], { cwd: bare, input: Array.from({ length: n }, (_, i) => `create refs/heads/many/b${String(i).padStart(5, '0')} ${head}\n`).join('') });
    const fetched = await s.ok('git_fetch', { repo_path: repo.root });
    expect(fetched.updated_count).toBe(n);
    expect(fetched.updated).toHaveLength(MAX_LISTED_UPDATES);
    expect(fetched.updated[0]).toEqual({ ref: 'refs/remotes/origin/many/b00000', old: null, new: head });
    expect(textOf(await s.call('git_fetch', { repo_path: repo.root }))).toMatch(/Already up to date/);
    // Every ref was fetched, listed or not.
    expect((await repo.git('for-each-ref', '--format=x', 'refs/remotes/origin/many')).split('\n')).toHaveLength(n);
  });

  it('git_pull never merges: diverged histories fail and change nothing', async () => {
    await commitInOther('up2.txt');
    await repo.commit('local only', { 'local.txt': 'l\n' });
    const before = await repo.git('rev-parse', 'HEAD');
    expect(await refusal(s, 'git_pull', { repo_path: repo.root })).toMatch(/fast-forward|Not possible/i);
    expect(await repo.git('rev-parse', 'HEAD')).toBe(before);
    await repo.git('reset', '-q', '--hard', 'origin/main');
    await s.ok('git_pull', { repo_path: repo.root });
  });

  it('git_push asks first; a decline pushes nothing, an accept pushes', async () => {
    await repo.commit('to push', { 'push.txt': 'p\n' });
    const local = await repo.git('rev-parse', 'HEAD');
    const declining = await open({ repositories: [repo.root] }, { elicit: () => ({ action: 'decline' }) });
    expect(await refusal(declining, 'git_push', { repo_path: repo.root })).toMatch(/declined/);
    await declining.close();
    expect(await git(bare, 'rev-parse', 'main')).not.toBe(local);
    const pushed = await s.ok('git_push', { repo_path: repo.root, branch: 'main' });
    expect(pushed.commit).toBe(local);
    expect(await git(bare, 'rev-parse', 'main')).toBe(local);
  });

  it('git_push pushes the commit the user was shown: a commit made while they are asked is refused, nothing pushed (issue 21, item 4)', async () => {
    await repo.commit('shown', { 'shown.txt': 's\n' });
    const shown = await repo.git('rev-parse', 'HEAD');
    const remoteBefore = await git(bare, 'rev-parse', 'main');
    const person = slowPerson();
    const slow = await open({ repositories: [repo.root] }, { elicit: person.elicit });
    const other = await connectInMemory(slow.server);
    try {
      const push = slow.call('git_push', { repo_path: repo.root });
      expect(await person.asked).toContain(`(${shown.slice(0, 10)})`);
      // Another session of the same server commits meanwhile: not held up by the question.
      await writeFile(repo.path('unseen.txt'), 'u\n');
      await repo.git('add', 'unseen.txt');
      const committed = await unlessStillWaiting(other.client.callTool({ name: 'git_commit', arguments: { repo_path: repo.root, message: 'unseen' } }));
      expect(committed === undefined ? 'still waiting' : committed.isError ? JSON.stringify(committed.content) : 'done').toBe('done');
      person.answer();
      const result = await push;
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/moved .*nothing was pushed/);
      expect(await git(bare, 'rev-parse', 'main')).toBe(remoteBefore);
    } finally {
      person.answer();
      await other.close();
      await slow.close();
    }
  }, 30_000);

  it('git_push is never forced: a non-fast-forward is rejected and the remote keeps its commit', async () => {
    const upstream = await commitInOther('up3.txt');
    await repo.commit('diverging', { 'div.txt': 'd\n' });
    expect(await refusal(s, 'git_push', { repo_path: repo.root })).toMatch(/rejected|fetch first|non-fast-forward/i);
    expect(await git(bare, 'rev-parse', 'main')).toBe(upstream);
  });

  it('--read-only removes fetch, pull and push', async () => {
    const ro = await open({ repositories: [repo.root], readOnly: true });
    const names = (await ro.client.listTools()).tools.map((t) => t.name);
    for (const name of ['git_fetch', 'git_pull', 'git_push']) expect(names).not.toContain(name);
    await ro.close();
  });
});

describe('remotes that are refused', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let outsideRepo: Awaited<ReturnType<typeof sampleRepo>>;
  let scratch: TempTree;
  let marker: string;
  let s: Session;
  beforeAll(async () => {
    repo = await sampleRepo();
    outsideRepo = await sampleRepo();
    scratch = await makeTempTree({});
    marker = scratch.path('MARKER');
    const script = scratch.path('evil.sh');
    await writeFile(script, `#!/bin/sh\necho "$0 $*" >> "${marker}"\n`);
    await chmod(script, 0o755);
    await repo.git('remote', 'add', 'ext', `ext::sh -c touch% ${marker}`);
    await repo.git('remote', 'add', 'fileurl', `file://${outsideRepo.root}`);
    await repo.git('remote', 'add', 'localpath', outsideRepo.root);
    await repo.git('remote', 'add', 'http', 'http://127.0.0.1:1/x.git');
    await repo.git('remote', 'add', 'rewritten', 'https://example.invalid/x.git');
    await repo.git('config', `url.ext::sh -c touch% ${marker}% #.insteadOf`, 'https://example.invalid/');
    await repo.git('remote', 'add', 'helper', 'https://example.org/x.git');
    await repo.git('config', 'remote.helper.vcs', 'evil');
    await repo.git('remote', 'add', 'dashhost', 'ssh://-oProxyCommand=touch%20x/y');
    // A remote inside the allowed repository is fine, but its uploadpack/receivepack programs never run.
    await repo.git('remote', 'add', 'self', '.');
    await repo.git('config', 'remote.self.uploadpack', script);
    await repo.git('config', 'remote.self.receivepack', script);
    s = await open({ repositories: [repo.root] });
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
    await outsideRepo.cleanup();
    await scratch.cleanup();
  });

  it('ext::, file:// and local paths outside, plain http, insteadOf rewrites, remote helpers and "-" hosts are refused with no effect', async () => {
    const refsBefore = await repo.git('for-each-ref');
    for (const remote of ['ext', 'fileurl', 'localpath', 'http', 'rewritten', 'helper', 'dashhost', 'nope', '--upload-pack=touch x']) {
      for (const tool of ['git_fetch', 'git_pull', 'git_push']) {
        await refusal(s, tool, { repo_path: repo.root, remote });
        expect(await exists(marker), `${tool} ${remote}`).toBe(false);
      }
    }
    expect(await repo.git('for-each-ref')).toBe(refsBefore);
  });

  it('a remote inside the allowed repositories works, without its uploadpack/receivepack programs', async () => {
    await s.ok('git_fetch', { repo_path: repo.root, remote: 'self' });
    await s.ok('git_push', { repo_path: repo.root, remote: 'self', branch: 'feature' });
    expect(await exists(marker)).toBe(false);
  });
});
