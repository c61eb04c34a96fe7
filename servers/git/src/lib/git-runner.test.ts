import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readdir, readlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sampleRepo } from '../test-support.js';
import { describeFailure, driverOverrides, gitEnv, GitError, runGit, spawnGit, withholdFileContent } from './git-runner.js';

describe('driverOverrides', () => {
  it('blanks every program of each filter, diff and merge driver, keeping the subsection as written', () => {
    const overrides = driverOverrides(['filter.LFSish.clean', 'filter.LFSish.smudge', 'diff.pdf.textconv', 'merge.ours.driver', 'core.bare', 'filter.a.b.c.process']);
    expect(overrides).toEqual([
      '-c', 'filter.LFSish.clean=', '-c', 'filter.LFSish.smudge=', '-c', 'filter.LFSish.process=', '-c', 'filter.LFSish.required=false',
      '-c', 'diff.pdf.textconv=', '-c', 'diff.pdf.command=',
      '-c', 'merge.ours.driver=false',
      '-c', 'filter.a.b.c.clean=', '-c', 'filter.a.b.c.smudge=', '-c', 'filter.a.b.c.process=', '-c', 'filter.a.b.c.required=false',
    ]);
  });
});

describe('driverOverrides, for names that differ only in case', () => {
  it('blanks `filter.x` and `filter.X` both: git matches subsections case-sensitively', () => {
    const overrides = driverOverrides(['filter.x.clean', 'filter.X.clean', 'merge.m.driver', 'merge.M.driver']);
    expect(overrides).toContain('filter.x.clean=');
    expect(overrides).toContain('filter.X.clean=');
    expect(overrides).toContain('filter.X.smudge=');
    expect(overrides).toContain('merge.m.driver=false');
    expect(overrides).toContain('merge.M.driver=false');
  });
});

describe('withholdFileContent', () => {
  it("withholds what git quotes from a file it read (MERGE_HEAD, shallow, grafts), keeping the rest of its words", () => {
    expect(withholdFileContent('fatal: Corrupt MERGE_HEAD file (TOP SECRET)')).toBe('fatal: Corrupt MERGE_HEAD file ([file content withheld])');
    expect(withholdFileContent('fatal: bad shallow line: password=hunter2\nnext')).toBe('fatal: bad shallow line: [file content withheld]\nnext');
    expect(withholdFileContent('error: bad graft data: secret')).toBe('error: bad graft data: [file content withheld]');
    expect(describeFailure('fatal: Corrupt MERGE_HEAD file (TOP SECRET)', ['commit'])).not.toContain('TOP SECRET');
  });
});

describe('gitEnv', () => {
  it("drops the caller's GIT_* variables but the identity, and points git at the checked repository", () => {
    const saved = { ...process.env };
    Object.assign(process.env, { GIT_DIR: '/elsewhere', GIT_CONFIG_PARAMETERS: "'core.hookspath'='x'", GIT_AUTHOR_NAME: 'Ada' });
    try {
      const env = gitEnv({ gitDir: '/r/.git', root: '/r' });
      expect(env).toMatchObject({ GIT_DIR: '/r/.git', GIT_WORK_TREE: '/r', GIT_AUTHOR_NAME: 'Ada', GIT_TERMINAL_PROMPT: '0' });
      expect(env.GIT_CONFIG_PARAMETERS).toBeUndefined();
    } finally {
      process.env = saved;
    }
  });
});

describe('describeFailure', () => {
  it('names a leftover index.lock and says the server leaves it alone', () => {
    const message = describeFailure("fatal: Unable to create '/r/.git/index.lock': File exists.\n\nAnother git process seems to be running", ['add']);
    expect(message).toContain('/r/.git/index.lock');
    expect(message).toMatch(/never deletes it/);
  });
});

/** git processes whose working directory is `dir` (Linux /proc). */
async function gitProcessesIn(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    if ((await readlink(`/proc/${entry}/cwd`).catch(() => '')) !== dir) continue;
    if (/git/.test(await readlink(`/proc/${entry}/exe`).catch(() => ''))) found.push(Number(entry));
  }
  return found;
}

describe('runGit', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  beforeAll(async () => {
    repo = await sampleRepo();
  });
  afterAll(async () => {
    await repo.cleanup();
  });
  const target = () => ({ root: repo.root, gitDir: path.join(repo.root, '.git') });

  it('returns output byte for byte, binary and not UTF-8 too', async () => {
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    await writeFile(repo.path('bin.dat'), bytes);
    const blob = (await repo.git('hash-object', '-w', 'bin.dat')).trim();
    const { stdout, code, truncated } = await runGit(target(), ['cat-file', 'blob', blob]);
    expect({ code, truncated }).toEqual({ code: 0, truncated: false });
    expect(stdout.equals(bytes)).toBe(true);
  });

  it("passes the exit codes a caller accepts, and fails with git's own words otherwise", async () => {
    const missing = await runGit(target(), ['show-ref', '--verify', '--quiet', 'refs/heads/none'], { okCodes: [1] });
    expect(missing).toMatchObject({ code: 1, truncated: false });
    expect(missing.stdout.length).toBe(0);
    await expect(runGit(target(), ['show-ref', '--verify', '--quiet', 'refs/heads/none'])).rejects.toThrow(GitError);
    await expect(runGit(target(), ['rev-parse', '--verify', 'no-such-thing'])).rejects.toThrow(/git rev-parse failed: fatal: Needed a single revision/);
  });

  it('refuses an argument too long for the system in words, on either way of starting git', async () => {
    for (const direct of [false, true]) {
      await expect(runGit(target(), ['log', '--end-of-options', 'a'.repeat(200_000)], { direct })).rejects.toThrow(/too long for git \(196 KB/);
      await expect(runGit(target(), ['log', 'a\0b'], { direct })).rejects.toThrow(/NUL character/);
    }
    expect(() => spawnGit(target(), ['log', 'a'.repeat(200_000)])).toThrow(GitError);
    const many = Array.from({ length: 3_000 }, (_, i) => `file-${i}-${'x'.repeat(90)}`);
    await expect(runGit(target(), ['add', '--', ...many])).rejects.toThrow(/arguments are too long for git together \(more than \d+ KB\)/);
  });

  it('cuts output at maxBytes, marks it truncated and stops git', async () => {
    await writeFile(repo.path('big.txt'), 'line of text\n'.repeat(200_000));
    const blob = (await repo.git('hash-object', '-w', 'big.txt')).trim();
    let seen = 0;
    const out = await runGit(target(), ['cat-file', 'blob', blob], { maxBytes: 10_000, onData: (bytes) => (seen = bytes) });
    expect(out.truncated).toBe(true);
    expect(out.stdout.toString()).toBe('line of text\n'.repeat(1_000).slice(0, 10_000));
    expect(seen).toBeLessThanOrEqual(10_000);
    expect(await gitProcessesIn(repo.root)).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('cancelling stops git before the call settles', async () => {
    const controller = new AbortController();
    // hash-object --stdin waits for input that never comes.
    const call = runGit(target(), ['hash-object', '--stdin'], { signal: controller.signal });
    for (let i = 0; i < 200 && (await gitProcessesIn(repo.root)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await gitProcessesIn(repo.root)).length).toBe(1);
    controller.abort();
    await expect(call).rejects.toThrow('The call was cancelled; git was stopped.');
    expect(await gitProcessesIn(repo.root)).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('stops git at the time limit', async () => {
    await expect(runGit(target(), ['hash-object', '--stdin'], { timeoutMs: 300 })).rejects.toThrow(/took longer than 0 s and was stopped/);
    expect(await gitProcessesIn(repo.root)).toEqual([]);
  });

  it("goes through simple-git, whose guard still refuses a program we never set (an alias), and nothing runs", async () => {
    const marker = repo.path('alias-ran');
    await expect(runGit(target(), ['-c', `alias.boom=!touch ${marker}`, 'boom'])).rejects.toThrow(/Could not run git: .*alias.*allowUnsafeAlias/);
    expect(existsSync(marker)).toBe(false);
  });

  it("lets our own settings through simple-git's guard: every SAFE_CONFIG entry, driver overrides, GIT_PROXY_COMMAND, a pack program", async () => {
    const config = driverOverrides(['filter.lfs.clean', 'diff.x.textconv', 'merge.m.driver']);
    const { stdout } = await runGit(target(), ['config', '--get', 'filter.lfs.clean'], { config, okCodes: [1] });
    expect(stdout.toString()).toBe('\n');
    // `ls-remote` to the repository itself, with the upload-pack remote.ts names for a local remote.
    const listed = await runGit(target(), ['-c', 'protocol.file.allow=always', 'ls-remote', '--upload-pack=git -c core.hooksPath=/dev/null upload-pack', repo.root, 'HEAD']);
    expect(listed.stdout.toString()).toMatch(/^[0-9a-f]{40}\tHEAD\n$/);
  });

  it("runs in a repository whose drivers are named like what simple-git's guard looks for (myalias, init-templatedir)", async () => {
    const config = driverOverrides(['filter.myalias.clean', 'merge.init-templatedir.driver']);
    const { code } = await runGit(target(), ['status', '--porcelain'], { config });
    expect(code).toBe(0);
  });

  it('a git that cannot be started is an error answer that says so', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(runGit(target(), ['status'])).rejects.toThrow(/Could not run git: spawn git ENOENT\. Is git installed and on PATH\?/);
    } finally {
      process.env.PATH = saved;
    }
  });

  it("runs in the checked repository whatever the caller's GIT_DIR says", async () => {
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = '/nonexistent/.git';
    try {
      expect((await runGit(target(), ['rev-parse', '--show-toplevel'])).stdout.toString().trim()).toBe(repo.root);
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });
});
