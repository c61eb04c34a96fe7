// A repository is untrusted input, and so is every string a client sends. These tests
// build a repository whose config names a program for every hook and driver git knows,
// and send option-shaped values in every argument of every tool; each checks both the
// refusal and that nothing happened.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { ERAS, makeGitRepo, makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { open, sampleRepo, textOf, type Session } from './test-support.js';
import { uris } from './lib/uris.js';
import { repoId } from './lib/repo.js';

const exec = promisify(execFile);
const exists = (file: string) => stat(file).then(() => true, () => false);

/** Every program-naming setting git has, each pointing at a script that writes the marker. */
async function poisonRepository(root: string, marker: string, scripts: string): Promise<void> {
  await mkdir(scripts, { recursive: true });
  const script = async (name: string) => {
    const file = path.join(scripts, name);
    await writeFile(file, `#!/bin/sh\necho "${name} $*" >> "${marker}"\n`);
    await chmod(file, 0o755);
    return file;
  };
  const hooks = path.join(root, '.git/hooks');
  for (const hook of ['pre-commit', 'commit-msg', 'prepare-commit-msg', 'post-commit', 'post-checkout', 'reference-transaction', 'post-index-change', 'pre-auto-gc', 'post-rewrite', 'pre-push']) {
    await writeFile(path.join(hooks, hook), `#!/bin/sh\necho "hook ${hook}" >> "${marker}"\n`);
    await chmod(path.join(hooks, hook), 0o755);
  }
  const hooksPath = path.join(scripts, 'hooks');
  await mkdir(hooksPath);
  for (const hook of ['pre-commit', 'post-commit', 'post-checkout', 'reference-transaction']) {
    await writeFile(path.join(hooksPath, hook), `#!/bin/sh\necho "hooksPath ${hook}" >> "${marker}"\n`);
    await chmod(path.join(hooksPath, hook), 0o755);
  }
  const included = path.join(scripts, 'included.cfg');
  await writeFile(included, `[filter "inc"]\n\tclean = ${await script('inc-clean')}\n\tsmudge = ${await script('inc-smudge')}\n`);
  const settings: [string, string][] = [
    ['core.hooksPath', hooksPath],
    ['core.fsmonitor', await script('fsmonitor')],
    ['core.pager', await script('pager')],
    ['core.editor', await script('editor')],
    ['sequence.editor', await script('sequence-editor')],
    ['core.sshCommand', await script('ssh')],
    ['core.askPass', await script('askpass')],
    ['credential.helper', await script('credential')],
    ['diff.external', await script('diff-external')],
    ['diff.evil.textconv', await script('textconv')],
    ['diff.evil.command', await script('diff-command')],
    ['filter.evil.clean', await script('clean')],
    ['filter.evil.smudge', await script('smudge')],
    ['filter.evil.required', 'true'],
    ['filter.Proc.process', await script('process-filter')],
    ['merge.evil.driver', await script('merge-driver')],
    ['gpg.program', await script('gpg')],
    ['gpg.ssh.program', await script('gpg-ssh')],
    ['commit.gpgSign', 'true'],
    ['tag.gpgSign', 'true'],
    ['log.showSignature', 'true'],
    ['core.alternateRefsCommand', await script('alternate-refs')],
    ['uploadpack.packObjectsHook', await script('pack-objects-hook')],
    ['include.path', included],
    ['core.worktree', scripts],
    ['remote.self.uploadpack', await script('uploadpack')],
    ['remote.self.receivepack', await script('receivepack')],
  ];
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  for (const [key, value] of settings) await exec('git', ['config', key, value], { cwd: root, env });
}

describe('a malicious repository runs no program', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let outside: TempTree;
  let marker: string;
  let s: Session;

  beforeAll(async () => {
    repo = await sampleRepo();
    // Attributes are committed first, so checkout, stash and add pick the drivers.
    await repo.commit('attributes', {
      '.gitattributes': '* filter=evil diff=evil merge=evil\n*.inc filter=inc\n*.proc filter=Proc\n',
      'x.inc': 'included\n',
      'y.proc': 'processed\n',
    });
    await repo.git('branch', 'other');
    await repo.git('remote', 'add', 'self', '.');
    outside = await makeTempTree({});
    marker = outside.path('MARKER');
    await poisonRepository(repo.root, marker, outside.path('scripts'));
    s = await open({ repositories: [repo.root] });
    await s.client.listTools();
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
    await outside.cleanup();
  });

  it('the poisoned config does run programs under plain git (the test is able to see them)', async () => {
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_DIR: path.join(repo.root, '.git'), GIT_WORK_TREE: repo.root };
    await writeFile(repo.path('src/a.txt'), 'plain git\n');
    await exec('git', ['diff'], { cwd: repo.root, env }).catch(() => undefined);
    expect(await exists(marker)).toBe(true);
    await exec('git', ['checkout', '--', 'src/a.txt'], { cwd: repo.root, env }).catch(() => undefined);
    await rm(marker, { force: true });
  }, 30_000);

  it('no tool, resource or prompt runs one', async () => {
    const r = repo.root;
    await writeFile(repo.path('src/a.txt'), 'edited\n');
    await writeFile(repo.path('x.inc'), 'edited include\n');
    await writeFile(repo.path('y.proc'), 'edited proc\n');
    await writeFile(repo.path('new.txt'), 'new\n');
    const calls: [string, Record<string, unknown>][] = [
      ['git_status', { repo_path: r }],
      ['git_diff_unstaged', { repo_path: r }],
      ['git_add', { repo_path: r, files: ['src/a.txt', 'new.txt', 'x.inc', 'y.proc'] }],
      ['git_diff_staged', { repo_path: r }],
      ['git_diff', { repo_path: r, target: 'HEAD~1' }],
      ['git_commit', { repo_path: r, message: 'through the server' }],
      ['git_log', { repo_path: r, max_count: 5 }],
      ['git_show', { repo_path: r, revision: 'HEAD' }],
      ['git_branch', { repo_path: r, branch_type: 'all' }],
      ['git_blame', { repo_path: r, file: 'src/a.txt' }],
      ['git_grep', { repo_path: r, pattern: 'e' }],
      ['git_grep', { repo_path: r, pattern: 'e', ref: 'HEAD~1' }],
      ['git_file_at_ref', { repo_path: r, path: 'x.inc' }],
      ['git_tag', { repo_path: r }],
      ['git_create_tag', { repo_path: r, tag_name: 'signed-maybe', message: 'annotated' }],
      ['git_create_branch', { repo_path: r, branch_name: 'made-here' }],
      ['git_checkout', { repo_path: r, branch_name: 'other' }],
      ['git_checkout', { repo_path: r, branch_name: 'main' }],
      ['git_worktree_list', { repo_path: r }],
      ['git_reset', { repo_path: r }],
      ['git_fetch', { repo_path: r, remote: 'self' }],
      ['git_pull', { repo_path: r, remote: 'self', branch: 'main' }],
      ['git_push', { repo_path: r, remote: 'self', branch: 'made-here' }],
    ];
    for (const [name, args] of calls) {
      const result = await s.call(name, args);
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      expect(await exists(marker), `${name} ran: ${await readFile(marker, 'utf8').catch(() => '')}`).toBe(false);
    }
    // Stash round trip over a dirty tree (clean/smudge, merge on pop).
    await writeFile(repo.path('x.inc'), 'stash me\n');
    for (const action of ['push', 'list', 'pop']) {
      const result = await s.call('git_stash', { repo_path: r, action });
      expect(result.isError, `git_stash ${action}: ${textOf(result)}`).toBeFalsy();
      expect(await exists(marker), `git_stash ${action} ran: ${await readFile(marker, 'utf8').catch(() => '')}`).toBe(false);
    }
    expect(await readFile(repo.path('x.inc'), 'utf8')).toBe('stash me\n');
    const hard = await s.call('git_reset', { repo_path: r, hard: true });
    expect(hard.isError, textOf(hard)).toBeFalsy();
    // core.worktree named another directory: the server used the repository's own.
    expect(await exists(path.join(outside.path('scripts'), 'new.txt'))).toBe(false);
    const id = repoId(r);
    for (const uri of [uris.commit(id, await repo.git('rev-parse', 'HEAD')), uris.file(id, 'HEAD', 'x.inc'), uris.branch(id, 'main'), uris.head(id), uris.status(id)]) {
      await s.client.readResource({ uri });
    }
    await s.client.getPrompt({ name: 'commit_message', arguments: { repo_path: r } });
    await s.client.getPrompt({ name: 'review_branch', arguments: { repo_path: r, branch: 'made-here', base: 'other' } });
    await s.client.getPrompt({ name: 'explain_file_history', arguments: { repo_path: r, path: 'src/a.txt' } });
    expect(await exists(marker), await readFile(marker, 'utf8').catch(() => '')).toBe(false);
  }, 60_000);
});

// The option and path tables run with both clients (2025 and 2026-07-28), in memory.
describe.each(ERAS)('no client value reaches git as an option (%s client)', (era) => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let outside: TempTree;
  let s: Session;
  const ATTACKS = (dir: string) => [`--output=${dir}/pwned`, '-o', `--upload-pack=touch ${dir}/pwned`, `--exec=touch ${dir}/pwned`, '-f', '-D', '-h', '--force', `-O${dir}/pwned`];

  beforeAll(async () => {
    repo = await sampleRepo();
    outside = await makeTempTree({});
    s = await open({ repositories: [repo.root] }, { era });
    await s.client.listTools();
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
    await outside.cleanup();
  });

  const state = async () =>
    [
      await repo.git('for-each-ref'),
      await repo.git('symbolic-ref', 'HEAD'),
      await repo.git('status', '--porcelain', '--untracked-files=all'),
      await repo.git('stash', 'list'),
    ].join('\n---\n');

  // One tool's arguments per test (issue 21 item 16): each has its own time limit, so a
  // busy machine slows them all without one test having to fit every tool in its budget.
  const base = (r: string): Record<string, Record<string, unknown>> => ({
    git_status: { repo_path: r },
    git_diff_unstaged: { repo_path: r, path: 'src' },
    git_diff_staged: { repo_path: r, path: 'src' },
    git_diff: { repo_path: r, target: 'HEAD', path: 'src' },
    git_commit: { repo_path: r, message: 'm' },
    git_add: { repo_path: r, files: ['src/a.txt'] },
    git_reset: { repo_path: r },
    git_log: { repo_path: r, start_timestamp: '2000-01-01', end_timestamp: '2090-01-01', path: 'src', author: 'Test', ref: 'main' },
    git_create_branch: { repo_path: r, branch_name: 'b', base_branch: 'main' },
    git_checkout: { repo_path: r, branch_name: 'feature' },
    git_show: { repo_path: r, revision: 'HEAD' },
    git_branch: { repo_path: r, branch_type: 'all', contains: 'HEAD', not_contains: 'HEAD~1' },
    git_blame: { repo_path: r, file: 'src/a.txt', ref: 'HEAD' },
    git_grep: { repo_path: r, pattern: 'alpha', pathspec: 'src', ref: 'HEAD' },
    git_tag: { repo_path: r, pattern: 'v*', contains: 'HEAD' },
    git_create_tag: { repo_path: r, tag_name: 't', revision: 'HEAD', message: 'm' },
    git_file_at_ref: { repo_path: r, path: 'src/a.txt', ref: 'HEAD' },
    git_stash: { repo_path: r, action: 'list', message: 'm' },
    git_worktree_list: { repo_path: r },
    git_fetch: { repo_path: r, remote: 'origin' },
    git_pull: { repo_path: r, remote: 'origin', branch: 'main' },
    git_push: { repo_path: r, remote: 'origin', branch: 'main' },
  });
  // Values that are content, not names: they may succeed, but must not act as options.
  const content = new Set(['git_commit.message', 'git_create_tag.message', 'git_stash.message', 'git_grep.pattern']);

  it('the table below covers every tool', async () => {
    const tools = (await s.client.listTools()).tools.map((t) => t.name);
    expect(Object.keys(base('')).sort()).toEqual([...tools].sort());
  });

  for (const tool of Object.keys(base(''))) {
    it(`${tool}: every string argument refused or inert, and nothing changes`, async () => {
      const args = base(repo.root)[tool];
      let before = await state();
      const pwned = outside.path('pwned');
      for (const [key, value] of Object.entries(args)) {
        if (typeof value !== 'string' && !Array.isArray(value)) continue;
        for (const attack of ATTACKS(outside.dir)) {
          const call = { ...args, [key]: Array.isArray(value) ? [attack] : attack };
          const result = await s.call(tool, call);
          const label = `${tool}.${key} = ${attack}: ${textOf(result).slice(0, 200)}`;
          if (!content.has(`${tool}.${key}`)) expect(result.isError, label).toBe(true);
          expect(await exists(pwned), label).toBe(false);
          if (content.has(`${tool}.${key}`)) {
            // A tag whose message looks like an option is still just a tag: drop it and go on.
            if (tool === 'git_create_tag' && !result.isError) await repo.git('tag', '-d', 't');
            before = await state();
          }
          expect(await state(), label).toBe(before);
        }
      }
    }, 60_000);
  }

  it('a commit message that looks like options is stored as the message', async () => {
    await writeFile(repo.path('src/a.txt'), 'changed\n');
    await s.ok('git_add', { repo_path: repo.root, files: ['src/a.txt'] });
    const out = await s.ok('git_commit', { repo_path: repo.root, message: '--amend --no-edit -F /etc/passwd' });
    expect(await repo.git('log', '-1', '--format=%B')).toBe('--amend --no-edit -F /etc/passwd');
    expect(await repo.git('rev-list', '--count', 'HEAD')).toBe('3');
    expect(out.subject).toBe('--amend --no-edit -F /etc/passwd');
  });
});

describe.each(ERAS)('paths stay inside the work tree (%s client)', (era) => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let other: Awaited<ReturnType<typeof makeGitRepo>>;
  let s: Session;
  beforeAll(async () => {
    repo = await sampleRepo();
    other = await makeGitRepo([{ message: 'o', files: { 'secret.txt': 'secret\n' } }]);
    s = await open({ repositories: [repo.root] }, { era });
  });
  afterAll(async () => {
    await s.close();
    await repo.cleanup();
    await other.cleanup();
  });

  it('git_add refuses ../, absolute paths elsewhere, .git and symlinked directories that lead out (CVE-2026-27735)', async () => {
    const { symlink } = await import('node:fs/promises');
    await writeFile(path.join(other.dir, 'secret.txt'), 'changed secret\n');
    await symlink(other.dir, repo.path('link-out'));
    const rel = path.relative(repo.root, path.join(other.dir, 'secret.txt'));
    for (const file of [rel, '../x', path.join(other.dir, 'secret.txt'), '.git/config', 'link-out/secret.txt', 'link-out/missing/deeper.txt', 'src/../../x']) {
      const result = await s.call('git_add', { repo_path: repo.root, files: [file] });
      expect(result.isError, file).toBe(true);
    }
    expect(await repo.git('diff', '--cached', '--name-only')).toBe('');
    expect(await other.git('diff', '--cached', '--name-only')).toBe('');
  });

  it('a path of 150,000 missing levels and a 300 KB pattern are refused in words, at once', async () => {
    // The path took two minutes (an lstat of the 300 KB string for each level up), then
    // both failed as "spawn E2BIG", thrown where nothing expected it.
    const deep = await s.call('git_log', { repo_path: repo.root, path: `${'a/'.repeat(150_000)}f` });
    expect(deep.isError).toBe(true);
    expect(textOf(deep)).toMatch(/too long for git \(293 KB; at most 100 KB each/);
    const long = await s.call('git_grep', { repo_path: repo.root, pattern: 'a'.repeat(300_000) });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toMatch(/too long for git/);
    expect((await s.ok<{ clean: boolean }>('git_status', { repo_path: repo.root })).clean).toBeDefined();
  }, 60_000);

  it('path arguments of read tools cannot leave the repository either', async () => {
    for (const [tool, args] of [
      ['git_file_at_ref', { path: '../../etc/passwd' }],
      ['git_blame', { file: '../outside.txt' }],
      ['git_log', { path: '../..' }],
      ['git_diff_unstaged', { path: '/etc' }],
      ['git_grep', { pattern: 'x', pathspec: ':(top)../' }],
      ['git_grep', { pattern: 'x', pathspec: '../x' }],
    ] as const) {
      const result = await s.call(tool, { repo_path: repo.root, ...args });
      expect(result.isError, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`).toBe(true);
    }
  });
});
