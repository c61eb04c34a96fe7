import { closeSync, constants, fstatSync, openSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { FsError, errnoCode, toFsError } from './errors.js';
import { GITIGNORE_FILE, isIgnored, loadGitignoreChain, withGitignoreOf } from './gitignore.js';
import type { GitignoreStack, IgnoreFileSkipped } from './gitignore.js';
import { createTimeSlicer } from './time-slice.js';
import { useProcFd } from './proc-fd.js';
import { compileGlobSet } from './glob.js';
import type { GlobOptions } from './glob.js';

/**
 * A lazy, sorted, resumable recursive directory walk.
 *
 * Order: depth-first, a directory's children right after it, the entries of each
 * directory sorted by name in code point order (locale-independent, so a cursor taken
 * on one machine means the same on another). In that order, `after` resumes strictly
 * after a relative path: directories that sort before it are skipped without being
 * read, so fetching page N costs about one page, not N pages. The path need not exist
 * any more; the walk continues from where it would have been.
 *
 * Symlinks are reported as 'symlink' and never followed: following them could leave
 * the allowed directories or loop.
 *
 * Why synchronous readdir: listing a directory is one fast syscall, but each
 * fs.promises call costs a libuv thread-pool round trip, which made walking a
 * 100,000-file tree about 2x slower. The walk instead reads directories synchronously in
 * slices of at most ~10 ms and gives the event loop a turn between slices, so the
 * server keeps serving other requests and cancellation while it walks.
 */
export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk's root, with "/" separators. */
  relative: string;
  name: string;
  type: EntryType;
  /** 1 for the root's children, 2 for their children, ... */
  depth: number;
  /** The directory it is in: its absolute path and its path relative to the root ('' for the root). */
  parent: { path: string; relative: string };
}

export interface WalkOptions {
  /** Resume strictly after this relative path (as yielded earlier in `relative`). */
  after?: string;
  /**
   * Globs of entries to leave out (and not descend into), matched against the relative
   * path; a glob without "/" also matches the name at any depth ("node_modules",
   * "*.log"). "dir/**" skips the directory itself too.
   */
  excludes?: readonly string[];
  /** How globs match here: case-insensitively on a case-insensitive filesystem; "\\" as a separator on Windows. */
  globOptions?: GlobOptions;
  /** Honour .gitignore files in the tree (nested ones too) and skip .git. Default true. */
  respectGitignore?: boolean;
  /** Also apply the .gitignore files of the directories from here down to the root (the allowed directory). */
  gitignoreBoundary?: string;
  /** Told about each .gitignore skipped (a FIFO, a symlink, too large...), once. */
  onIgnoreFileSkipped?: IgnoreFileSkipped;
  /** Do not descend below this depth (1 = only the root's children). */
  maxDepth?: number;
  signal?: AbortSignal;
  /** Called with the relative path ('' for the root) of each directory as it is read: for progress reports. */
  onDirectory?: (relative: string) => void;
  /**
   * Called for a directory below the root that cannot be read because of its path (longer
   * than PATH_MAX, or a symlink loop on the way): it is skipped, the rest of the walk
   * goes on, and the caller can say what was left out.
   */
  onSkip?: (relative: string, reason: string) => void;
  /**
   * Only entries whose name this accepts are yielded (directories are walked either way):
   * for a consumer that selects by name (search_files "**\/*.md"), the others are passed
   * over before their paths are even built.
   */
  keep?: (name: string) => boolean;
  /** Counts every entry examined (yielded or passed over by `keep`), for progress reports. */
  counter?: { examined: number };
}

/** Every entry under `root` (not `root` itself), one at a time. */
export async function* walk(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  for await (const batch of walkBatches(root, options)) yield* batch;
}

/** Only the regular files under `root`. */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  for await (const batch of walkBatches(root, options)) {
    for (const entry of batch) if (entry.type === 'file') yield entry;
  }
}

// How many entries a batch holds before it is handed over: small, so a consumer that
// wants one page does not read far ahead.
const BATCH_SIZE = 256;

interface Frame {
  dir: string;
  relative: string;
  /** `dir` and `relative` as the entries' `parent`: one object shared by all of them. */
  parent: { path: string; relative: string };
  /** Depth of this directory's children. */
  depth: number;
  entries?: Dirent[];
  index: number;
  ignore: GitignoreStack;
  /** Remaining segments of `after`, only on frames along the resume path. */
  after?: string[];
}

/**
 * The same walk in batches of entries (in order), for consumers that process many
 * entries (search, grep, tree) and should not pay a promise per entry.
 */
export async function* walkBatches(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry[]> {
  const { respectGitignore = true, maxDepth = Infinity, signal, keep, counter } = options;
  signal?.throwIfAborted();
  assertDirectory(root);
  // Where the root really is: each directory listed is checked to be there (see readSorted).
  const realRoot = realpathOrSelf(root);
  const excluded = compileGlobs(options.excludes ?? [], options.globOptions, 'The exclude pattern');
  const rootIgnore = respectGitignore ? loadGitignoreChain(root, options.gitignoreBoundary ?? root, options.onIgnoreFileSkipped) : [];
  const after = options.after ? splitRelative(options.after) : undefined;
  const stack: Frame[] = [{ dir: root, relative: '', parent: { path: root, relative: '' }, depth: 1, index: 0, ignore: rootIgnore, after }];
  let batch: WalkEntry[] = [];
  const slicer = createTimeSlicer(signal);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    // The clock is read at every entry, not only between directories: what an entry costs has
    // no bound of its own (it is tested against every .gitignore rule on its way, and a hostile
    // 650 KB .gitignore of 20,000 rules over 2,000 files held every session for 100 s).
    if (slicer.due()) {
      // With a counter, an empty batch too: the consumer can report progress through a
      // long stretch where `keep` accepts nothing.
      if (batch.length > 0 || counter) yield batch;
      batch = [];
      await slicer.pause();
    }
    if (frame.entries === undefined) {
      if (batch.length >= BATCH_SIZE) {
        yield batch;
        batch = [];
      }
      signal?.throwIfAborted();
      const expected = frame.relative === '' ? realRoot : `${realRoot === path.sep ? '' : realRoot}${path.sep}${frame.relative.split('/').join(path.sep)}`;
      frame.entries = await readSorted(frame.dir, expected, stack.length === 1, (reason) => options.onSkip?.(frame.relative, reason));
      options.onDirectory?.(frame.relative);
      // The root's own .gitignore is already the last level of the chain.
      if (respectGitignore && stack.length > 1) {
        frame.ignore = withGitignoreOf(frame.ignore, frame.dir, frame.entries.some((e) => e.name === GITIGNORE_FILE), {
          realDir: expected,
          onSkip: options.onIgnoreFileSkipped,
        });
      }
    }
    if (frame.index >= frame.entries.length) {
      stack.pop();
      continue;
    }
    const dirent = frame.entries[frame.index++];
    const name = dirent.name;
    let position = 1;
    if (frame.after) {
      position = compareNames(name, frame.after[0]);
      if (position < 0) continue; // this subtree lies wholly before the cursor
      if (position > 0) frame.after = undefined;
    }
    if (respectGitignore && name === '.git') continue;
    const type = typeOf(dirent);
    const kept = keep === undefined || keep(name);
    if (!kept && type !== 'directory') {
      if (counter && position > 0) counter.examined++;
      continue;
    }
    const relative = frame.relative === '' ? name : `${frame.relative}/${name}`;
    if (excluded(relative)) continue;
    const absolute = frame.dir === path.sep ? path.sep + name : frame.dir + path.sep + name;
    if (respectGitignore && frame.ignore.length > 0 && isIgnored(frame.ignore, absolute, type === 'directory')) continue;
    // The cursor entry itself was yielded on the previous page; its subtree may not have been.
    if (position > 0) {
      if (counter) counter.examined++;
      if (kept) batch.push({ path: absolute, relative, name, type, depth: frame.depth, parent: frame.parent });
    }
    if (type === 'directory' && frame.depth < maxDepth) {
      const rest = position === 0 && frame.after!.length > 1 ? frame.after!.slice(1) : undefined;
      stack.push({ dir: absolute, relative, parent: { path: absolute, relative }, depth: frame.depth + 1, index: 0, ignore: frame.ignore, after: rest });
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Code point order of two names. JavaScript's `<` compares UTF-16 units, which puts
 * U+E000..U+FFFF after astral characters; shifting the two ranges fixes that cheaply.
 */
export function compareNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** UTF-16 code units at or above U+D800: where the engine's string order and code point order can differ. */
const BEYOND_PLAIN_ORDER = /[\ud800-\uffff]/;

/**
 * compareNames, or, where it gives the same order for every pair of the entries' names, the
 * engine's own comparison of strings, several times faster: sorting a directory of 200,000
 * names that share a 35-character prefix took 76-79 ms of the event loop with compareNames'
 * loop over characters, 11-18 ms this way. The two orders differ only where a surrogate meets
 * a unit in U+E000..U+FFFF, so a set of names without any unit at or above U+D800 (nearly
 * every directory) is sorted the fast way.
 */
export function nameOrderFor(entries: readonly { name: string }[]): (a: string, b: string) => number {
  for (const entry of entries) if (BEYOND_PLAIN_ORDER.test(entry.name)) return compareNames;
  return compareUnits;
}

function compareUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Order of two relative paths in the walk: segment by segment, a parent before its children. */
export function compareRelativePaths(a: string, b: string): number {
  const x = splitRelative(a);
  const y = splitRelative(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = compareNames(x[i], y[i]);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

/**
 * One predicate for a list of globs (excludes, includes), matched against relative paths with "/"
 * separators, in linear time (glob.ts). Dotfiles match like any file. A glob without "/"
 * matches the name at any depth; "dir/**" also matches "dir" itself, so the directory is
 * skipped, not walked. Throws INVALID_PATTERN (naming `label`) for a glob it cannot match.
 */
export function compileGlobs(patterns: readonly string[], options: GlobOptions = {}, label = 'The glob'): (relative: string) => boolean {
  const windows = (options.platform ?? process.platform) === 'win32';
  const cleaned = patterns
    .map((p) => (windows ? p.replace(/\\/g, '/') : p).trim().replace(/^\.\//, '').replace(/\/+$/, ''))
    .filter((p) => p !== '');
  const names: string[] = [];
  const paths: string[] = [];
  for (const pattern of cleaned) {
    if (!pattern.includes('/')) {
      names.push(pattern);
      continue;
    }
    paths.push(pattern);
    if (pattern.endsWith('/**') && !pattern.startsWith('!')) paths.push(pattern.slice(0, -3));
  }
  if (names.length === 0 && paths.length === 0) return () => false;
  // Each list matched in one pass (compileGlobSet), not glob by glob.
  const byName = names.length > 0 ? compileGlobSet(names, options, label) : undefined;
  const byPath = paths.length > 0 ? compileGlobSet(paths, options, label) : undefined;
  return (relative) => (byName !== undefined && byName(relative.slice(relative.lastIndexOf('/') + 1))) || (byPath !== undefined && byPath(relative));
}

/**
 * The segments of a resume point. It comes back from a client in a cursor, so anything that
 * is not a path below the walk's root (empty, absolute, or with a `..`) is refused, never
 * walked to.
 */
function splitRelative(relative: string): string[] {
  // `relative` joins names with "/"; on POSIX a backslash is part of a name.
  const separators = path.sep === '\\' ? /[\\/]+/ : /\/+/;
  const segments = relative.split(separators).filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0 || segments.includes('..') || path.isAbsolute(relative)) {
    throw new FsError('INVALID_ARGUMENT', 'Invalid cursor: it does not point into this listing. Use the nextCursor from the previous page, or omit the cursor to start over.');
  }
  return segments;
}

function typeOf(dirent: Dirent): EntryType {
  if (dirent.isFile()) return 'file';
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Directory size (st_size) from which it is read in the thread pool: on ext4 some 2,000 entries. */
export const LARGE_DIRECTORY_BYTES = 64 * 1024;

const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The entries of `dir`, sorted. The directory is opened first (not through a final
 * symlink) and, where /proc/self/fd tells, listed only if it really is `expected`: a
 * directory swapped for a symlink to elsewhere mid-walk is skipped, never listed, so
 * the walk cannot hand out paths or names from outside.
 */
async function readSorted(dir: string, expected: string, isRoot: boolean, skipped: (reason: string) => void): Promise<Dirent[]> {
  let entries: Dirent[];
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    let listed = dir;
    let real: string | undefined;
    if (useProcFd()) {
      try {
        real = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        // no /proc: list by path
      }
    }
    if (real !== undefined && path.isAbsolute(real)) {
      if (real !== expected) {
        if (isRoot) throw new FsError('ACCESS_DENIED', `Access denied: ${dir} changed while it was being opened (replaced by a link to elsewhere).`);
        skipped('changed while being listed (replaced by a link to elsewhere)');
        return [];
      }
      listed = `/proc/self/fd/${fd}`;
    }
    // A large directory is read off the main thread: its system calls alone took 0.4-0.5 s
    // for 200,000 entries (ext4), with every session waiting. A small one is read at once,
    // cheaper than a trip through the thread pool. (Where a directory's size says nothing,
    // as on Windows, it reads as small.)
    entries = fstatSync(fd).size >= LARGE_DIRECTORY_BYTES ? await readdir(listed, { withFileTypes: true }) : readdirSync(listed, { withFileTypes: true });
  } catch (error) {
    if (error instanceof FsError) throw error;
    // A subdirectory that vanished or cannot be read mid-walk is skipped, like `find`
    // does; the root failing is the caller's problem.
    const code = errnoCode(error);
    if (!isRoot && (code === 'ENOENT' || code === 'EACCES' || code === 'EPERM' || code === 'ENOTDIR')) return [];
    // A path too long to open, or a loop (or a directory swapped for a symlink): one
    // subtree the walk cannot enter, not a failure of the whole walk.
    if (!isRoot && (code === 'ENAMETOOLONG' || code === 'ELOOP')) {
      skipped(code === 'ENAMETOOLONG' ? 'path longer than the system allows (PATH_MAX)' : 'symbolic link loop');
      return [];
    }
    throw toFsError(error, dir);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const order = nameOrderFor(entries);
  return entries.sort((a, b) => order(a.name, b.name));
}

/**
 * The entries of one directory, sorted by name, read through a descriptor checked to be
 * where `dir` really is (see readSorted): for listings of a single directory.
 */
export function readDirectory(dir: string): Promise<Dirent[]> {
  return readSorted(dir, realpathOrSelf(dir), true, () => undefined);
}

function realpathOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function assertDirectory(root: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch (error) {
    throw toFsError(error, root);
  }
  if (!isDirectory) throw new FsError('NOT_A_DIRECTORY', `${root} is a file, not a directory; give a directory to search.`);
}
