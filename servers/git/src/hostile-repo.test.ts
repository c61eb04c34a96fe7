// A hostile repository, tried as an attacker would (issue 26): every class of attack is
// a table (`describeAttack` from the test harness) with a control that shows the attack
// works under plain git, then each tool call an attacker would make, each asserting the
// call was refused (or harmless) and that no planted program ran.
import { describe, it, expect } from 'vitest';
import { mkdir, readdir, rm, symlink, utimes, writeFile, chmod } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { connectStdio, describeAttack, expectMarker, makeGitRepo, makeTempTree, type GitRepo, type Marker, type TempTree } from '@mcp-reference/test-harness';
import { bin, open, sampleRepo, textOf, type Session } from './test-support.js';

const exec = promisify(execFile);

type Repo = GitRepo & { root: string };

/** Plain git in `dir`, as a user would run it (no user config): the control of each attack. */
async function plainGit(dir: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  return exec('git', args, { cwd: dir, env, timeout: 30_000 }).then(
    (r) => r.stdout + r.stderr,
    (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
  );
}

/** Gives `file` a new mtime (same size): git must read it, through its clean filter, to know whether it changed. */
let tick = 0;
async function touch(file: string): Promise<void> {
  const when = new Date(Date.UTC(2001, 0, 1) + ++tick * 60_000);
  await utimes(file, when, when);
}

interface RepoFixture {
  repo: Repo;
  s: Session;
  marker: Marker;
}

async function openOn(repo: Repo, marker: Marker, extra: string[] = []): Promise<RepoFixture> {
  const s = await open({ repositories: [repo.root, ...extra] });
  return { repo, s, marker };
}

async function close(f: RepoFixture, ...more: { cleanup(): Promise<void> }[]): Promise<void> {
  await f.s.close();
  await f.repo.cleanup();
  for (const tree of more) await tree.cleanup();
}

// 1. Drivers whose names differ only in case: git section names ignore case, subsection
// names do not, so `filter "X"` is another driver than `filter "x"`.
describeAttack<RepoFixture>({
  name: 'a filter, diff and merge driver named in another letter case than a harmless one',
  async arrange(marker) {
    const repo = await sampleRepo();
    await repo.commit('attributes', { '.gitattributes': '*.txt filter=X diff=X merge=X\n', 'a.txt': 'alpha\n', 'b.txt': 'one\n' });
    await repo.git('checkout', '-q', '-b', 'other');
    await repo.commit('other', { 'b.txt': 'two\n' });
    await repo.git('checkout', '-q', 'main');
    // A stash whose pop has to merge a.txt (changed in the stash and on main since).
    await writeFile(repo.path('a.txt'), 'stashed\n');
    await repo.git('stash', 'push', '-q');
    await repo.commit('main moves', { 'a.txt': 'main change\n' });
    for (const [key, value] of [
      ['filter.x.clean', 'cat'],
      ['filter.X.clean', await marker.program('clean')],
      ['filter.X.smudge', await marker.program('smudge')],
      ['diff.x.textconv', 'cat'],
      ['diff.X.textconv', await marker.program('textconv')],
      ['merge.x.driver', 'false'],
      ['merge.X.driver', `${await marker.program('merge-driver')} %O %A %B`],
    ]) await repo.git('config', key, value);
    return openOn(repo, marker);
  },
  reset: async ({ repo }) => touch(repo.path('a.txt')),
  async control({ repo, marker }) {
    await plainGit(repo.root, 'status');
    await expectMarker(marker, 'plain git status');
  },
  cases: [
    { name: 'git_status', outcome: 'harmless', call: ({ s, repo }) => s.call('git_status', { repo_path: repo.root }) },
    { name: 'git_diff_unstaged', outcome: 'harmless', call: ({ s, repo }) => s.call('git_diff_unstaged', { repo_path: repo.root }) },
    { name: 'git_diff HEAD', outcome: 'harmless', call: ({ s, repo }) => s.call('git_diff', { repo_path: repo.root, target: 'HEAD' }) },
    { name: 'git_add', outcome: 'harmless', call: ({ s, repo }) => s.call('git_add', { repo_path: repo.root, files: ['a.txt'] }) },
    { name: 'git_checkout (smudge)', outcome: 'harmless', call: ({ s, repo }) => s.call('git_checkout', { repo_path: repo.root, branch_name: 'other' }) },
    { name: 'git_checkout back', outcome: 'harmless', call: ({ s, repo }) => s.call('git_checkout', { repo_path: repo.root, branch_name: 'main' }) },
    { name: 'git_stash pop (merge driver)', outcome: 'either', call: ({ s, repo }) => s.call('git_stash', { repo_path: repo.root, action: 'pop' }) },
  ],
  cleanup: (f) => close(f),
});

// 2. A submodule's own config runs in the superproject: git status recurses into it.
describeAttack<RepoFixture & { sub: GitRepo }>({
  name: "a filter named by a submodule's own config (.git/modules/<name>/config)",
  async arrange(marker) {
    const sub = await makeGitRepo([{ message: 'sub', files: { '.gitattributes': '*.txt filter=sf\n', 'a.txt': 'alpha\n' } }]);
    const repo = await sampleRepo();
    await repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 's');
    await repo.git('commit', '-qm', 'submodule');
    await plainGit(repo.root, 'config', '-f', repo.path('.git/modules/s/config'), 'filter.sf.clean', await marker.program('submodule-clean'));
    return { ...(await openOn(repo, marker)), sub };
  },
  reset: async ({ repo }) => touch(repo.path('s/a.txt')),
  async control({ repo, marker }) {
    await plainGit(repo.root, 'status');
    await expectMarker(marker, 'plain git status');
  },
  cases: [
    { name: 'git_status', outcome: 'harmless', call: ({ s, repo }) => s.call('git_status', { repo_path: repo.root }) },
    { name: 'git_diff_unstaged', outcome: 'harmless', call: ({ s, repo }) => s.call('git_diff_unstaged', { repo_path: repo.root }) },
    { name: 'git_diff HEAD', outcome: 'harmless', call: ({ s, repo }) => s.call('git_diff', { repo_path: repo.root, target: 'HEAD' }) },
    { name: 'git_add .', outcome: 'harmless', call: ({ s, repo }) => s.call('git_add', { repo_path: repo.root, files: ['.'] }) },
    { name: 'git_commit', outcome: 'either', call: ({ s, repo }) => s.call('git_commit', { repo_path: repo.root, message: 'm' }) },
  ],
  cleanup: (f) => close(f, f.sub),
});

// 3. core.gitProxy is multi-valued and the first match wins: `-c core.gitProxy=` does not
// override the repository's own value.
describeAttack<RepoFixture>({
  name: 'core.gitProxy in the repository config, for a git:// remote',
  async arrange(marker) {
    const repo = await sampleRepo();
    // Port 9 (discard) on loopback: refused at once when no proxy stands in.
    await repo.git('remote', 'add', 'g', 'git://127.0.0.1:9/x');
    await repo.git('config', 'core.gitProxy', await marker.program('git-proxy'));
    return openOn(repo, marker);
  },
  async control({ repo, marker }) {
    await plainGit(repo.root, 'fetch', 'g');
    await expectMarker(marker, 'plain git fetch');
  },
  cases: [
    { name: 'git_fetch', outcome: 'either', call: ({ s, repo }) => s.call('git_fetch', { repo_path: repo.root, remote: 'g' }) },
    { name: 'git_pull', outcome: 'either', call: ({ s, repo }) => s.call('git_pull', { repo_path: repo.root, remote: 'g', branch: 'main' }) },
    { name: 'git_push', outcome: 'either', call: ({ s, repo }) => s.call('git_push', { repo_path: repo.root, remote: 'g', branch: 'main' }) },
  ],
  cleanup: (f) => close(f),
});

// 4. A push target on this machine is a repository too, with hooks as hostile as ours.
const RECEIVE_HOOKS = ['pre-receive', 'update', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout', 'proc-receive'];
async function plantHooks(dir: string, marker: Marker, label: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const hook of RECEIVE_HOOKS) {
    await writeFile(path.join(dir, hook), `#!/bin/sh\nexec '${await marker.program(`${label}-${hook}`)}' "$@" </dev/null\n`);
    await chmod(path.join(dir, hook), 0o755);
  }
}
describeAttack<RepoFixture & { bare: string; checkedOut: string }>({
  name: 'hooks of a local repository the branch is pushed to',
  async arrange(marker) {
    const repo = await sampleRepo();
    const bare = repo.path('target.git');
    await plainGit(repo.root, 'init', '-q', '--bare', bare);
    await plantHooks(path.join(bare, 'hooks'), marker, 'bare');
    await plantHooks(path.join(marker.dir, 'hooks-path'), marker, 'hooksPath');
    await plainGit(bare, 'config', 'core.hooksPath', path.join(marker.dir, 'hooks-path'));
    await plainGit(bare, 'config', 'receive.autogc', 'true');
    // A non-bare target that checks out what is pushed to its current branch (and would run its filters).
    const checkedOut = repo.path('target-wt');
    await plainGit(repo.root, 'clone', '-q', repo.root, checkedOut);
    await plainGit(checkedOut, 'checkout', '-q', 'feature');
    await plainGit(checkedOut, 'config', 'receive.denyCurrentBranch', 'updateInstead');
    await plantHooks(path.join(checkedOut, '.git/hooks'), marker, 'worktree');
    await writeFile(repo.path('.git/info/exclude'), 'target.git\ntarget-wt\n');
    await repo.git('remote', 'add', 'bare', bare);
    await repo.git('remote', 'add', 'wt', checkedOut);
    await repo.git('checkout', '-q', 'feature');
    await repo.commit('to push', { 'pushed.txt': 'pushed\n' });
    await repo.git('checkout', '-q', 'main');
    return { ...(await openOn(repo, marker)), bare, checkedOut };
  },
  async control({ repo, marker }) {
    await plainGit(repo.root, 'push', 'bare', 'main:control');
    await expectMarker(marker, 'plain git push');
  },
  cases: [
    {
      name: 'git_push to a bare repository',
      outcome: 'harmless',
      call: ({ s, repo }) => s.call('git_push', { repo_path: repo.root, remote: 'bare', branch: 'feature' }),
      async check({ repo, bare }, result) {
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(await plainGit(bare, 'rev-parse', 'refs/heads/feature')).toBe(`${await repo.git('rev-parse', 'feature')}\n`);
      },
    },
    { name: 'git_fetch from it', outcome: 'harmless', call: ({ s, repo }) => s.call('git_fetch', { repo_path: repo.root, remote: 'bare' }) },
    {
      name: "git_push to a checked-out branch of a work tree with receive.denyCurrentBranch=updateInstead",
      outcome: 'refused',
      call: ({ s, repo }) => s.call('git_push', { repo_path: repo.root, remote: 'wt', branch: 'feature' }),
      async check({ checkedOut }) {
        expect(await readdir(checkedOut)).not.toContain('pushed.txt');
      },
    },
  ],
  cleanup: (f) => close(f),
});

// 5. Whatever was checked at start-up is stale after any write.
describeAttack<RepoFixture>({
  name: 'an include that appears after the server started',
  async arrange(marker) {
    const repo = await sampleRepo();
    await repo.commit('attributes', { '.gitattributes': '*.txt filter=inc\n', 'a.txt': 'alpha\n' });
    // Relative to .git/config: .git/late.cfg, absent for now.
    await repo.git('config', 'include.path', 'late.cfg');
    return openOn(repo, marker);
  },
  reset: async ({ repo }) => {
    await rm(repo.path('.git/late.cfg'), { force: true });
    await touch(repo.path('a.txt'));
  },
  async control({ repo, marker }) {
    await writeFile(repo.path('.git/late.cfg'), `[filter "inc"]\n\tclean = ${await marker.program('late-clean')}\n`);
    await plainGit(repo.root, 'status');
    await expectMarker(marker, 'plain git status');
  },
  cases: (['git_status', 'git_add', 'git_diff_unstaged'] as const).map((tool) => ({
    name: `${tool} before and after the include appears`,
    outcome: 'harmless' as const,
    async call({ s, repo, marker }: RepoFixture) {
      const args = { repo_path: repo.root, ...(tool === 'git_add' ? { files: ['a.txt'] } : {}) };
      expect((await s.call('git_status', { repo_path: repo.root })).isError).toBeFalsy();
      await writeFile(repo.path('.git/late.cfg'), `[filter "inc"]\n\tclean = ${await marker.program('late-clean')}\n`);
      await touch(repo.path('a.txt'));
      return s.call(tool, args);
    },
  })),
  cleanup: (f) => close(f),
});

// A config listing is reused between calls only while every file it came from stands still.
const lateFilter = async (marker: Marker, name: string) => `[filter "late"]\n\tclean = ${await marker.program(name)}\n`;
describeAttack<RepoFixture>({
  name: 'config written between two calls, after the first listing was kept',
  async arrange(marker) {
    const repo = await sampleRepo();
    await repo.commit('attributes', { '.gitattributes': '*.txt filter=late\n', 'a.txt': 'alpha\n' });
    await repo.git('config', 'extensions.worktreeConfig', 'true');
    // Relative to .git/config: .git/inc.cfg, present from the start and harmless.
    await writeFile(repo.path('.git/inc.cfg'), '[core]\n\tquotePath = false\n');
    await repo.git('config', 'include.path', 'inc.cfg');
    return openOn(repo, marker);
  },
  reset: async ({ repo }) => {
    await plainGit(repo.root, 'config', '--unset-all', 'filter.late.clean');
    await rm(repo.path('.git/config.worktree'), { force: true });
    await writeFile(repo.path('.git/inc.cfg'), '[core]\n\tquotePath = false\n');
    await touch(repo.path('a.txt'));
  },
  async control({ repo, marker }) {
    await writeFile(repo.path('.git/config.worktree'), await lateFilter(marker, 'worktree-clean'));
    await touch(repo.path('a.txt'));
    await plainGit(repo.root, 'status');
    await expectMarker(marker, 'plain git status with a config.worktree');
  },
  cases: (
    [
      ['a filter set in .git/config', async (f) => plainGit(f.repo.root, 'config', 'filter.late.clean', await f.marker.program('config-clean'))],
      ['a config.worktree that did not exist', async (f) => writeFile(f.repo.path('.git/config.worktree'), await lateFilter(f.marker, 'worktree-clean'))],
      ['an included file rewritten in place', async (f) => writeFile(f.repo.path('.git/inc.cfg'), await lateFilter(f.marker, 'include-clean'))],
    ] as [string, (f: RepoFixture) => Promise<unknown>][]
  ).map(([name, change]) => ({
    name: `${name}, between two git_status calls`,
    outcome: 'harmless' as const,
    async call(f: RepoFixture) {
      const args = { repo_path: f.repo.root };
      // A listing is kept once its files have stood still for 2 s (untrusted-config.ts).
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      expect((await f.s.call('git_status', args)).isError).toBeFalsy(); // listed and kept
      expect((await f.s.call('git_status', args)).isError).toBeFalsy(); // reused
      await change(f);
      await touch(f.repo.path('a.txt'));
      return f.s.call('git_status', args);
    },
  })),
  cleanup: (f) => close(f),
});

describeAttack<RepoFixture>({
  name: 'an includeIf.onbranch that a checkout turns on',
  async arrange(marker) {
    const repo = await sampleRepo();
    await repo.commit('attributes', { '.gitattributes': '*.txt filter=late\n', 'a.txt': 'alpha\n' });
    await repo.git('branch', 'evil');
    await writeFile(repo.path('.git/evil.cfg'), await lateFilter(marker, 'onbranch-clean'));
    await repo.git('config', 'includeIf.onbranch:evil.path', 'evil.cfg');
    return openOn(repo, marker);
  },
  reset: async ({ repo }) => {
    await plainGit(repo.root, 'checkout', '-q', 'main');
    await touch(repo.path('a.txt'));
  },
  async control({ repo, marker }) {
    await plainGit(repo.root, 'checkout', '-q', 'evil');
    await touch(repo.path('a.txt'));
    await plainGit(repo.root, 'status');
    await expectMarker(marker, 'plain git status on the branch');
  },
  cases: [
    {
      name: 'git_status on main, then on the branch after a plain checkout',
      outcome: 'harmless',
      async call({ s, repo }) {
        expect((await s.call('git_status', { repo_path: repo.root })).isError).toBeFalsy();
        expect((await s.call('git_status', { repo_path: repo.root })).isError).toBeFalsy();
        await plainGit(repo.root, 'checkout', '-q', 'evil');
        await touch(repo.path('a.txt'));
        return s.call('git_status', { repo_path: repo.root });
      },
    },
  ],
  cleanup: (f) => close(f),
});

describeAttack<RepoFixture>({
  name: 'an include of a file in the work tree, which a reset brings back',
  async arrange(marker) {
    const repo = await sampleRepo();
    await repo.commit('attributes', { '.gitattributes': '*.txt filter=inc\n', 'a.txt': 'alpha\n' });
    await repo.commit('config', { 'tracked.cfg': `[filter "inc"]\n\tclean = ${await marker.program('tracked-clean')}\n` });
    await repo.git('config', 'include.path', '../tracked.cfg');
    await rm(repo.path('tracked.cfg'));
    return openOn(repo, marker);
  },
  reset: async ({ repo }) => touch(repo.path('a.txt')),
  async control({ repo, marker }) {
    await plainGit(repo.root, 'reset', '-q', '--hard');
    await touch(repo.path('a.txt'));
    await plainGit(repo.root, 'status');
    await expectMarker(marker, 'plain git status after a reset');
    await rm(repo.path('tracked.cfg'));
  },
  cases: [
    { name: 'git_reset hard', outcome: 'refused', call: ({ s, repo }) => s.call('git_reset', { repo_path: repo.root, hard: true }) },
    { name: 'git_status', outcome: 'refused', call: ({ s, repo }) => s.call('git_status', { repo_path: repo.root }) },
    {
      name: 'git_add, with the file back',
      outcome: 'refused',
      async call({ s, repo }) {
        await repo.git('checkout', '--', 'tracked.cfg');
        await touch(repo.path('a.txt'));
        return s.call('git_add', { repo_path: repo.root, files: ['a.txt'] });
      },
    },
  ],
  cleanup: (f) => close(f),
});

// 6, 7. Nothing outside the allowed repositories comes out.
const SECRET = 'SECRET-7f3a first line of an outside file';
describeAttack<RepoFixture & { other: GitRepo }>({
  name: 'objects/info/alternates lending another repository’s objects, with a ref to its secret',
  async arrange(marker) {
    const other = await makeGitRepo([{ message: 'secret', files: { 'credentials.md': `${SECRET}\n` } }]);
    const repo = await sampleRepo();
    await writeFile(repo.path('.git/objects/info/alternates'), `${path.join(other.dir, '.git/objects')}\n`);
    await writeFile(repo.path('.git/refs/heads/leak'), `${await other.git('rev-parse', 'HEAD')}\n`);
    return { ...(await openOn(repo, marker)), other };
  },
  async control({ repo }) {
    expect(await plainGit(repo.root, 'show', 'leak:credentials.md')).toContain(SECRET);
  },
  cases: (
    [
      ['git_file_at_ref', { ref: 'leak', path: 'credentials.md' }],
      ['git_show', { revision: 'leak' }],
      ['git_log', { ref: 'leak' }],
      ['git_grep', { pattern: 'SECRET', ref: 'leak' }],
    ] as const
  ).map(([tool, args]) => ({
    name: tool,
    outcome: 'refused' as const,
    call: ({ s, repo }: RepoFixture) => s.call(tool, { repo_path: repo.root, ...args }),
    check: (_f: RepoFixture, result: { content: unknown[] }) => {
      expect(JSON.stringify(result)).not.toContain('SECRET-7f3a');
      expect(JSON.stringify(result)).toMatch(/alternates lends objects from .* outside the allowed repositories/);
    },
  })),
  cleanup: (f) => close(f, f.other),
});

/** Plants a symlink in .git for one call, and removes it after. */
function throughLink(file: string, tool: string, args: Record<string, unknown>, before?: (repo: Repo) => Promise<void>) {
  return async ({ s, repo, outside }: RepoFixture & { outside: TempTree }) => {
    await before?.(repo);
    await mkdir(path.dirname(repo.path('.git', file)), { recursive: true });
    await symlink(outside.path('secret.txt'), repo.path('.git', file));
    try {
      return await s.call(tool, { repo_path: repo.root, ...args });
    } finally {
      await rm(repo.path('.git', file), { force: true });
    }
  };
}
describeAttack<RepoFixture & { outside: TempTree }>({
  name: 'metadata files of .git that are symlinks to a file outside',
  async arrange(marker) {
    const outside = await makeTempTree({ 'secret.txt': `${SECRET}\n` });
    const repo = await sampleRepo();
    return { ...(await openOn(repo, marker)), outside };
  },
  async control({ repo, outside }) {
    await symlink(outside.path('secret.txt'), repo.path('.git/MERGE_HEAD'));
    await writeFile(repo.path('src/a.txt'), 'staged\n');
    await repo.git('add', 'src/a.txt');
    try {
      expect(await plainGit(repo.root, 'commit', '-m', 'x')).toContain(SECRET);
    } finally {
      await rm(repo.path('.git/MERGE_HEAD'));
      await repo.git('reset', '-q');
    }
  },
  cases: [
    ['shallow', 'git_status', {}],
    ['shallow', 'git_log', {}],
    ['MERGE_HEAD', 'git_commit', { message: 'm' }],
    ['info/grafts', 'git_log', {}],
    ['refs/heads/leak', 'git_branch', { branch_type: 'local' }],
    ['packed-refs', 'git_branch', { branch_type: 'local' }],
  ].map(([file, tool, args]) => ({
    name: `${file} → outside, then ${tool as string}`,
    outcome: 'refused' as const,
    call: throughLink(file as string, tool as string, args as Record<string, unknown>, async (repo) => {
      await writeFile(repo.path('src/a.txt'), `staged ${file}\n`);
      await repo.git('add', 'src/a.txt');
    }),
    check: (_f: unknown, result: { content: unknown[] }) => {
      expect(JSON.stringify(result)).not.toContain('SECRET-7f3a');
      expect(JSON.stringify(result)).toMatch(/is a symbolic link to .* outside the allowed repositories/);
    },
  })),
  cleanup: (f) => close(f, f.outside),
});

describe('metadata links that stay inside are fine', () => {
  it('a .git/hooks linked from elsewhere, and a ref symlinked to another ref of the same repository, are used', async () => {
    const repo = await sampleRepo();
    const outside = await makeTempTree({ hooks: {} });
    await rm(repo.path('.git/hooks'), { recursive: true, force: true });
    await symlink(outside.path('hooks'), repo.path('.git/hooks'));
    await symlink(repo.path('.git/refs/heads/main'), repo.path('.git/refs/heads/alias'));
    const s = await open({ repositories: [repo.root] });
    try {
      const out = await s.ok('git_branch', { repo_path: repo.root, branch_type: 'local' });
      expect(JSON.stringify(out)).toContain('alias');
    } finally {
      await s.close();
      await repo.cleanup();
      await outside.cleanup();
    }
  });
});

describe('the metadata check remembers clean directories, and still sees a new link', () => {
  it('a link planted in a directory checked before (its mtime even set back) is refused at the next call', async () => {
    const repo = await sampleRepo();
    const outside = await makeTempTree({ 'secret.txt': `${SECRET}\n` });
    const s = await open({ repositories: [repo.root] });
    try {
      // Directories older than a few seconds are remembered: age them all.
      const old = new Date(Date.now() - 3_600_000);
      const age = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isDirectory()) await age(path.join(dir, entry.name));
        await utimes(dir, old, old);
      };
      await age(repo.path('.git/refs'));
      expect((await s.call('git_branch', { repo_path: repo.root, branch_type: 'local' })).isError).toBeFalsy();
      expect((await s.call('git_branch', { repo_path: repo.root, branch_type: 'local' })).isError).toBeFalsy();
      await symlink(outside.path('secret.txt'), repo.path('.git/refs/heads/leak'));
      await utimes(repo.path('.git/refs/heads'), old, old);
      const result = await s.call('git_branch', { repo_path: repo.root, branch_type: 'local' });
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toMatch(/refs\/heads\/leak is a symbolic link/);
      expect(JSON.stringify(result)).not.toContain('SECRET-7f3a');
    } finally {
      await s.close();
      await repo.cleanup();
      await outside.cleanup();
    }
  });
});

describe('the process and its descriptors', () => {
  it.runIf(process.platform === 'linux')('git_log leaves no descriptor behind, even for logs whose process is left paused and then dropped', async () => {
    const repo = await sampleRepo();
    // Enough commits that git fills the pipe and waits: the stream is paused when dropped.
    await writeFile(repo.path('many.sh'), 'i=0; while [ $i -lt 700 ]; do git commit -q --allow-empty -m "c$i"; i=$((i+1)); done\n');
    await exec('sh', [repo.path('many.sh')], { cwd: repo.root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    const s = await open({ repositories: [repo.root] });
    const descriptors = async () => (await readdir('/proc/self/fd')).length;
    try {
      // Warm up: the open-stream pool (8) fills, and everything loaded once is loaded.
      for (let i = 0; i < 12; i++) await s.ok('git_log', { repo_path: repo.root, max_count: 5 });
      const before = await descriptors();
      for (let i = 0; i < 60; i++) await s.ok('git_log', { repo_path: repo.root, max_count: 5 });
      // Counting, not timing: 60 calls leaked about 60 before the fix.
      expect(await descriptors()).toBeLessThan(before + 10);
    } finally {
      await s.close();
      await repo.cleanup();
    }
  }, 120_000);

  const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].find((file) => existsSync(file));
  it.runIf(process.platform === 'linux' && prlimit !== undefined && existsSync(bin))(
    'out of file descriptors, a spawn that fails is an error answer and the server keeps serving (needs a build)',
    async () => {
      const repo = await sampleRepo();
      // A descriptor limit just above what the server needs to start: concurrent calls run out.
      const c = await connectStdio(prlimit!, ['--nofile=48:48', process.execPath, bin, '--repository', repo.root]);
      try {
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) => c.client.callTool({ name: ['git_status', 'git_log', 'git_file_at_ref'][i % 3], arguments: { repo_path: repo.root, path: 'README.md' } })),
        );
        const failed = results.filter((r) => r.isError).map((r) => textOf(r as never));
        expect(failed.length, 'no spawn failed: the limit did not bite, so this proves nothing').toBeGreaterThan(0);
        for (const text of failed) expect(text).toMatch(/Could not start git|out of file descriptors/);
        // Still alive, and serving once descriptors are free again.
        const after = await c.client.callTool({ name: 'git_status', arguments: { repo_path: repo.root } });
        expect(after.isError, textOf(after as never)).toBeFalsy();
      } finally {
        await c.close();
        await repo.cleanup();
      }
    },
    60_000,
  );
});
