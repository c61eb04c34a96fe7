// Parsers for git's machine-readable outputs. No MCP here.
import { codePointBoundary } from '@mcp-reference/shared/core';

export interface Commit {
  commit: string;
  parents: string[];
  author: string;
  author_email: string;
  date: string;
  committer: string;
  committer_date: string;
  subject: string;
  /** The text fields that were cut at MAX_COMMIT_FIELD_CHARS; absent when none was. */
  truncated_fields?: CommitTextField[];
}

export type CommitTextField = 'subject' | 'author' | 'author_email' | 'committer';

/**
 * The longest subject, author name, email or committer a parsed commit carries (in UTF-16
 * units). A longer one is cut, ends in "…" and is named in `truncated_fields`. Anyone can
 * commit a subject of many megabytes (git's %s is the whole first paragraph); whole, it made
 * every page of the log that holds the commit, even a page of that one commit, too large for
 * a response, so the log could not be read past it.
 */
export const MAX_COMMIT_FIELD_CHARS = 4096;

/** `git log` format that `parseLog` reads: fields split by US, records by RS. */
export const LOG_FORMAT = '--format=%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%cI%x1f%s%x1e';

export function parseLog(text: string): Commit[] {
  const commits: Commit[] = [];
  for (const record of text.split('\x1e')) {
    const fields = record.replace(/^\s+/, '').split('\x1f');
    if (fields.length < 8) continue;
    const [commit, parents, author, author_email, date, committer, committer_date, subject] = fields;
    const parsed: Commit = {
      commit,
      parents: parents ? parents.split(' ') : [],
      author,
      author_email,
      date,
      committer,
      committer_date,
      subject,
    };
    for (const field of ['subject', 'author', 'author_email', 'committer'] as const) {
      if (parsed[field].length <= MAX_COMMIT_FIELD_CHARS) continue;
      parsed[field] = cutText(parsed[field], MAX_COMMIT_FIELD_CHARS);
      (parsed.truncated_fields ??= []).push(field);
    }
    commits.push(parsed);
  }
  return commits;
}

/** The first `max` UTF-16 units of `text` at most, ending in "…", never half a surrogate pair. */
function cutText(text: string, max: number): string {
  return `${text.slice(0, codePointBoundary(text, max - 1))}\u2026`;
}

export interface StatusFile {
  path: string;
  orig_path?: string;
  /** Index (staged) state: one of git's status letters, "." for unchanged, "?" untracked. */
  index: string;
  /** Work tree state, same letters. */
  worktree: string;
  staged: boolean;
  unstaged: boolean;
  untracked: boolean;
  conflicted: boolean;
}

export interface Status {
  branch: string | null;
  head: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
  files: StatusFile[];
}

/** `git status --porcelain=v2 --branch -z`. */
export function parseStatus(text: string): Status {
  const status: Status = { branch: null, head: null, upstream: null, ahead: 0, behind: 0, files: [] };
  const entries = text.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry === '') continue;
    if (entry.startsWith('# ')) {
      const [, key, ...rest] = entry.split(' ');
      const value = rest.join(' ');
      if (key === 'branch.head') status.branch = value === '(detached)' ? null : value;
      else if (key === 'branch.oid') status.head = value === '(initial)' ? null : value;
      else if (key === 'branch.upstream') status.upstream = value;
      else if (key === 'branch.ab') {
        const m = /\+(\d+) -(\d+)/.exec(value);
        if (m) [status.ahead, status.behind] = [Number(m[1]), Number(m[2])];
      }
      continue;
    }
    const kind = entry[0];
    if (kind === '?' || kind === '!') {
      if (kind === '?') status.files.push(file(entry.slice(2), '?', '?'));
      continue;
    }
    const parts = entry.split(' ');
    const xy = parts[1];
    if (kind === '1') status.files.push(file(parts.slice(8).join(' '), xy[0], xy[1]));
    else if (kind === '2') {
      const entryFile = file(parts.slice(9).join(' '), xy[0], xy[1]);
      entryFile.orig_path = entries[++i];
      status.files.push(entryFile);
    } else if (kind === 'u') {
      const f = file(parts.slice(10).join(' '), xy[0], xy[1]);
      f.conflicted = true;
      status.files.push(f);
    }
  }
  return status;
}

function file(path: string, index: string, worktree: string): StatusFile {
  const untracked = index === '?';
  return {
    path,
    index,
    worktree,
    staged: !untracked && index !== '.',
    unstaged: untracked || worktree !== '.',
    untracked,
    conflicted: false,
  };
}

export interface Hunk {
  header: string;
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
}

export interface DiffFile {
  path: string;
  old_path: string | null;
  status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied' | 'mode';
  binary: boolean;
  additions: number;
  deletions: number;
  hunks: Hunk[];
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  try {
    // git's C-style quoting, with octal escapes for bytes.
    const bytes: number[] = [];
    const body = value.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (c !== '\\') {
        bytes.push(...Buffer.from(c));
        continue;
      }
      const next = body[++i];
      if (/[0-7]/.test(next)) {
        bytes.push(parseInt(body.slice(i, i + 3), 8));
        i += 2;
      } else bytes.push(({ n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 } as Record<string, number>)[next] ?? next.charCodeAt(0));
    }
    return Buffer.from(bytes).toString('utf8');
  } catch {
    return value;
  }
}

const stripPrefix = (p: string) => unquote(p).replace(/^[ab]\//, '');

/**
 * The path on a `---`/`+++` line: git ends it with a TAB when the name has a space
 * (for GNU patch), after the closing quote of a quoted name too.
 */
const markerPath = (p: string) => stripPrefix(p.replace(/\t$/, ''));

/**
 * The new path of a `diff --git <old> <new>` header. Unquoted names with spaces make it
 * ambiguous, except for the case it is needed for (no `+++` line: a binary or
 * mode-only change), where both names are the same: "a/NAME b/NAME".
 */
function headerPath(rest: string): string {
  const m = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (m) return stripPrefix(m[2]);
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.startsWith('a/') && rest.slice(half, half + 3) === ' b/' && rest.slice(2, half) === rest.slice(half + 3)) return rest.slice(half + 3);
  return rest;
}

/** The files and hunks of a unified diff (`git diff`/`git show` patch output). */
export function parseDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let current: DiffFile | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = {
        path: headerPath(line.slice(11)),
        old_path: null,
        status: 'modified',
        binary: false,
        additions: 0,
        deletions: 0,
        hunks: [],
      };
      files.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith('@@')) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (m) {
        current.hunks.push({
          header: line,
          old_start: Number(m[1]),
          old_lines: m[2] === undefined ? 1 : Number(m[2]),
          new_start: Number(m[3]),
          new_lines: m[4] === undefined ? 1 : Number(m[4]),
        });
      }
    } else if (current.hunks.length > 0) {
      if (line.startsWith('+')) current.additions++;
      else if (line.startsWith('-')) current.deletions++;
    } else if (line.startsWith('new file mode')) current.status = 'added';
    else if (line.startsWith('deleted file mode')) current.status = 'deleted';
    // (Regexes, not 'rename from ' strings: the layout test reads `from '...'` in the bundle as an import.)
    else if (/^rename from /.test(line)) {
      current.status = 'renamed';
      current.old_path = unquote(line.slice(12));
    } else if (line.startsWith('rename to ')) current.path = unquote(line.slice(10));
    else if (/^copy from /.test(line)) {
      current.status = 'copied';
      current.old_path = unquote(line.slice(10));
    } else if (line.startsWith('copy to ')) current.path = unquote(line.slice(8));
    else if (line.startsWith('Binary files ')) current.binary = true;
    else if (line.startsWith('+++ ') && line !== '+++ /dev/null') current.path = markerPath(line.slice(4));
    else if (line.startsWith('--- ') && line !== '--- /dev/null' && current.status === 'modified') {
      const old = markerPath(line.slice(4));
      if (old !== current.path) current.old_path = old;
    } else if (line.startsWith('old mode') && current.status === 'modified') current.status = 'mode';
  }
  for (const f of files) if (f.status === 'mode' && f.hunks.length > 0) f.status = 'modified';
  return files;
}

export interface BlameLine {
  line: number;
  commit: string;
  author: string;
  author_email: string;
  date: string;
  summary: string;
  original_line: number;
  text: string;
  /** The fields that were cut at MAX_COMMIT_FIELD_CHARS; absent when none was. */
  truncated_fields?: BlameTextField[];
}

export type BlameTextField = 'author' | 'author_email' | 'summary' | 'text';

const BLAME_TEXT_FIELDS: readonly BlameTextField[] = ['author', 'author_email', 'summary', 'text'];

/**
 * `git blame --porcelain`. A commit's author, email or summary (its whole subject) and a
 * line's text longer than MAX_COMMIT_FIELD_CHARS are cut and named in `truncated_fields`,
 * as in `parseLog`: a commit with a multi-megabyte subject, repeated on every line it
 * touched, or a minified file's one line of megabytes would make any blame of that file,
 * however few its lines, larger than a response may be.
 */
export function parseBlame(text: string): BlameLine[] {
  const lines: BlameLine[] = [];
  const commits = new Map<string, { author: string; author_email: string; date: string; summary: string }>();
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const head = /^([0-9a-f]{40,64}) (\d+) (\d+)/.exec(rows[i]);
    if (!head) continue;
    const [, commit, original, final] = head;
    const info = commits.get(commit) ?? { author: '', author_email: '', date: '', summary: '' };
    let j = i + 1;
    for (; j < rows.length && !rows[j].startsWith('\t'); j++) {
      const row = rows[j];
      const space = row.indexOf(' ');
      const key = space === -1 ? row : row.slice(0, space);
      const value = space === -1 ? '' : row.slice(space + 1);
      if (key === 'author') info.author = value;
      else if (key === 'author-mail') info.author_email = value.replace(/^<|>$/g, '');
      else if (key === 'author-time') info.date = new Date(Number(value) * 1000).toISOString();
      else if (key === 'summary') info.summary = value;
    }
    commits.set(commit, info);
    const line: BlameLine = { line: Number(final), commit, ...info, original_line: Number(original), text: (rows[j] ?? '\t').slice(1) };
    for (const field of BLAME_TEXT_FIELDS) {
      if (line[field].length <= MAX_COMMIT_FIELD_CHARS) continue;
      line[field] = cutText(line[field], MAX_COMMIT_FIELD_CHARS);
      (line.truncated_fields ??= []).push(field);
    }
    lines.push(line);
    i = j;
  }
  return lines;
}

export interface Branch {
  name: string;
  ref: string;
  commit: string;
  current: boolean;
  remote: boolean;
  upstream: string | null;
  subject: string;
}

export const BRANCH_FORMAT = '--format=%(refname)%1f%(objectname)%1f%(HEAD)%1f%(upstream:short)%1f%(contents:subject)';

export function parseBranches(text: string): Branch[] {
  const out: Branch[] = [];
  for (const row of text.split('\n')) {
    if (!row) continue;
    const [ref, commit, head, upstream, subject] = row.split('\x1f');
    // refs/remotes/origin/HEAD is listed, as `git branch -r` lists it (origin/HEAD).
    const remote = ref.startsWith('refs/remotes/');
    out.push({
      name: ref.replace(/^refs\/(heads|remotes)\//, ''),
      ref,
      commit,
      current: head === '*',
      remote,
      upstream: upstream || null,
      subject: subject ?? '',
    });
  }
  return out;
}
