import { describe, it, expect } from 'vitest';
import { MAX_COMMIT_FIELD_CHARS, parseBlame, parseDiff, parseLog, parseStatus } from './parse.js';

describe('parseStatus (porcelain v2, -z)', () => {
  it('reads the branch header, ordinary, renamed, unmerged and untracked entries', () => {
    const text = [
      '# branch.oid 1111111111111111111111111111111111111111',
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +2 -1',
      '1 M. N... 100644 100644 100644 aaaa bbbb src/a file.txt',
      '2 R. N... 100644 100644 100644 aaaa bbbb R100 new.txt',
      'old.txt',
      'u UU N... 100644 100644 100644 100644 aaaa bbbb cccc both.txt',
      '? untracked.txt',
      '',
    ].join('\0');
    const status = parseStatus(text);
    expect(status).toMatchObject({ branch: 'main', upstream: 'origin/main', ahead: 2, behind: 1 });
    expect(status.files).toEqual([
      expect.objectContaining({ path: 'src/a file.txt', staged: true, unstaged: false }),
      expect.objectContaining({ path: 'new.txt', orig_path: 'old.txt', index: 'R' }),
      expect.objectContaining({ path: 'both.txt', conflicted: true }),
      expect.objectContaining({ path: 'untracked.txt', untracked: true, staged: false }),
    ]);
  });

  it('reports a detached HEAD and an unborn branch as null', () => {
    expect(parseStatus('# branch.oid (initial)\0# branch.head (detached)\0')).toMatchObject({ branch: null, head: null });
  });
});

describe('parseDiff', () => {
  it('finds files, statuses, renames, binaries and hunks', () => {
    const diff = [
      'diff --git a/src/a.txt b/src/a.txt',
      'index 1..2 100644',
      '--- a/src/a.txt',
      '+++ b/src/a.txt',
      '@@ -1,2 +1,3 @@ heading',
      ' same',
      '-old',
      '+new',
      '+more',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git a/old name.txt b/new name.txt',
      'similarity index 100%',
      'rename from old name.txt',
      'rename to new name.txt',
      'diff --git "a/caf\\303\\251 x.bin" "b/caf\\303\\251 x.bin"',
      'new file mode 100644',
      'Binary files /dev/null and "b/caf\\303\\251 x.bin" differ',
      '',
    ].join('\n');
    const files = parseDiff(diff);
    expect(files.map((f) => [f.path, f.status])).toEqual([
      ['src/a.txt', 'modified'],
      ['gone.txt', 'deleted'],
      ['new name.txt', 'renamed'],
      ['café x.bin', 'added'],
    ]);
    expect(files[0]).toMatchObject({ additions: 2, deletions: 1, hunks: [{ old_start: 1, old_lines: 2, new_start: 1, new_lines: 3 }] });
    expect(files[1].hunks[0]).toMatchObject({ old_start: 1, old_lines: 1, new_start: 0, new_lines: 0 });
    expect(files[2].old_path).toBe('old name.txt');
    expect(files[3].binary).toBe(true);
  });
});

describe('parseBlame (porcelain)', () => {
  it('gives every line its commit, reusing headers git prints once per commit', () => {
    const sha = 'a'.repeat(40);
    const text = [
      `${sha} 1 1 2`,
      'author Ada',
      'author-mail <ada@example.invalid>',
      'author-time 1700000000',
      'summary first',
      'filename f.txt',
      '\tline one',
      `${sha} 2 2`,
      'filename f.txt',
      '\tline two',
      '',
    ].join('\n');
    const lines = parseBlame(text);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ line: 2, commit: sha, author: 'Ada', author_email: 'ada@example.invalid', summary: 'first', text: 'line two' });
    expect(lines[0].date).toBe(new Date(1_700_000_000_000).toISOString());
  });
});

describe('parseBlame', () => {
  it('cuts a long author, email, summary or line text and says which, the rest whole', () => {
    const sha = 'a'.repeat(40);
    const porcelain = (summary: string, text: string) =>
      [`${sha} 1 1 1`, 'author Ada', 'author-mail <a@e>', 'author-time 0', `summary ${summary}`, 'filename f', `\t${text}`, ''].join('\n');
    const [long] = parseBlame(porcelain('s'.repeat(MAX_COMMIT_FIELD_CHARS + 1), 't'.repeat(MAX_COMMIT_FIELD_CHARS * 3)));
    expect(long.truncated_fields).toEqual(['summary', 'text']);
    expect(long.summary).toBe(`${'s'.repeat(MAX_COMMIT_FIELD_CHARS - 1)}…`);
    expect(long.text).toHaveLength(MAX_COMMIT_FIELD_CHARS);
    expect(long.author).toBe('Ada');
    expect(parseBlame(porcelain('fine', 'code();'))[0]).not.toHaveProperty('truncated_fields');
  });
});

describe('parseLog', () => {
  it('reads records split by RS and fields by US', () => {
    const record = ['c1', 'p1 p2', 'Ada', 'a@e', '2024-01-01T00:00:00Z', 'Ada', '2024-01-01T00:00:00Z', 'subject: with colon'].join('\x1f');
    expect(parseLog(`${record}\x1e\n`)).toEqual([
      { commit: 'c1', parents: ['p1', 'p2'], author: 'Ada', author_email: 'a@e', date: '2024-01-01T00:00:00Z', committer: 'Ada', committer_date: '2024-01-01T00:00:00Z', subject: 'subject: with colon' },
    ]);
  });

  it('cuts a subject, author, email or committer longer than MAX_COMMIT_FIELD_CHARS and says which', () => {
    const long = 'x'.repeat(MAX_COMMIT_FIELD_CHARS + 1);
    // A surrogate pair straddling the cut is dropped whole, not halved.
    const astral = `${'y'.repeat(MAX_COMMIT_FIELD_CHARS - 2)}😀${'z'.repeat(10)}`;
    const record = ['c1', '', long, 'a@e', '2024-01-01T00:00:00Z', astral, '2024-01-01T00:00:00Z', 'x'.repeat(MAX_COMMIT_FIELD_CHARS)].join('\x1f');
    const [commit] = parseLog(`${record}\x1e`);
    expect(commit.truncated_fields).toEqual(['author', 'committer']);
    expect(commit.author).toBe(`${'x'.repeat(MAX_COMMIT_FIELD_CHARS - 1)}…`);
    expect(commit.committer).toBe(`${'y'.repeat(MAX_COMMIT_FIELD_CHARS - 2)}…`);
    expect(commit.subject).toHaveLength(MAX_COMMIT_FIELD_CHARS); // at the limit: whole
    expect(parseLog(`${record.replace(long, 'Ada').replace(astral, 'Ada')}\x1e`)[0]).not.toHaveProperty('truncated_fields');
  });
});
