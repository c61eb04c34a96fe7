import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { writeFile, mkdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { isWellFormedText } from '@mcp-reference/test-harness';
import { open, sampleRepo, linksOf, refusal, textOf, type Session } from './test-support.js';
import { REFS_PAGE } from './tools/common.js';

describe('official tools', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  beforeEach(async () => {
    repo = await sampleRepo();
    s = await open({ repositories: [repo.root] });
    await s.client.listTools();
  });
  afterEach(async () => {
    await s.close();
    await repo.cleanup();
  });

  it('git_status lists changed, staged and untracked files', async () => {
    await writeFile(repo.path('src/a.txt'), 'changed\n');
    await writeFile(repo.path('new.txt'), 'new\n');
    await repo.git('add', 'new.txt');
    await writeFile(repo.path('untracked.txt'), 'u\n');
    const out = await s.ok('git_status', { repo_path: repo.root });
    expect(out.branch).toBe('main');
    expect(out.clean).toBe(false);
    const byPath = Object.fromEntries(out.files.map((f: any) => [f.path, f]));
    expect(byPath['src/a.txt']).toMatchObject({ unstaged: true, staged: false });
    expect(byPath['new.txt']).toMatchObject({ staged: true, index: 'A' });
    expect(byPath['untracked.txt']).toMatchObject({ untracked: true });
  });

  it('git_status cuts a huge list of changed files with truncated', async () => {
    const small = await open({ repositories: [repo.root], maxOutputBytes: 4096 });
    for (let i = 0; i < 400; i++) await writeFile(repo.path(`untracked-${String(i).padStart(4, '0')}.txt`), 'x');
    const out = await small.ok('git_status', { repo_path: repo.root });
    expect(out.truncated).toBe(true);
    expect(out.files.length).toBeGreaterThan(10);
    expect(out.files.length).toBeLessThan(400);
    expect(out.files.every((f: any) => /^untracked-\d{4}\.txt$/.test(f.path))).toBe(true);
    // The whole result, not only git's output, stays near the limit.
    expect(JSON.stringify(await small.call('git_status', { repo_path: repo.root })).length).toBeLessThan(2 * 4096 + 2048);
    await small.close();
  });

  it('git_status never calls a tree clean when its one change is longer than the limit', async () => {
    const small = await open({ repositories: [repo.root], maxOutputBytes: 4096 });
    const deep = Array.from({ length: 9 }, (_, i) => `${i}`.repeat(240)).join('/');
    await mkdir(repo.path(deep), { recursive: true });
    await writeFile(repo.path(`${deep}/file.txt`), 'x');
    const out = await small.ok('git_status', { repo_path: repo.root });
    expect(out.clean).toBe(false);
    expect(out.files.map((f: any) => f.path)).toEqual([`${deep}/file.txt`]);
    await small.close();
  });

  it('a subdirectory works and the result names the repository used', async () => {
    const out = await s.ok('git_status', { repo_path: path.join(repo.root, 'src') });
    expect(out.repository).toBe(repo.root);
  });

  it('git_diff_unstaged / git_diff_staged / git_diff return diff text and files with hunks', async () => {
    await writeFile(repo.path('src/a.txt'), 'alpha\nBETA\ngamma\n');
    const unstaged = await s.ok('git_diff_unstaged', { repo_path: repo.root, context_lines: 0 });
    expect(unstaged.diff).toContain('+BETA');
    expect(unstaged.files[0]).toMatchObject({ path: 'src/a.txt', additions: 1, deletions: 1, status: 'modified' });
    expect(unstaged.files[0].hunks[0]).toMatchObject({ old_start: 2, new_start: 2 });
    expect((await s.ok('git_diff_staged', { repo_path: repo.root })).diff).toBe('');
    await repo.git('add', 'src/a.txt');
    expect((await s.ok('git_diff_staged', { repo_path: repo.root })).diff).toContain('+BETA');
    const vsFeature = await s.call('git_diff', { repo_path: repo.root, target: 'HEAD~1' });
    expect(vsFeature.structuredContent!.files).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'src/b.txt', status: 'added' })]));
    expect(await refusal(s, 'git_diff', { repo_path: repo.root, target: 'no-such-branch' })).toMatch(/not a commit/);
  });

  it("parses diffs whatever the repository's diff config says", async () => {
    for (const [key, value] of [['diff.noprefix', 'true'], ['diff.mnemonicPrefix', 'true'], ['diff.relative', 'true'], ['color.diff', 'always']]) {
      await repo.git('config', key, value);
    }
    await writeFile(repo.path('src/a.txt'), 'changed\n');
    const out = await s.ok('git_diff_unstaged', { repo_path: repo.root });
    expect(out.files.map((f: any) => f.path)).toEqual(['src/a.txt']);
    expect(out.diff).not.toContain('\u001b[');
  });

  it('caps a large diff with truncated', async () => {
    const small = await open({ repositories: [repo.root], maxOutputBytes: 4096 });
    await writeFile(repo.path('src/a.txt'), 'x\n'.repeat(50_000));
    const out = await small.ok('git_diff_unstaged', { repo_path: repo.root });
    expect(out.truncated).toBe(true);
    expect(out.diff.length).toBeLessThanOrEqual(4096);
    await small.close();
  });

  it('a diff cut at the limit is read on with start_byte, byte for byte, in git_diff_unstaged, git_diff and git_show', async () => {
    const small = await open({ repositories: [repo.root], maxOutputBytes: 4096 });
    try {
      // Short lines of 2-byte characters and one line of 20 KB of 4-byte ones: cuts at line ends and inside a line.
      const text = Array.from({ length: 3000 }, (_, i) => `ligne ${i} ${'é'.repeat(i % 13)}`).join('\n') + `\n${'😀'.repeat(5000)}\nend\n`;
      await writeFile(repo.path('src/a.txt'), text);
      const readAll = async (tool: string, args: Record<string, unknown>) => {
        let whole = '';
        let start_byte: number | undefined;
        for (let calls = 0; calls < 500; calls++) {
          const out: any = await small.ok(tool, { repo_path: repo.root, ...args, ...(start_byte === undefined ? {} : { start_byte }) });
          expect(isWellFormedText(out.diff)).toBe(true);
          expect(out.diff).not.toContain('\uFFFD');
          expect(Buffer.byteLength(out.diff)).toBeLessThanOrEqual(4096);
          whole += out.diff;
          if (!out.truncated) return { whole, calls };
          expect(out.next_byte).toBeGreaterThan(start_byte ?? 0);
          start_byte = out.next_byte;
        }
        throw new Error('never ended');
      };
      const unstaged = await readAll('git_diff_unstaged', {});
      // (repo.git trims what git printed.)
      expect(unstaged.whole.trim()).toBe(await repo.git('diff'));
      expect(unstaged.calls).toBeGreaterThan(10);
      expect((await readAll('git_diff', { target: 'HEAD' })).whole.trim()).toBe(await repo.git('diff', 'HEAD'));
      await repo.git('commit', '-q', '-am', 'big change');
      const shown = await readAll('git_show', { revision: 'HEAD' });
      expect(shown.whole.trim()).toBe(await repo.git('show', '--format=', '--first-parent', 'HEAD'));
      expect(shown.whole.startsWith('diff --git')).toBe(true);
      // The text says how to read on; past the end is refused.
      const first = await small.call('git_show', { repo_path: repo.root, revision: 'HEAD' });
      // git_show takes no path: its note names only start_byte; the work-tree diff's names path too.
      expect(textOf(first)).toMatch(/\[diff truncated: read on with start_byte \d+\]$/);
      expect(textOf(await small.call('git_diff', { repo_path: repo.root, target: 'HEAD~1' }))).toMatch(
        /\[diff truncated: read on with start_byte \d+, or narrow it with path\]$/,
      );
      expect(await refusal(small, 'git_show', { repo_path: repo.root, revision: 'HEAD', start_byte: 10_000_000 })).toMatch(/start_byte 10000000 is past the end of the diff, which has \d+ bytes/);
    } finally {
      await small.close();
    }
  }, 120_000);

  it('refuses to read on in a work-tree diff that changed since the piece before, instead of answering from mid-line', async () => {
    const small = await open({ repositories: [repo.root], maxOutputBytes: 4096 });
    try {
      const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`);
      await writeFile(repo.path('src/a.txt'), `${lines.join('\n')}\n`);
      const first = await small.ok('git_diff_unstaged', { repo_path: repo.root });
      expect(first.truncated).toBe(true);
      // The next piece, read while nothing changed, is accepted.
      expect((await small.ok('git_diff_unstaged', { repo_path: repo.root, start_byte: first.next_byte })).diff.length).toBeGreaterThan(0);
      // One character more in the first line moves every later line by a byte: the old next_byte now falls mid-line.
      await writeFile(repo.path('src/a.txt'), `${['line 0x', ...lines.slice(1)].join('\n')}\n`);
      expect(await refusal(small, 'git_diff_unstaged', { repo_path: repo.root, start_byte: first.next_byte })).toMatch(
        /start_byte \d+ is not where a piece of the diff ended: the diff has changed since that piece .*Read it again from the start, without start_byte/,
      );
      // Read again from the start, the changed diff is answered.
      expect((await small.ok('git_diff_unstaged', { repo_path: repo.root })).diff).toContain('+line 0x');
    } finally {
      await small.close();
    }
  });

  it('git_add, git_commit, git_log and git_show work together and link commits', async () => {
    await writeFile(repo.path('c.txt'), 'charlie\n');
    expect((await s.ok('git_add', { repo_path: repo.root, files: ['c.txt'] })).staged).toEqual(['c.txt']);
    const commit = await s.call('git_commit', { repo_path: repo.root, message: '--amend third\n\nbody' });
    expect(commit.structuredContent).toMatchObject({ branch: 'main', subject: '--amend third' });
    const sha = commit.structuredContent!.commit as string;
    expect(linksOf(commit)).toContain(`git://${path.basename(repo.root)}-${linksOf(commit)[0].split('/')[2].split('-').pop()}/commit/${sha}`);
    const log = await s.call('git_log', { repo_path: repo.root, max_count: 2 });
    const commits = log.structuredContent!.commits as any[];
    expect(commits.map((c) => c.subject)).toEqual(['--amend third', 'second']);
    expect(log.structuredContent!.nextCursor).toBeDefined();
    const next = await s.ok('git_log', { repo_path: repo.root, max_count: 2, cursor: log.structuredContent!.nextCursor });
    expect(next.commits.map((c: any) => c.subject)).toEqual(['first']);
    expect(next.nextCursor).toBeUndefined();
    const shown = await s.ok('git_show', { repo_path: repo.root, revision: sha });
    expect(shown.message).toBe('--amend third\n\nbody');
    expect(shown.files.map((f: any) => f.path)).toEqual(['c.txt']);
    for (const uri of linksOf(await s.call('git_show', { repo_path: repo.root, revision: sha }))) {
      expect((await s.client.readResource({ uri })).contents.length).toBe(1);
    }
  });

  it('git_log pages through a history with merges exactly as git log orders it, and a page asked twice is the same', async () => {
    await repo.git('checkout', '-q', 'feature');
    await repo.commit('feature one', { 'f1.txt': '1\n' });
    await repo.commit('feature two', { 'f2.txt': '2\n' });
    await repo.git('checkout', '-q', 'main');
    await repo.commit('main three', { 'm3.txt': '3\n' });
    await repo.git('merge', '-q', '--no-edit', 'feature');
    await repo.commit('after merge', { 'm4.txt': '4\n' });
    const expected = (await repo.git('log', '--format=%H')).split('\n');
    const seen: string[] = [];
    let cursor: string | undefined;
    let previous: { cursor?: string; page: string[] } | undefined;
    do {
      const out: any = await s.ok('git_log', { repo_path: repo.root, max_count: 2, ...(cursor ? { cursor } : {}) });
      const page = out.commits.map((c: any) => c.commit);
      if (cursor) previous = { cursor, page };
      seen.push(...page);
      cursor = out.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    // Asking for a page again (its stream has moved on) walks to it and gives the same commits.
    const again = await s.ok('git_log', { repo_path: repo.root, max_count: 2, cursor: previous!.cursor });
    expect(again.commits.map((c: any) => c.commit)).toEqual(previous!.page);
    // Filters hold across pages.
    const byPath: string[] = [];
    cursor = undefined;
    do {
      const out: any = await s.ok('git_log', { repo_path: repo.root, max_count: 1, path: 'f1.txt', ...(cursor ? { cursor } : {}) });
      byPath.push(...out.commits.map((c: any) => c.subject));
      cursor = out.nextCursor;
    } while (cursor);
    expect(byPath).toEqual(['feature one']);
  });

  it('git_log reads past a commit whose subject is larger than a response may be (cut, marked, the log goes on)', async () => {
    // 9 MB on one line: %s is the whole first paragraph. Whole, no page holding it fits the 8 MB response limit.
    const huge = path.join(repo.dir, '..', `${path.basename(repo.dir)}-message.txt`);
    await writeFile(huge, `${'s'.repeat(9 * 1024 * 1024)}\n`);
    await writeFile(repo.path('big.txt'), 'big\n');
    await repo.git('add', 'big.txt');
    await repo.git('commit', '-q', '-F', huge);
    await repo.commit('after the big one', { 'after.txt': 'after\n' });
    const subjects: string[] = [];
    let cut: any;
    let cursor: string | undefined;
    do {
      const out: any = await s.ok('git_log', { repo_path: repo.root, max_count: 2, ...(cursor ? { cursor } : {}) });
      for (const c of out.commits) {
        subjects.push(c.subject.slice(0, 20));
        if (c.truncated_fields) cut = c;
      }
      cursor = out.nextCursor;
    } while (cursor);
    expect(subjects).toEqual(['after the big one', 's'.repeat(20), 'second', 'first']);
    expect(cut.truncated_fields).toEqual(['subject']);
    expect(cut.subject).toBe(`${'s'.repeat(4095)}…`);
    // git_show cuts the message at the output limit (1 MB by default), as it cuts the diff.
    const shown: any = await s.ok('git_show', { repo_path: repo.root, revision: cut.commit });
    expect(shown).toMatchObject({ message_truncated: true, truncated: false, files: [{ path: 'big.txt' }] });
    expect(shown.message).toBe('s'.repeat(1024 * 1024));
    // git_blame names that subject on every line the commit touched: cut there too (before: "16.0 MB, over the 8.0 MB").
    const blame: any = await s.ok('git_blame', { repo_path: repo.root, file: 'big.txt' });
    expect(blame.lines).toMatchObject([{ line: 1, commit: cut.commit, summary: `${'s'.repeat(4095)}…`, truncated_fields: ['summary'], text: 'big' }]);
  }, 60_000);

  it('git_blame cuts a line of megabytes (a minified file) and says so', async () => {
    await writeFile(repo.path('min.js'), `short\n${'x'.repeat(10 * 1024 * 1024)}\n`);
    await repo.git('add', 'min.js');
    await repo.git('commit', '-q', '-m', 'minified');
    const blame: any = await s.ok('git_blame', { repo_path: repo.root, file: 'min.js' });
    expect(blame.lines.map((l: any) => [l.line, l.text.length, l.truncated_fields])).toEqual([
      [1, 5, undefined],
      [2, 4096, ['text']],
    ]);
  }, 60_000);

  it('git_log filters by path, author and dates', async () => {
    expect((await s.ok('git_log', { repo_path: repo.root, path: 'src/b.txt' })).commits.map((c: any) => c.subject)).toEqual(['second']);
    expect((await s.ok('git_log', { repo_path: repo.root, author: 'nobody-like-this' })).commits).toEqual([]);
    expect((await s.ok('git_log', { repo_path: repo.root, start_timestamp: '2000-01-01', end_timestamp: '2090-01-01' })).commits).toHaveLength(2);
    expect((await s.ok('git_log', { repo_path: repo.root, end_timestamp: '2000-01-01' })).commits).toEqual([]);
  });

  it('git_reset unstages; hard reset asks and a decline changes nothing', async () => {
    await writeFile(repo.path('src/a.txt'), 'changed\n');
    await repo.git('add', 'src/a.txt');
    expect((await s.ok('git_reset', { repo_path: repo.root })).unstaged).toEqual(['src/a.txt']);
    expect(await repo.git('diff', '--cached', '--name-only')).toBe('');
    const asking = await open({ repositories: [repo.root] }, { elicit: () => ({ action: 'decline' }) });
    expect(await refusal(asking, 'git_reset', { repo_path: repo.root, hard: true })).toMatch(/declined/);
    expect(await repo.git('diff', '--name-only')).toBe('src/a.txt');
    await asking.close();
  });

  it('git_create_branch, git_checkout, git_branch with contains / not_contains', async () => {
    const created = await s.call('git_create_branch', { repo_path: repo.root, branch_name: 'topic/x', base_branch: 'HEAD~1' });
    expect(created.isError).toBeFalsy();
    expect(linksOf(created)[0]).toMatch(/\/branch\/topic\/x$/);
    expect(await refusal(s, 'git_create_branch', { repo_path: repo.root, branch_name: 'topic/x' })).toMatch(/already exists/);
    await s.ok('git_checkout', { repo_path: repo.root, branch_name: 'topic/x' });
    expect(await repo.git('branch', '--show-current')).toBe('topic/x');
    const head = await repo.git('rev-parse', 'main');
    const local = await s.ok('git_branch', { repo_path: repo.root, branch_type: 'local' });
    expect(local.branches.map((b: any) => b.name).sort()).toEqual(['feature', 'main', 'topic/x']);
    expect(local.branches.find((b: any) => b.current).name).toBe('topic/x');
    const containing = await s.ok('git_branch', { repo_path: repo.root, branch_type: 'all', contains: head });
    expect(containing.branches.map((b: any) => b.name).sort()).toEqual(['feature', 'main']);
    const not = await s.ok('git_branch', { repo_path: repo.root, branch_type: 'local', not_contains: head });
    expect(not.branches.map((b: any) => b.name)).toEqual(['topic/x']);
    expect(await refusal(s, 'git_branch', { repo_path: repo.root, branch_type: 'everything' })).toMatch(/branch_type/);
    expect(await refusal(s, 'git_checkout', { repo_path: repo.root, branch_name: 'nope' })).toMatch(/no local branch/);
  });

  it(`git_branch and git_tag page more than ${REFS_PAGE.toLocaleString('en')} refs, and go on after a branch deleted between pages`, async () => {
    const head = await repo.git('rev-parse', 'HEAD');
    const n = REFS_PAGE + 10;
    const names = Array.from({ length: n }, (_, i) => `many/b${String(i).padStart(5, '0')}`);
    execFileSync('git', ['update-ref', '--stdin'], { cwd: repo.root, input: names.map((b) => `create refs/heads/${b} ${head}\n`).join('') + Array.from({ length: n }, (_, i) => `create refs/tags/v2.${i} ${head}\n`).join('') });
    const first = await s.ok('git_branch', { repo_path: repo.root, branch_type: 'local' });
    expect(first.branches).toHaveLength(REFS_PAGE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const last = first.branches[REFS_PAGE - 1].name;
    await repo.git('branch', '-D', last);
    const second = await s.ok('git_branch', { repo_path: repo.root, branch_type: 'local', cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const all = [...first.branches, ...second.branches].map((b: any) => b.name);
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...names, 'feature', 'main'].sort());

    const tags = await s.ok('git_tag', { repo_path: repo.root });
    expect(tags.tags).toHaveLength(REFS_PAGE);
    // Newest version first: v2.2009 ... then the rest on the next page, v1.0 last.
    expect(tags.tags[0].name).toBe(`v2.${n - 1}`);
    const rest = await s.ok('git_tag', { repo_path: repo.root, cursor: tags.nextCursor });
    expect(rest.tags.map((t: any) => t.name).at(-1)).toBe('v1.0');
    expect(tags.tags.length + rest.tags.length).toBe(n + 1);
    // Where a tag the page ended at was deleted, version order cannot say where to go on.
    await repo.git('tag', '-d', tags.tags[REFS_PAGE - 1].name);
    expect(await refusal(s, 'git_tag', { repo_path: repo.root, cursor: tags.nextCursor })).toMatch(/is gone: call again without cursor/);
  });

  it('git_checkout never discards: a blocking change fails, force asks first', async () => {
    await repo.git('checkout', '-q', 'feature');
    await repo.commit('feature change', { 'src/a.txt': 'feature\n' });
    await repo.git('checkout', '-q', 'main');
    await writeFile(repo.path('src/a.txt'), 'local edit\n');
    expect(await refusal(s, 'git_checkout', { repo_path: repo.root, branch_name: 'feature' })).toMatch(/overwritten|local changes/);
    const declining = await open({ repositories: [repo.root] }, { elicit: () => ({ action: 'decline' }) });
    expect(await refusal(declining, 'git_checkout', { repo_path: repo.root, branch_name: 'feature', force: true })).toMatch(/declined/);
    await declining.close();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(repo.path('src/a.txt'), 'utf8')).toBe('local edit\n');
  });
});

describe('added tools', () => {
  let repo: Awaited<ReturnType<typeof sampleRepo>>;
  let s: Session;
  beforeEach(async () => {
    repo = await sampleRepo();
    s = await open({ repositories: [repo.root] });
    await s.client.listTools();
  });
  afterEach(async () => {
    await s.close();
    await repo.cleanup();
  });

  it('git_blame gives one object per line, with ranges and continuation', async () => {
    const out = await s.ok('git_blame', { repo_path: repo.root, file: 'src/a.txt' });
    expect(out.lines.map((l: any) => l.text)).toEqual(['alpha', 'beta', 'gamma']);
    expect(out.lines[0]).toMatchObject({ line: 1, author: 'Test', summary: 'first' });
    const range = await s.ok('git_blame', { repo_path: repo.root, file: 'src/a.txt', start_line: 2, end_line: 2 });
    expect(range.lines.map((l: any) => l.text)).toEqual(['beta']);
  });

  it('git_grep refuses a backreference, which git can take exponential time to match, at once and with nothing run (issue 21, item 3)', async () => {
    // `(a*)*\1c` on this line ran past 20 s in git's engine (the call's limit is 120 s).
    await writeFile(repo.path('long.txt'), `${'a'.repeat(5_000)}b\n`);
    await repo.git('add', 'long.txt');
    const started = Date.now();
    expect(await refusal(s, 'git_grep', { repo_path: repo.root, pattern: '(a*)*\\1c', regex: true })).toMatch(/backreference \("\\1"\).*not accepted/);
    expect(Date.now() - started, 'answered before git could run it').toBeLessThan(10_000);
    // As literal text, and in a bracket expression, a backslash and a digit are what they say.
    expect((await s.ok('git_grep', { repo_path: repo.root, pattern: '(a*)*\\1c' })).matches).toEqual([]);
    expect((await s.ok('git_grep', { repo_path: repo.root, pattern: 'a[\\1b]', regex: true })).matches).toEqual([expect.objectContaining({ path: 'long.txt', line: 1 })]);
  });

  it('git_grep finds literal text and regexes, in the work tree or at a ref', async () => {
    const literal = await s.ok('git_grep', { repo_path: repo.root, pattern: 'l.h' });
    expect(literal.matches).toEqual([]);
    const regex = await s.ok('git_grep', { repo_path: repo.root, pattern: 'l.h', regex: true });
    expect(regex.matches).toEqual([{ path: 'src/a.txt', line: 1, text: 'alpha' }]);
    const atRef = await s.call('git_grep', { repo_path: repo.root, pattern: 'bravo', ref: 'HEAD~1' });
    expect(atRef.structuredContent!.matches).toEqual([]);
    const scoped = await s.ok('git_grep', { repo_path: repo.root, pattern: 'a', pathspec: 'docs/*.md' });
    expect(scoped.matches.every((m: any) => m.path.startsWith('docs/'))).toBe(true);
    const capped = await s.ok('git_grep', { repo_path: repo.root, pattern: 'a', max_results: 1 });
    expect(capped.matches).toHaveLength(1);
    expect(capped.truncated).toBe(true);
  });

  it('git_grep finds a match in a line of megabytes (a minified bundle) and gives the kilobyte around it', async () => {
    // 6.4 MB on one line, the match in its middle; before, the 1 MB output cap dropped the cut row: no match, "raise max_results".
    await writeFile(repo.path('bundle.min.js'), `${'var a=1;'.repeat(400_000)}needle();${'var b=2;'.repeat(400_000)}\n`);
    await writeFile(repo.path('small.js'), 'one\nneedle here\n');
    await repo.git('add', 'bundle.min.js', 'small.js');
    await repo.git('commit', '-q', '-m', 'bundle');
    for (const args of [{}, { ref: 'HEAD' }]) {
      const out = await s.ok('git_grep', { repo_path: repo.root, pattern: 'needle', ...args });
      expect(out.truncated).toBe(false);
      expect(out.matches.map((m: any) => [m.path, m.line])).toEqual([['bundle.min.js', 1], ['small.js', 2]]);
      expect(out.matches[0].text).toMatch(/^…(var a=1;){32}needle\(\);(var b=2;)+[var b=2;]*…$/);
      expect(out.matches[0].text.length).toBeLessThan(1100);
      expect(out.matches[1].text).toBe('needle here');
    }
  });

  it("git_grep's regexes find what git's own engine finds, matched in linear time (issue 21, item 3)", async () => {
    // Lines for the corners of git's dialect: brackets where a backslash is itself and "]" first
    // is a member, GNU escapes, word edges, intervals, an unmatched ")", and text beyond ASCII.
    const lines = [
      'function one() { return true; }', 'const x = a[1] + b[22];', 'colour and color', 'C:\\path\\to', 'x]y', 'a{2}b aab',
      'return false;', '  // comment', 'tab\there', 'ünïcödé text', 'foobarbaz', 'a)b', 'end.', 'UPPER lower', '', 'hello_world 42',
    ];
    await writeFile(repo.path('corners.txt'), `${lines.join('\n')}\n`);
    await repo.git('add', 'corners.txt');
    const patterns = [
      'function[ (]', 'colou?r', '\\<color\\>', '[]x]y', '[\\d]', 'a{2}b', 'a{,1}b', '(foo|bar)+baz', 'a\\)b', '\\.$', '^[[:space:]]*//',
      '[[:upper:]]{3,}', '\\w+_\\w+', '\\bfalse\\b', '[0-9]+', 'return (true|false);', 'x+y*z?', '^$', '[^a-z ]', 'ü.', '(a|b|.)*c', '\\{2\\}',
    ];
    for (const ignore_case of [false, true]) {
      for (const pattern of patterns) {
        let expected: string[] = [];
        try {
          const out = execFileSync('git', ['grep', '-n', '--column', '-I', '-E', ...(ignore_case ? ['-i'] : []), '-e', pattern, '--', 'corners.txt'], { cwd: repo.root, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
          // git also matches "^$" on a line after the last newline, which is not in the file.
          expected = out.split('\n').filter(Boolean).map((row) => row.split(':').slice(0, 2).join(':')).filter((row) => Number(row.split(':')[1]) <= lines.length);
        } catch (error) {
          if ((error as { status?: number }).status !== 1) throw error;
        }
        const out = await s.ok('git_grep', { repo_path: repo.root, pattern, regex: true, ignore_case, pathspec: 'corners.txt' });
        // git's C locale reads "[^a-z ]" and "ü." byte by byte; RE2 reads characters: the same lines here.
        expect(out.matches.map((m: any) => `${m.path}:${m.line}`), `${pattern}${ignore_case ? ' -i' : ''}`).toEqual(expected);
      }
    }
  });

  it('git_grep refuses what its linear-time matcher cannot do, and what git would refuse, naming it', async () => {
    const refused: [string, RegExp][] = [
      ['(a)\\1', /backreference \("\\1"\)/],
      ['\\d+', /"\\d" is not an escape.*\[0-9\]/],
      ['a{1001}', /counts past 1000/],
      ['*a', /Invalid preceding regular expression/],
      ['(a', /Unmatched \(/],
      ['[a', /Unmatched \[/],
      ['a{2,1}', /Invalid content of/],
      ['[[:word:]]', /Invalid character class name/],
      ['\\<(', /Unmatched \(/],
      ['\\<\\.', /"\\<" must come before a word character/],
      ['a\\', /Trailing backslash/],
    ];
    for (const [pattern, reason] of refused) expect(await refusal(s, 'git_grep', { repo_path: repo.root, pattern, regex: true }), pattern).toMatch(reason);
    // As literal text each is what it says.
    expect((await s.ok('git_grep', { repo_path: repo.root, pattern: '\\d+' })).matches).toEqual([]);
  });

  it('git_grep matches a regex in a line of megabytes and gives the kilobyte around its first match; past 8 MiB it says what it did not search', async () => {
    await writeFile(repo.path('bundle.min.js'), `${'var a=1;'.repeat(400_000)}needle();${'var b=2;'.repeat(400_000)}\n`);
    // 9 MB on one line, a match in its first 8 MiB and one after.
    await writeFile(repo.path('huge.min.js'), `${'x=1;'.repeat(1_000)}early();${'x=1;'.repeat(2_300_000)}late();\n`);
    await repo.git('add', 'bundle.min.js', 'huge.min.js');
    const out = await s.ok('git_grep', { repo_path: repo.root, pattern: 'ne+dle\\(\\)', regex: true });
    expect(out.matches.map((m: any) => [m.path, m.line])).toEqual([['bundle.min.js', 1]]);
    expect(out.matches[0].text).toMatch(/^…(var a=1;){32}needle\(\);(var b=2;)+[var b=2;]*…$/);
    expect(out).not.toHaveProperty('partly_searched');
    // Matched by RE2 (an unbounded repetition): in the first 8 MiB.
    const early = await s.ok('git_grep', { repo_path: repo.root, pattern: '(early|late)+\\(\\)', regex: true, pathspec: 'huge.min.js' });
    expect(early.matches).toEqual([{ path: 'huge.min.js', line: 1, text: expect.stringMatching(/^…(x=1;)+early\(\);(x=1;)+…$/) }]);
    expect(early.partly_searched).toEqual([{ path: 'huge.min.js', line: 1 }]);
    // Matched by git (cheap in its engine): the whole line.
    const direct = await s.ok('git_grep', { repo_path: repo.root, pattern: 'l[a]te\\(\\)', regex: true, pathspec: 'huge.min.js' });
    expect(direct.matches).toEqual([{ path: 'huge.min.js', line: 1, text: expect.stringMatching(/^…(x=1;)+late\(\);$/) }]);
    expect(direct).not.toHaveProperty('partly_searched');
    const late = await s.call('git_grep', { repo_path: repo.root, pattern: 'lat+e\\(\\)', regex: true, pathspec: 'huge.min.js' });
    expect(late.structuredContent).toMatchObject({ matches: [], partly_searched: [{ path: 'huge.min.js', line: 1 }] });
    expect(textOf(late)).toMatch(/searched in their first 8 MiB only: huge.min.js:1/);
  });

  it('git_file_at_ref reads a file at any ref with line ranges', async () => {
    const out = await s.call('git_file_at_ref', { repo_path: repo.root, path: 'src/a.txt', ref: 'v1.0', start_line: 2, end_line: 3 });
    expect(out.structuredContent).toMatchObject({ content: 'beta\ngamma', total_lines: 3, binary: false });
    const [link] = linksOf(out);
    expect((await s.client.readResource({ uri: link })).contents[0]).toMatchObject({ text: 'alpha\nbeta\ngamma\n' });
    expect(await refusal(s, 'git_file_at_ref', { repo_path: repo.root, path: 'src/b.txt', ref: 'HEAD~1' })).toMatch(/does not exist/);
    expect(await refusal(s, 'git_file_at_ref', { repo_path: repo.root, path: '../etc/passwd' })).toMatch(/leaves the repository/);
  });

  it('git_file_at_ref reaches any part of a file larger than it reads whole, byte for byte', async () => {
    // 8x the 4 KiB limit is read whole; this file is about 200 KB: streamed, stopped once the part is read.
    const lines = Array.from({ length: 4000 }, (_, i) => (i % 997 === 0 ? '😀'.repeat(3000) : `line ${i + 1} ${'é'.repeat(i % 11)}`));
    const text = lines.join('\n') + '\n';
    await writeFile(repo.path('big.txt'), text);
    await repo.git('add', 'big.txt');
    await repo.git('commit', '-q', '-m', 'big');
    const small = await open({ repositories: [repo.root], maxOutputBytes: 4096 });
    try {
      // A line near the end (before: '' and truncated, for any line past the first 32 KB).
      const deep = await small.ok('git_file_at_ref', { repo_path: repo.root, path: 'big.txt', start_line: 3990, end_line: 3991 });
      expect(deep).toMatchObject({ content: `${lines[3989]}\n${lines[3990]}`, truncated: false, size: Buffer.byteLength(text) });
      expect(deep).not.toHaveProperty('total_lines');
      expect(await refusal(small, 'git_file_at_ref', { repo_path: repo.root, path: 'big.txt', start_line: 4001 })).toMatch(/start_line 4001 is past the end of big.txt, which has 4000 lines/);
      // Paged by next_byte from the start: the pieces are the file, none splits a character.
      const pieces: string[] = [];
      let start_byte: number | undefined;
      for (let calls = 0; calls < 200; calls++) {
        const out = await small.ok('git_file_at_ref', { repo_path: repo.root, path: 'big.txt', ...(start_byte === undefined ? {} : { start_byte }) });
        expect(out.content).not.toContain('\uFFFD');
        pieces.push(out.content);
        if (!out.truncated) break;
        start_byte = out.next_byte;
      }
      expect(pieces.join('')).toBe(text);
      // A line longer than the limit (12 KB of 4-byte characters) is read on by byte.
      const long = await small.call('git_file_at_ref', { repo_path: repo.root, path: 'big.txt', start_line: 998 });
      expect(long.structuredContent).toMatchObject({ truncated: true, next_byte: Buffer.byteLength(lines.slice(0, 997).join('\n') + '\n') + 4096 });
      expect(long.structuredContent).not.toHaveProperty('next_line');
      expect(textOf(long)).toMatch(/\[truncated: read on with start_byte \d+\]$/);
      const after = await small.ok('git_file_at_ref', { repo_path: repo.root, path: 'big.txt', start_line: 999, end_line: 1000 });
      expect(after.content).toBe(`${lines[998]}\n${lines[999]}`);
    } finally {
      await small.close();
    }
  });

  it('a diff cut at the limit ends on a whole character', async () => {
    const small = await open({ repositories: [repo.root], maxOutputBytes: 4096 });
    try {
      // Four offsets of the cut against the 4-byte characters: three of them split one when cut at 4096 bytes.
      for (let pad = 0; pad < 4; pad++) {
        await writeFile(repo.path('src/a.txt'), 'a'.repeat(pad) + '😀'.repeat(2000) + '\n');
        // The first piece ends at the line end before the long line; the next one is cut inside it.
        const out = await small.ok('git_diff_unstaged', { repo_path: repo.root });
        expect(out).toMatchObject({ truncated: true, next_byte: Buffer.byteLength(out.diff) });
        expect(out.diff.endsWith('\n')).toBe(true);
        const next = await small.ok('git_diff_unstaged', { repo_path: repo.root, start_byte: out.next_byte });
        expect(next.truncated).toBe(true);
        expect(next.diff).not.toContain('\uFFFD');
        expect(Buffer.byteLength(next.diff)).toBeGreaterThan(4092);
      }
    } finally {
      await small.close();
    }
  });

  it('git_tag lists and git_create_tag creates', async () => {
    await s.ok('git_create_tag', { repo_path: repo.root, tag_name: 'v2.0', message: 'release two' });
    const out = await s.ok('git_tag', { repo_path: repo.root });
    expect(out.tags.map((t: any) => t.name)).toEqual(['v2.0', 'v1.0']);
    expect(out.tags[0]).toMatchObject({ annotated: true, subject: 'release two' });
    expect(await refusal(s, 'git_create_tag', { repo_path: repo.root, tag_name: 'v2.0' })).toMatch(/already exists/);
  });

  it('git_stash pushes, lists and pops', async () => {
    await writeFile(repo.path('src/a.txt'), 'wip\n');
    expect((await s.ok('git_stash', { repo_path: repo.root, action: 'push', message: 'my wip' })).changed).toBe(true);
    expect(await repo.git('status', '--porcelain')).toBe('');
    const list = await s.ok('git_stash', { repo_path: repo.root, action: 'list' });
    expect(list.stashes[0].message).toContain('my wip');
    await s.ok('git_stash', { repo_path: repo.root, action: 'pop' });
    expect(await repo.git('status', '--porcelain')).toBe('M src/a.txt');
  });

  it('messages and patterns that look like options simple-git guards against are taken verbatim', async () => {
    // simple-git refuses arguments such as --upload-pack or --template; ours never are
    // arguments: messages go through a file or --message=, the grep pattern is -e's value.
    await writeFile(repo.path('src/a.txt'), 'uses --template=dir\n');
    const grep = await s.ok('git_grep', { repo_path: repo.root, pattern: '--template' });
    expect(grep.matches.map((m: any) => m.path)).toEqual(['src/a.txt']);
    await s.ok('git_stash', { repo_path: repo.root, action: 'push', message: '--upload-pack=touch /tmp/pwned' });
    expect(await repo.git('stash', 'list', '--format=%s')).toContain('--upload-pack=touch /tmp/pwned');
    await s.ok('git_stash', { repo_path: repo.root, action: 'pop' });
    await s.ok('git_add', { repo_path: repo.root, files: ['src/a.txt'] });
    await s.ok('git_commit', { repo_path: repo.root, message: '--template=/tmp/x\n\n-c core.pager=evil' });
    expect(await repo.git('log', '-1', '--format=%B')).toBe('--template=/tmp/x\n\n-c core.pager=evil');
    await s.ok('git_create_tag', { repo_path: repo.root, tag_name: 'v3', message: '--receive-pack=evil' });
    expect(await repo.git('tag', '-l', '--format=%(contents:subject)', 'v3')).toBe('--receive-pack=evil');
  });

  it('git_worktree_list lists linked worktrees', async () => {
    const wt = `${repo.root}-wt`;
    await repo.git('worktree', 'add', '-q', wt, 'feature');
    const out = await s.ok('git_worktree_list', { repo_path: repo.root });
    expect(out.worktrees.map((w: any) => w.branch)).toEqual(['main', 'feature']);
    await repo.git('worktree', 'remove', '--force', wt);
  });

  it('a .git/index.lock left behind gives an error naming the lock and is not removed', async () => {
    await writeFile(path.join(repo.root, '.git/index.lock'), '');
    await writeFile(repo.path('c.txt'), 'c\n');
    const message = await refusal(s, 'git_add', { repo_path: repo.root, files: ['c.txt'] });
    expect(message).toContain('index.lock');
    const { stat } = await import('node:fs/promises');
    await expect(stat(path.join(repo.root, '.git/index.lock'))).resolves.toBeDefined();
  });

  it('--read-only removes every tool that writes', async () => {
    const ro = await open({ repositories: [repo.root], readOnly: true });
    const names = (await ro.client.listTools()).tools.map((t) => t.name);
    for (const w of ['git_commit', 'git_add', 'git_reset', 'git_create_branch', 'git_checkout', 'git_create_tag', 'git_stash']) expect(names).not.toContain(w);
    expect(names).toContain('git_log');
    await ro.close();
  });

  it('an empty repository answers with no commits', async () => {
    await mkdir(repo.path('x'), { recursive: true });
    const { makeGitRepo } = await import('@mcp-reference/test-harness');
    const empty = await makeGitRepo();
    const e = await open({ repositories: [empty.dir] });
    const out = await e.call('git_log', { repo_path: empty.dir });
    expect(out.structuredContent?.commits ?? textOf(out)).toEqual([]);
    await e.close();
    await empty.cleanup();
  });
});
