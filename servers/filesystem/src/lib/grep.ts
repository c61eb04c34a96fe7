import { stat } from 'node:fs/promises';
import path from 'node:path';
import { FsError, toFsError } from './errors.js';
import { compileGlobs, walkBatches } from './walk.js';
import type { WalkEntry } from './walk.js';
import { openWorkerChannel } from '@mcp-reference/shared/core';
import { useProcFd } from './proc-fd.js';
import { compileRegex, quoteRegex } from './regex.js';
import type { RE2JSClass } from '@mcp-reference/shared/core';
import type { GlobOptions } from './glob.js';

/**
 * grep_files: search file contents under a directory (or in one file).
 *
 * One result per matching line, `grep -n` style, in walk order (sorted, depth-first).
 * Binary files (a NUL byte in the first 8 KB, as git and grep decide) and files above
 * `maxFileBytes` are skipped and counted. Lines are matched without their "\r".
 *
 * Patterns are RE2 expressions matched by re2js (regex.ts): linear in the text whatever
 * the pattern, so `(a+)+$` on a line of a's or `.*zzz` on a 256 KB line answer in
 * milliseconds; what RE2 cannot express (backreferences, lookaround) is refused by name.
 *
 * Where the work runs: matching a whole tree is still work, and nothing can interrupt it
 * on the event loop. So the main thread only walks directories (time-sliced, see
 * walk.ts) and applies the include globs, and hands batches of paths to worker threads
 * from the process's pool (shared/src/worker.ts): one for the call, and a second for a
 * large search when the pool has one idle; a worker opens, reads and matches the files
 * (synchronous reads: on 100,000 small files fs.promises.readFile took 2.5-11 s,
 * readFileSync 0.6 s) and can be terminated at any instruction when the call is
 * cancelled, its session ends or it runs out of time.
 *
 * Memory and output are bounded: files are read in 1 MB chunks and matched line by line
 * (a 48 MB file is never one string), and matches stop at `maxResults` or when their
 * text reaches `maxOutputBytes`, whichever comes first (`truncatedBy` says which).
 * Context lines are merged as `grep -C` merges them: a line is shown once, so a match's
 * `before` starts after the previous match's last line, and `after` stops before the
 * next match.
 */
export interface GrepOptions {
  /** A regular expression in RE2 syntax (JavaScript's, without backreferences and lookaround), or plain text with `literal: true`. */
  pattern: string;
  literal?: boolean;
  /** Default true, as in grep. */
  caseSensitive?: boolean;
  /** Only files matching one of these globs (by name, or by relative path when the glob has "/"). */
  include?: readonly string[];
  /** Leave out these files and directories; see `WalkOptions.excludes`. */
  exclude?: readonly string[];
  /** How include and exclude globs match (case, Windows separators). */
  globOptions?: GlobOptions;
  /** Lines of context before and after each match. Default 0. */
  contextLines?: number;
  /** Stop after this many matching lines (result marked truncated). Default 200. */
  maxResults?: number;
  /** Skip larger files. Default 50 MB. */
  maxFileBytes?: number;
  /** Longer lines are cut around the match, so one minified file cannot flood a result. Default 500. */
  maxLineLength?: number;
  /** Stop once the response would carry about this many characters of matches (paths, lines, context). Default 4 M. */
  maxOutputBytes?: number;
  /** Stop the whole search after this long. Default 120 s. */
  timeoutMs?: number;
  respectGitignore?: boolean;
  gitignoreBoundary?: string;
  /** Told about each .gitignore skipped (see walk.ts). */
  onIgnoreFileSkipped?: (file: string, reason: string) => void;
  /**
   * Real paths of the directories a file may really be in (the policy's allowed
   * directories). Each file is checked after it is opened: a directory on the way may
   * have been swapped for a symlink to elsewhere since the walk listed it. Default: `root`.
   */
  allowed?: readonly string[];
  signal?: AbortSignal;
  onProgress?: (filesScanned: number) => void;
}

export interface GrepMatch {
  path: string;
  relative: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units, of the first match on the line. */
  column: number;
  text: string;
  before: string[];
  after: string[];
}

export interface GrepResult {
  matches: GrepMatch[];
  truncated: boolean;
  /** Why the search stopped early, when it did. */
  truncatedBy?: 'max_results' | 'output_size';
  filesScanned: number;
  filesMatched: number;
  skipped: {
    binary: number;
    /** Paths of files over `maxFileBytes` (at most 100 listed). */
    tooLarge: string[];
    /** Paths that could not be read (at most 100 listed). */
    unreadable: string[];
  };
}

export const DEFAULT_MAX_GREP_RESULTS = 200;
export const DEFAULT_MAX_GREP_FILE_BYTES = 50 * 1024 * 1024;
export const DEFAULT_MAX_GREP_OUTPUT_BYTES = 4_000_000;
export const DEFAULT_GREP_TIMEOUT_MS = 120_000;

const MAX_LISTED_SKIPS = 100;
// Requests in flight to the worker: enough to keep it busy while the walk reads ahead,
// few enough that a search stopped early has not walked far past its end.
const IN_FLIGHT = 4;
// Requests sent before a second worker joins: a small search is not worth a second thread.
const SECOND_WORKER_AFTER = 2;
// When the pool had no idle worker for it, requests sent before asking again.
const SECOND_WORKER_RETRY = 4;
// Each worker's heap limit: the two together get what one had. A worker holds a 1 MB
// read buffer, the text of one chunk and its share of the capped matches.
const WORKER_HEAP_MB = 256;
// Files per request: fewer round trips when directories are small.
const MIN_REQUEST_FILES = 1000;

export async function grepFiles(root: string, options: GrepOptions): Promise<GrepResult> {
  const init = compileInit(options, options.allowed ?? [root]);
  const included = compileIncludes(options.include, options.globOptions);
  // Fails now, not at the first batch, when an exclude glob cannot be matched.
  compileGlobs(options.exclude ?? [], options.globOptions, 'The exclude glob');
  const result: GrepResult = {
    matches: [],
    truncated: false,
    filesScanned: 0,
    filesMatched: 0,
    skipped: { binary: 0, tooLarge: [], unreadable: [] },
  };
  let rootIsFile: boolean;
  try {
    rootIsFile = (await stat(root)).isFile();
  } catch (error) {
    throw toFsError(error, root);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_GREP_TIMEOUT_MS;
  const start = (onlyIfIdle = false) => {
    const starting = openWorkerChannel(grepHandler, init, {
      re2js: true,
      onlyIfIdle,
      signal: options.signal,
      timeoutMs,
      timeoutMessage: `grep_files stopped after ${timeoutMs / 1000} s: search a smaller directory, add include globs, or simplify the pattern.`,
      maxHeapMb: WORKER_HEAP_MB,
    });
    starting.catch(() => undefined); // awaited before the first request to it
    return starting;
  };
  // The first worker is asked for while the walk begins (a new one takes tens of
  // milliseconds to boot); a second one joins when the search proves large and the pool
  // has one idle (never queued behind other calls: this call would wait on itself), and
  // the two take requests in turn (opening files is most of the work, done one at a time).
  const workers = [start()];
  let nextSecondTry = SECOND_WORKER_AFTER;
  const maxResults = options.maxResults ?? DEFAULT_MAX_GREP_RESULTS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_GREP_OUTPUT_BYTES;
  let outputBytes = 0;
  let lastPath: string | undefined;
  const stop = (why: 'max_results' | 'output_size') => {
    result.truncated = true;
    result.truncatedBy = why;
    return false;
  };
  // Replies are merged in request order. Each worker keeps the budgets for what it has
  // seen (which bounds its work and memory); the whole result is held to them here, the
  // same way, match by match and line by line, so the cut falls where one worker's would.
  const merge = (reply: GrepReply): boolean => {
    result.filesScanned += reply.filesScanned;
    result.skipped.binary += reply.binary;
    for (const file of reply.tooLarge) note(result.skipped.tooLarge, file);
    for (const file of reply.unreadable) note(result.skipped.unreadable, file);
    for (const match of reply.matches) {
      if (result.matches.length >= maxResults) return stop('max_results');
      const lineCost = match.path.length + 12;
      outputBytes += match.path.length + 48 + lineCost + 2 * match.text.length;
      for (const line of match.before) outputBytes += lineCost + 2 * line.length;
      if (outputBytes > maxOutputBytes) return stop('output_size');
      result.matches.push(match);
      if (match.path !== lastPath) result.filesMatched++;
      lastPath = match.path;
      for (let i = 0; i < match.after.length; i++) {
        outputBytes += lineCost + 2 * match.after[i].length;
        if (outputBytes > maxOutputBytes) {
          match.after.length = i;
          return stop('output_size');
        }
      }
    }
    if (reply.stoppedBy) return stop(reply.stoppedBy);
    options.onProgress?.(result.filesScanned);
    return true;
  };
  try {
    if (rootIsFile) {
      const worker = await workers[0];
      merge(await worker.request({ groups: [{ dir: path.dirname(root), relative: '', names: [path.basename(root)] }], named: true }));
      return result;
    }
    const batches = walkBatches(root, {
      excludes: options.exclude,
      respectGitignore: options.respectGitignore,
      gitignoreBoundary: options.gitignoreBoundary,
      onIgnoreFileSkipped: options.onIgnoreFileSkipped,
      globOptions: options.globOptions,
      signal: options.signal,
    });
    const inFlight: Promise<GrepReply>[] = [];
    // Files go to the worker by directory (its path once, then names): a tenth of the
    // bytes to copy between threads, and no path string per file on either side.
    let pending: GrepGroup[] = [];
    let pendingFiles = 0;
    let group: GrepGroup | undefined;
    let groupParent: WalkEntry['parent'] | undefined;
    let more = true;
    let sentCount = 0;
    const send = async () => {
      // The pool may still be taking back the workers of the call before this one: ask
      // again a few requests later rather than search the whole tree with one.
      if (workers.length < 2 && sentCount >= nextSecondTry) {
        nextSecondTry = sentCount + SECOND_WORKER_RETRY;
        const second = await start(true).catch(() => undefined);
        if (second) workers.push(Promise.resolve(second));
      }
      const worker = await workers[sentCount++ % workers.length];
      const sent = worker.request({ groups: pending, named: false });
      sent.catch(() => undefined); // awaited below; this only marks it handled
      inFlight.push(sent);
      pending = [];
      pendingFiles = 0;
      group = undefined;
    };
    for await (const batch of batches) {
      for (const entry of batch) {
        if (entry.type !== 'file' || !included(entry.relative)) continue;
        if (group === undefined || entry.parent !== groupParent) {
          groupParent = entry.parent;
          group = { dir: entry.parent.path, relative: entry.parent.relative, names: [] };
          pending.push(group);
        }
        group.names.push(entry.name);
        pendingFiles++;
      }
      if (pendingFiles < MIN_REQUEST_FILES) continue;
      await send();
      if (inFlight.length >= IN_FLIGHT && !(more = merge(await inFlight.shift()!))) break; // leaving the loop closes the walk
    }
    if (more && pending.length > 0) await send();
    while (more && inFlight.length > 0) more = merge(await inFlight.shift()!);
    return result;
  } finally {
    for (const starting of workers) void starting.then((worker) => worker.close(), () => undefined);
  }
}

/** Whether a file is searched: include globs match its name, or its relative path when they have "/". */
function compileIncludes(include: readonly string[] | undefined, globOptions: GlobOptions | undefined): (relative: string) => boolean {
  const globs = (include ?? []).filter((glob) => glob.trim() !== '');
  if (globs.length === 0) return () => true;
  return compileGlobs(globs, globOptions, 'The include glob');
}

function note(list: string[], file: string): void {
  if (list.length < MAX_LISTED_SKIPS) list.push(file);
}

interface GrepFile {
  path: string;
  relative: string;
}

/** Files of one directory: `dir` (absolute) and `relative` (to the search root, '' for the root itself), then names. */
interface GrepGroup {
  dir: string;
  relative: string;
  names: string[];
}

interface GrepRequest {
  groups: GrepGroup[];
  /** The file was named by the caller: checked by itself, not by its directory. */
  named: boolean;
}

interface GrepReply {
  matches: GrepMatch[];
  filesScanned: number;
  filesMatched: number;
  binary: number;
  tooLarge: string[];
  unreadable: string[];
  bytes: number;
  stoppedBy?: 'max_results' | 'output_size';
}

interface GrepInit {
  /** RE2 syntax, and re2js flag bits. */
  source: string;
  flags: number;
  /** Match over the whole text and check the line (faster), or test each line. */
  scanWhole: boolean;
  /** Text every matching file contains (literal, case-sensitive search). */
  needle?: string;
  contextLines: number;
  maxLineLength: number;
  maxFileBytes: number;
  /** Budgets for the whole call, kept by the worker across requests. */
  maxMatches: number;
  maxBytes: number;
  /** Real directories an opened file must really be inside. */
  allowed: readonly string[];
  /** Ask /proc where a descriptor is (see proc-fd.ts); the worker cannot import that module. */
  procFd: boolean;
}

function compileInit(options: GrepOptions, allowed: readonly string[]): GrepInit {
  const maxMatches = options.maxResults ?? DEFAULT_MAX_GREP_RESULTS;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_GREP_OUTPUT_BYTES;
  const { pattern, literal = false, caseSensitive = true } = options;
  if (pattern === '') throw new FsError('INVALID_PATTERN', 'The pattern is empty. Give text or a regular expression to search for.');
  const { source, flags } = literal
    ? { source: quoteRegex(pattern), flags: compileRegex(quoteRegex(pattern), { caseInsensitive: !caseSensitive }).flags }
    : compileRegex(pattern, { caseInsensitive: !caseSensitive });
  return {
    source,
    flags,
    // Jumping from match to match over the whole text finds the same lines as testing
    // each line, except for patterns whose meaning depends on where a line or the text ends.
    scanWhole: !/\$|\\[Az]/.test(source),
    // A pattern without special characters is text too: found in the bytes, not decoded first.
    // (Not with U+FFFD, which decoding makes of bytes that are not UTF-8.)
    needle: caseSensitive && !pattern.includes('\uFFFD') && (literal || !/[\\^$.*+?()[\]{}|/]/.test(pattern)) ? pattern : undefined,
    contextLines: Math.max(0, Math.floor(options.contextLines ?? 0)),
    maxLineLength: options.maxLineLength ?? 500,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_GREP_FILE_BYTES,
    maxMatches,
    maxBytes,
    allowed: [...allowed],
    procFd: useProcFd(),
  };
}

/**
 * Runs in the worker (sent as source text: self-contained, Node built-ins and the RE2JS class
 * the channel hands it only). Returns the function that greps one batch of files.
 */
const grepHandler = (init: GrepInit, RE2JS: RE2JSClass) => {
  // process.getBuiltinModule, not require: a bundler rewrites `require` in this source.
  const fs = process.getBuiltinModule('node:fs');
  const nodePath = process.getBuiltinModule('node:path');
  const { StringDecoder } = process.getBuiltinModule('node:string_decoder');
  const lineRe = RE2JS.compile(init.source, init.flags);
  const scanRe = init.scanWhole ? RE2JS.compile(init.source, init.flags | RE2JS.MULTILINE) : undefined;
  // Cleared by the first match that runs over a line end (see nextCandidate): lines one by one from then on.
  let scanAcrossLines = true;
  const needle = init.needle === undefined ? undefined : Buffer.from(init.needle);
  const context = init.contextLines;
  const maxLength = init.maxLineLength;
  const CHUNK = 1024 * 1024;
  const buffer = Buffer.allocUnsafe(CHUNK);

  // A slice keeps its whole parent string alive; a copy lets a 1 MB chunk go.
  const own = (text: string) => (text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string));
  // An index moved back off the second half of a surrogate pair (an emoji): a clipped line
  // starts and ends on whole characters (the codePointBoundary of the base, inlined: this code
  // runs in a worker as source text).
  const whole = (line: string, i: number) =>
    i > 0 && i < line.length && (line.charCodeAt(i) & 0xfc00) === 0xdc00 && (line.charCodeAt(i - 1) & 0xfc00) === 0xd800 ? i - 1 : i;
  const clip = (line: string, at: number) => {
    if (line.length <= maxLength) return own(line);
    const from = whole(line, Math.max(0, Math.min(at - Math.floor(maxLength / 4), line.length - maxLength)));
    const to = whole(line, from + maxLength);
    return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
  };
  const stripCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
  // isWithinPath against each allowed directory, as the base's directorySet does it: each
  // ancestor of the path looked up (a client may list thousands of roots).
  const fold = nodePath.sep === '\\' ? (p: string) => nodePath.resolve(p).toLowerCase() : (p: string) => nodePath.resolve(p);
  const allowedDirs = new Set(init.allowed.map(fold));
  const within = (real: string) => {
    for (let current = fold(real); ; ) {
      if (allowedDirs.has(current)) return true;
      const parent = nodePath.dirname(current);
      if (parent === current) return false;
      current = parent;
    }
  };
  // Where the descriptor really is (as open-checked.ts decides): /proc/<pid>/fd on Linux
  // (not /proc/self: one symlink less to resolve per look-up); elsewhere the realpath of
  // the opened path, if it still names the same inode.
  const procFd = `/proc/${process.pid}/fd/`;
  const procAvailable = init.procFd;
  // A path ending in " (deleted)": the file was unlinked (or replaced by rename) since it
  // was opened, and was at the path before it; unless its name really ends so (it still
  // has links). As procPathOfFd in open-checked.ts.
  const DELETED = ' (deleted)';
  const undeleted = (fd: number, link: string): string | undefined => {
    if (!link.endsWith(DELETED)) return link;
    try {
      return fs.fstatSync(fd).nlink > 0 ? link : link.slice(0, -DELETED.length);
    } catch {
      return undefined;
    }
  };
  const realOf = (fd: number, opened: string): string | undefined => {
    try {
      if (!procAvailable) throw new Error('no /proc');
      const link = fs.readlinkSync(procFd + fd);
      if (nodePath.isAbsolute(link)) return undeleted(fd, link);
    } catch {
      // no /proc: fall through
    }
    try {
      const own = fs.fstatSync(fd, { bigint: true });
      const real = fs.realpathSync(opened);
      const now = fs.statSync(real, { bigint: true });
      return now.dev === own.dev && now.ino === own.ino ? real : undefined;
    } catch {
      return undefined;
    }
  };
  const FILE_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0);

  // The directory whose files are being searched. On Linux it is opened once and checked
  // once (its descriptor's real path inside an allowed directory), and its files are opened
  // through that descriptor (/proc/<pid>/fd/<dir>/<name>, which is openat(dir, name)): a
  // directory on the way swapped for a symlink after the walk listed it cannot lead the
  // open elsewhere, and no file needs a look-up of its own. Where that is not available
  // (no /proc), each file is opened by its path and checked after opening.
  let dirPath: string | undefined;
  let dirFd = -1;
  /** Prefix to open a file of the directory by name; undefined: open by path, check each. */
  let dirPrefix: string | undefined;
  /** The directory really is outside the allowed ones (or gone): its files are skipped. */
  let dirOutside = false;
  let viaProc = procAvailable;
  const closeDir = () => {
    if (dirFd >= 0) {
      try {
        fs.closeSync(dirFd);
      } catch {
        // already gone
      }
    }
    dirFd = -1;
    dirPath = undefined;
    dirPrefix = undefined;
  };
  const enterDir = (dir: string) => {
    closeDir();
    dirPath = dir;
    dirPrefix = undefined;
    dirOutside = false;
    if (!viaProc) return;
    try {
      dirFd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    } catch {
      return; // each file opened by path reports itself
    }
    let link: string;
    try {
      link = fs.readlinkSync(procFd + dirFd);
    } catch {
      viaProc = false; // no /proc
      closeDir();
      dirPath = dir;
      return;
    }
    const real = nodePath.isAbsolute(link) ? undeleted(dirFd, link) : undefined;
    if (real === undefined || !within(real)) dirOutside = true;
    else dirPrefix = `${procFd}${dirFd}/`;
  };

  // Kept across the requests of the call, so that several can be in flight.
  let totalMatches = 0;
  let totalBytes = 0;
  let stoppedBy: GrepReply['stoppedBy'];

  return (request: GrepRequest): GrepReply => {
    const reply: GrepReply = { matches: [], filesScanned: 0, filesMatched: 0, binary: 0, tooLarge: [], unreadable: [], bytes: 0 };
    if (stoppedBy) {
      reply.stoppedBy = stoppedBy;
      return reply;
    }
    const grepOne = (file: GrepFile, dir: string, name: string): boolean => {
      // A file named by the caller is checked by itself: `allowed` may be that file alone.
      if (request.named) closeDir();
      else if (dir !== dirPath) enterDir(dir);
      // Silently: the path may name what is outside.
      if (dirOutside && !request.named) return true;
      let fd: number;
      try {
        // O_NONBLOCK: a FIFO swapped in after the walk must not block; fstat then skips it.
        // O_NOFOLLOW: nor a symlink swapped in for a file the walk saw.
        fd = fs.openSync(dirPrefix === undefined ? file.path : dirPrefix + name, FILE_FLAGS);
      } catch {
        reply.unreadable.push(file.path);
        return true;
      }
      try {
        if (dirPrefix !== undefined) {
          // The usual file, small and without a match, costs an open, one read and a close:
          // it was opened through its checked directory, without following a symlink and
          // without blocking, and is read before it is fstat'ed (building a Stats object
          // cost about a sixth of a search). A read shorter than the buffer holds the whole
          // file; only a file that may match, or a large one, is fstat'ed (a regular file
          // of at most maxFileBytes) before anything of it is reported. (A FIFO swapped in
          // since the walk reads as empty, or fails with EAGAIN: never a wait.)
          const n = fs.readSync(fd, buffer, 0, CHUNK, 0);
          if (n < CHUNK && n <= init.maxFileBytes) {
            if (n > 0 && buffer.subarray(0, Math.min(n, 8192)).includes(0)) {
              if (!fs.fstatSync(fd).isFile()) {
                reply.unreadable.push(file.path);
                return true;
              }
              reply.filesScanned++;
              reply.binary++;
              return true;
            }
            const maybe = n > 0 && (needle ? buffer.subarray(0, n).indexOf(needle) !== -1 : scanRe ? scanRe.test(buffer.toString('utf8', 0, n)) : true);
            if (!maybe) {
              reply.filesScanned++;
              return true;
            }
          }
        }
        if (dirPrefix === undefined) {
          // A directory on the way swapped for a symlink to elsewhere after the walk listed
          // it: the file is not in an allowed directory; skipped without a word (its path
          // may name what is outside).
          const real = realOf(fd, file.path);
          if (real === undefined || !within(real)) return true;
        }
        const info = fs.fstatSync(fd);
        if (!info.isFile()) {
          reply.unreadable.push(file.path);
          return true;
        }
        if (info.size > init.maxFileBytes) {
          reply.tooLarge.push(file.path);
          return true;
        }
        reply.filesScanned++;
        // Fast path for the usual file, small and without a match: one read, one test of
        // the whole text, no line splitting.
        if (info.size <= CHUNK) {
          const n = info.size === 0 ? 0 : fs.readSync(fd, buffer, 0, info.size, 0);
          if (n === 0) return true;
          if (buffer.subarray(0, Math.min(n, 8192)).includes(0)) {
            reply.binary++;
            return true;
          }
          if (n === info.size) {
            if (needle) {
              if (buffer.subarray(0, n).indexOf(needle) === -1) return true;
            } else if (scanRe) {
              if (!scanRe.test(buffer.toString('utf8', 0, n))) return true;
            }
          }
        }
        return searchFile(fd, file, info.size);
      } catch {
        reply.unreadable.push(file.path);
        return true;
      } finally {
        fs.closeSync(fd);
      }
    };

    // Line by line, in chunks: a file that may match, or a large one.
    const searchFile = (fd: number, file: GrepFile, size: number): boolean => {
        const decoder = new StringDecoder('utf8');
        let line = 0; // lines before the current block
        let current: GrepMatch | undefined; // the match still collecting `after`
        let pendingAfter = 0;
        let recent: string[] = []; // up to `context` lines not yet in the result, for `before`
        let matched = false;
        let stopped = false;

        // What the response will carry for it: the structured entry, and a text line that
        // repeats the path for each line shown ("path:12:text", "path-13-context").
        const lineCost = file.path.length + 12;
        const account = (lines: string[], isMatch: boolean) => {
          let cost = isMatch ? file.path.length + 48 : 0;
          for (const line of lines) cost += lineCost + 2 * line.length;
          reply.bytes += cost;
          totalBytes += cost;
          return totalBytes <= init.maxBytes;
        };
        const block = (text: string) => {
          let scanner = scanAcrossLines ? scanRe?.matcher(text) : undefined;
          // Offset of the start of the next line that may match, at or after `from`.
          const nextCandidate = (from: number): number => {
            if (!scanner) return from;
            if (from >= text.length) return Infinity;
            if (!scanner.find(from)) return Infinity;
            const at: number = scanner.start();
            // A match that runs over a line end ("a[\s\S]*b") says little about lines, and
            // finding the next one from each candidate line ran to the end of the block every
            // time: quadratic (a 770 KB file took the whole 120 s). From here on, this search
            // tests each line, once.
            if (text.lastIndexOf('\n', scanner.end() - 1) >= at) {
              scanAcrossLines = false;
              scanner = undefined;
              return from;
            }
            return at <= from ? from : Math.max(from, text.lastIndexOf('\n', at - 1) + 1);
          };
          let pos = 0;
          let candidate = nextCandidate(0);
          while (pos < text.length) {
            const newline = text.indexOf('\n', pos);
            const end = newline === -1 ? text.length : newline;
            line++;
            let found: { index: number } | null = null;
            let content: string | undefined;
            if (candidate <= pos) {
              content = stripCr(text.slice(pos, end));
              const matcher = lineRe.matcher(content);
              if (matcher.find()) found = { index: matcher.start() };
              candidate = nextCandidate(end + 1);
            }
            if (found) {
              if (totalMatches >= init.maxMatches) {
                stoppedBy = reply.stoppedBy = 'max_results';
                stopped = true;
                return;
              }
              const match: GrepMatch = {
                path: file.path,
                relative: file.relative,
                line,
                column: found.index + 1,
                text: clip(content!, found.index),
                before: recent,
                after: [],
              };
              if (!account([match.text, ...recent], true)) {
                stoppedBy = reply.stoppedBy = 'output_size';
                stopped = true;
                return;
              }
              reply.matches.push(match);
              totalMatches++;
              if (!matched) reply.filesMatched++;
              matched = true;
              current = match;
              pendingAfter = context;
              recent = [];
            } else if (pendingAfter > 0 && current) {
              const after = clip(content ?? stripCr(text.slice(pos, end)), 0);
              if (!account([after], false)) {
                stoppedBy = reply.stoppedBy = 'output_size';
                stopped = true;
                return;
              }
              current.after.push(after);
              pendingAfter--;
            } else if (context > 0) {
              recent.push(clip(content ?? stripCr(text.slice(pos, end)), 0));
              if (recent.length > context) recent.shift();
            }
            pos = end + 1;
          }
        };

        let position = 0;
        // The text after the last line end read so far, in the pieces it was decoded in: a line
        // longer than a chunk (minified code, one-line JSON) is joined once it ends, not again
        // with every chunk (which copied and scanned it all each time: quadratic in its length).
        let carry: string[] = [];
        while (position < size && !stopped) {
          const n = fs.readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
          if (n === 0) break;
          if (position === 0) {
            if (buffer.subarray(0, Math.min(n, 8192)).includes(0)) {
              reply.binary++;
              return true;
            }
            if (needle && n === size && buffer.subarray(0, n).indexOf(needle) === -1) return true;
          }
          position += n;
          const decoded = decoder.write(buffer.subarray(0, n));
          const cut = decoded.lastIndexOf('\n');
          if (cut === -1) {
            carry.push(decoded);
            continue;
          }
          const text = carry.join('') + decoded.slice(0, cut + 1);
          carry = [decoded.slice(cut + 1)];
          block(text);
        }
        if (!stopped) {
          const rest = carry.join('') + decoder.end();
          if (rest !== '') block(rest);
        }
        return !stopped;
    };
    try {
      outer: for (const { dir, relative, names } of request.groups) {
        const base = dir.endsWith(nodePath.sep) ? dir : dir + nodePath.sep; // "/" or a drive root "C:\"
        for (const name of names) {
          if (!grepOne({ path: base + name, relative: relative === '' ? name : `${relative}/${name}` }, dir, name)) break outer;
        }
      }
    } finally {
      // Not kept between requests: the call may end (and the worker with it) at any time.
      closeDir();
    }
    return reply;
  };
};
