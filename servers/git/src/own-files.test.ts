// Issue 21 item 1, in the git server: the files of a git directory that the server reads
// itself (HEAD, a ref, packed-refs, commondir, objects/info/alternates, a .git file) get
// the checks a client's read gets. A ref that was a FIFO held a thread of the pool for
// good at every call, and four such calls stalled every repository of the server: a call
// on a healthy repository never answered. Each is now refused at once, naming the file.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeSpecialFile, type SpecialFile, type SpecialFileKind } from '@mcp-reference/test-harness';
import { open, refusal, sampleRepo, type Session } from './test-support.js';

type Repo = Awaited<ReturnType<typeof sampleRepo>>;

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function repository(): Promise<Repo> {
  const repo = await sampleRepo();
  cleanups.push(() => repo.cleanup());
  return repo;
}

async function session(...roots: string[]): Promise<Session> {
  const s = await open({ repositories: roots });
  cleanups.push(() => s.close());
  return s;
}

function special(file: string, kind: SpecialFileKind): SpecialFile {
  const made = makeSpecialFile(file, kind);
  cleanups.push(() => made.dispose());
  return made;
}

describe.runIf(process.platform === 'linux')('a file of a git directory that is not an ordinary file', () => {
  it.each([
    ['refs/heads/main', 'a loose ref'],
    ['HEAD', 'HEAD'],
    ['packed-refs', 'packed-refs, with the ref packed'],
  ])('%s as a FIFO (%s): calls on it are refused at once, naming it, and other repositories are answered', async (file) => {
    const hostile = await repository();
    const healthy = await repository();
    if (file === 'packed-refs') {
      // The ref lives only in packed-refs, which the server then reads.
      await hostile.git('pack-refs', '--all');
      await rm(hostile.path('.git', 'packed-refs'));
    } else await rm(hostile.path('.git', file));
    const fifo = special(hostile.path('.git', file), 'fifo');
    const s = await session(hostile.root, healthy.root);
    // More calls at once than the thread pool has threads: before, each held one for good.
    const refusals = await Promise.all(Array.from({ length: 6 }, () => refusal(s, 'git_file_at_ref', { repo_path: hostile.root, path: 'README.md' })));
    for (const text of refusals) expect(text).toContain(`${path.join(hostile.root, '.git', file)} cannot be read: it is not a regular file`);
    // git itself does not wait on it either: it finds no commit there.
    expect((await s.call('git_log', { repo_path: hostile.root })).content).toBeDefined();
    // The other repository is answered, and so is the hostile one for what needs no ref.
    expect((await s.ok('git_file_at_ref', { repo_path: healthy.root, path: 'README.md' })).content).toBe('# Sample\n');
    expect((await s.ok('git_branch', { repo_path: healthy.root, branch_type: 'local' })).branches).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'main' })]));
    // Answered without the rescuer (a process that opens the FIFO for writing after 8 s, so a stuck server cannot hang the run).
    expect(fifo.rescued(), 'the server waited on the FIFO').toBe(false);
  }, 60_000);

  it.each([
    ['index', 'git_status'],
    ['config', 'git_log'],
    ['info/exclude', 'git_status'],
    ['shallow', 'git_log'],
  ])('%s as a FIFO, which git opens itself: %s is refused at once, naming it, and other repositories are answered', async (file, tool) => {
    const hostile = await repository();
    const healthy = await repository();
    await mkdir(path.dirname(hostile.path('.git', file)), { recursive: true });
    await rm(hostile.path('.git', file), { force: true });
    const fifo = special(hostile.path('.git', file), 'fifo');
    const s = await session(hostile.root, healthy.root);
    // Before, git waited on the FIFO until the call's time limit (120 s), each call holding a git process.
    const refusals = await Promise.all(Array.from({ length: 3 }, () => refusal(s, tool, { repo_path: hostile.root })));
    for (const text of refusals) expect(text).toContain(`${path.join(hostile.root, '.git', file)} cannot be read: it is not a regular file (a FIFO or a device), and git would wait on it`);
    expect((await s.ok('git_status', { repo_path: healthy.root })).branch).toBe('main');
    expect(fifo.rescued(), 'git waited on the FIFO').toBe(false);
  }, 60_000);

  it('commondir or objects/info/alternates as a FIFO: the repository is refused at once, naming the file', async () => {
    const main = await repository();
    const linked = path.join(main.dir, '..', `${path.basename(main.dir)}-wt`);
    await main.git('worktree', 'add', '-q', linked, '-b', 'side');
    cleanups.push(() => rm(linked, { recursive: true, force: true }));
    const gitDir = path.join(main.root, '.git', 'worktrees', path.basename(linked));
    await rm(path.join(gitDir, 'commondir'));
    const commondir = special(path.join(gitDir, 'commondir'), 'fifo');
    const alternates = special(main.path('.git', 'objects', 'info', 'alternates'), 'fifo');
    const s = await session(main.root, linked);
    expect(await refusal(s, 'git_status', { repo_path: linked })).toContain(`${path.join(gitDir, 'commondir')} cannot be read: it is not a regular file`);
    expect(await refusal(s, 'git_status', { repo_path: main.root })).toContain(`${main.path('.git', 'objects', 'info', 'alternates')} cannot be read: it is not a regular file`);
    expect(commondir.rescued() || alternates.rescued(), 'the server waited on a FIFO').toBe(false);
  }, 60_000);

  it('a HEAD that is a symbolic link inside the git directory is still read (git follows it)', async () => {
    const repo = await repository();
    await rm(repo.path('.git', 'HEAD'));
    await symlink('refs/heads/main', repo.path('.git', 'HEAD'));
    const s = await session(repo.root);
    expect((await s.ok('git_file_at_ref', { repo_path: repo.root, path: 'README.md' })).content).toBe('# Sample\n');
  });

  it('a ref larger than a ref can be is refused, not read', async () => {
    const repo = await repository();
    await mkdir(repo.path('.git', 'refs', 'heads'), { recursive: true });
    special(repo.path('.git', 'refs', 'heads', 'huge'), 'huge');
    await writeFile(repo.path('.git', 'HEAD'), 'ref: refs/heads/huge\n');
    const s = await session(repo.root);
    expect(await refusal(s, 'git_file_at_ref', { repo_path: repo.root, path: 'README.md' })).toMatch(/refs\/heads\/huge cannot be read: it is larger than/);
  });
});
