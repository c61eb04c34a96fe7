import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { UI_EXTENSION_ID, VIEW_MIME_TYPE } from '@mcp-reference/shared';
import { makeGitRepo, type GitRepo } from '@mcp-reference/test-harness';
import { open, type Session } from './test-support.js';

const APPS = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } } };

describe('log and diff views (MCP Apps)', () => {
  let repo: GitRepo;
  let other: GitRepo;
  let apps: Session;
  let plain: Session;
  beforeAll(async () => {
    repo = await makeGitRepo([
      { message: 'one', files: { 'a.txt': 'a\n' } },
      { message: 'two', files: { 'a.txt': 'a\nb\n', 'b.txt': 'b\n' } },
    ]);
    await repo.git('tag', 'v1');
    for (let i = 0; i < 5; i++) await repo.commit(`more ${i}`, { 'c.txt': `${i}\n` });
    other = await makeGitRepo([{ message: 'elsewhere', files: { 'x.txt': 'x\n' } }]);
    apps = await open({ repositories: [repo.dir] }, APPS);
    plain = await open({ repositories: [repo.dir] });
  });
  afterAll(async () => {
    await apps?.close();
    await plain?.close();
    await repo?.cleanup();
    await other?.cleanup();
  });

  it('git_log, git_show and the git_diff tools name their views; the app-only tools are listed to Apps clients only', async () => {
    const tools = (await apps.client.listTools()).tools;
    const uriOf = (name: string) => (tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect(uriOf('git_log')).toBe('ui://git/log');
    for (const name of ['git_show', 'git_diff', 'git_diff_staged', 'git_diff_unstaged']) expect(uriOf(name)).toBe('ui://git/diff');
    const plainNames = (await plain.client.listTools()).tools.map((t) => t.name);
    expect(plainNames).not.toContain('git_log_page');
    expect(plainNames).not.toContain('git_commit_diff');
    for (const uri of ['ui://git/log', 'ui://git/diff']) {
      expect((await apps.client.readResource({ uri })).contents).toMatchObject([{ uri, mimeType: VIEW_MIME_TYPE }]);
    }
  });

  it('git_log_page continues a git_log cursor and lists the refs', async () => {
    const first = await apps.ok('git_log', { repo_path: repo.dir, max_count: 3 });
    const page = await apps.ok('git_log_page', { repo: repo.dir, cursor: first.nextCursor });
    expect(page.commits.map((c: { subject: string }) => c.subject)).toEqual(['more 1', 'more 0', 'two', 'one']);
    expect(page.nextCursor).toBeUndefined();
    expect(page.refs.map((r: { name: string; kind: string }) => `${r.kind}:${r.name}`)).toEqual(['head:HEAD', 'branch:main', 'tag:v1']);
    const refsOnly = await apps.ok('git_log_page', { repo: repo.dir });
    expect(refsOnly.commits).toEqual([]);
  });

  it('git_commit_diff pages by hunk and one file', async () => {
    const two = await repo.git('rev-parse', 'v1');
    const out = await apps.ok('git_commit_diff', { repo: repo.dir, rev: 'v1' });
    expect(out.commit.commit).toBe(two);
    expect(out.hunks.map((h: { file: string }) => h.file)).toEqual(['a.txt', 'b.txt']);
    expect(out.hunks[0].lines).toEqual([' a', '+b']);
    const one = await apps.ok('git_commit_diff', { repo: repo.dir, rev: 'v1', file: 'b.txt' });
    expect(one.hunks.map((h: { file: string }) => h.file)).toEqual(['b.txt']);
    const past = await apps.ok('git_commit_diff', { repo: repo.dir, rev: 'v1', offset: 1 });
    expect(past).toMatchObject({ offset: 1, next_offset: null, total_hunks: 2 });
  });

  it('refuses options as revisions and repositories that are not allowed, with no effect', async () => {
    const marker = `${repo.dir}/../pwned-${process.pid}`;
    await apps.refused('git_commit_diff', { repo: repo.dir, rev: `--output=${marker}` });
    expect(existsSync(marker)).toBe(false);
    await apps.refused('git_commit_diff', { repo: other.dir, rev: 'HEAD' });
    await apps.refused('git_log_page', { repo: other.dir });
  });
});
