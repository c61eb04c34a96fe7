import picomatch from 'picomatch';
import { FsError } from './errors.js';
import { walkBatches } from './walk.js';
import { assertSafeGlobs, unsafeGlobReason } from './glob-guard.js';
import { openWorkerChannel } from './worker-channel.js';
import type { EntryType, WalkEntry } from './walk.js';

/**
 * search_files: find files and directories by name or glob.
 *
 * Semantics of the official server (so it can be swapped for this one): `pattern` is a
 * glob matched against the path relative to `root`, dotfiles included, so "*.ts"
 * matches only at the top and "**\/*.ts" at any depth; excluded directories are not
 * descended into. One addition: a pattern with no glob characters and no "/" (say
 * "readme") also matches as a case-insensitive substring of the name at any depth, as
 * older versions of the official server did and as models still expect.
 *
 * Speed: one readdir per directory and no stat per entry (the official validates and
 * stats every entry, about 100x slower than `find` on a 100,000-file tree).
 */
export interface SearchOptions {
  /** Globs to leave out; see `WalkOptions.excludes`. */
  excludePatterns?: readonly string[];
  /** Default true: skip what .gitignore files ignore, and .git. */
  respectGitignore?: boolean;
  gitignoreBoundary?: string;
  signal?: AbortSignal;
  /** Called now and then with the number of entries examined so far. */
  onProgress?: (scanned: number) => void;
  /** Stop after this many matches (result marked truncated). Default 10,000. */
  maxResults?: number;
}

export interface SearchMatch {
  path: string;
  relative: string;
  type: EntryType;
}

export interface SearchResult {
  matches: SearchMatch[];
  /** True when more matches exist than `maxResults`. */
  truncated: boolean;
  /** Entries examined. */
  scanned: number;
}

export const DEFAULT_MAX_SEARCH_RESULTS = 10_000;

export async function searchFiles(root: string, pattern: string, options: SearchOptions = {}): Promise<SearchResult> {
  const maxResults = options.maxResults ?? DEFAULT_MAX_SEARCH_RESULTS;
  const found: SearchMatch[] = [];
  let scanned = 0;
  const onProgress = (count: number) => {
    scanned = count;
    options.onProgress?.(count);
  };
  for await (const entry of findEntries(root, pattern, { ...options, onProgress })) {
    // Leaving the loop closes the walk (for-await calls its return()).
    if (found.length === maxResults) return { matches: found, truncated: true, scanned };
    found.push({ path: entry.path, relative: entry.relative, type: entry.type });
  }
  return { matches: found, truncated: false, scanned };
}

export interface FindOptions extends Omit<SearchOptions, 'maxResults'> {
  /** Resume strictly after this relative path (the last match of the previous page). */
  after?: string;
}

/**
 * The entries under `root` whose path matches a search_files pattern, lazily and in walk
 * order, so a caller can take one page and resume later after the last match.
 */
export async function* findEntries(root: string, pattern: string, options: FindOptions = {}): AsyncGenerator<WalkEntry> {
  const plan = planSearchPattern(pattern);
  assertSafeGlobs(options.excludePatterns, 'The exclude pattern');
  let scanned = 0;
  const batches = walkBatches(root, {
    after: options.after,
    excludes: options.excludePatterns,
    respectGitignore: options.respectGitignore,
    gitignoreBoundary: options.gitignoreBoundary,
    signal: options.signal,
  });
  if ('local' in plan) {
    for await (const batch of batches) {
      scanned += batch.length;
      options.onProgress?.(scanned);
      for (const entry of batch) if (plan.local(entry.relative, entry.name)) yield entry;
    }
    return;
  }
  // A glob that could backtrack for long is matched in a worker that cancellation stops.
  const worker = await openWorkerChannel(globHandler, plan.worker, {
    signal: options.signal,
    timeoutMs: SEARCH_TIMEOUT_MS,
    timeoutMessage: `search_files stopped after ${SEARCH_TIMEOUT_MS / 1000} s: use a simpler pattern or search a smaller directory.`,
  });
  try {
    for await (const batch of batches) {
      scanned += batch.length;
      options.onProgress?.(scanned);
      const hits = await worker.request(batch.map((entry) => [entry.relative, entry.name]));
      for (const index of hits) yield batch[index];
    }
  } finally {
    worker.close();
  }
}

const SEARCH_TIMEOUT_MS = 120_000;

interface GlobInit {
  source: string;
  flags: string;
  /** Also match names containing this (lower case). */
  needle?: string;
}

/** Runs in the worker (self-contained): the indexes of the [relative, name] pairs that match. */
const globHandler = (init: GlobInit) => {
  const re = new RegExp(init.source, init.flags);
  const needle = init.needle;
  return (pairs: [string, string][]): number[] => {
    const hits: number[] = [];
    for (let i = 0; i < pairs.length; i++) {
      const [relative, name] = pairs[i];
      if (re.test(relative) || (needle !== undefined && name.toLowerCase().includes(needle))) hits.push(i);
    }
    return hits;
  };
};

type SearchPlan = { local: (relative: string, name: string) => boolean } | { worker: GlobInit };

/** The predicate for a search pattern, compiled once (matched on the calling thread). */
export function compileSearchPattern(pattern: string): (relative: string, name: string) => boolean {
  const plan = planSearchPattern(pattern);
  if ('local' in plan) return plan.local;
  const re = new RegExp(plan.worker.source, plan.worker.flags);
  return (relative) => re.test(relative);
}

/**
 * Where a pattern is matched: on the event loop when that is cheap whatever the names
 * ("**\/*.ts", a plain name, a glob with at most two "*"), else in a worker.
 */
function planSearchPattern(pattern: string): SearchPlan {
  const cleaned = pattern.trim().replace(/^\.\//, '');
  if (cleaned === '') {
    throw new FsError('INVALID_PATTERN', 'The search pattern is empty. Give a name or a glob such as "**/*.ts".');
  }
  let glob: (relative: string) => boolean;
  let re: RegExp;
  try {
    glob = picomatch(cleaned, { dot: true });
    re = picomatch.makeRe(cleaned, { dot: true });
  } catch (error) {
    throw new FsError('INVALID_PATTERN', `Invalid glob ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
  // The commonest patterns, "**/*.ext" and "*.ext", need no regular expression: on a
  // 100,000-file tree this check is most of the time spent beyond reading directories.
  const byExtension = /^(\*\*\/)?\*(\.[^*?[\]{}()!+@/\\]+)$/.exec(cleaned);
  if (byExtension) {
    const [, anyDepth, extension] = byExtension;
    return {
      local: anyDepth ? (_relative, name) => name.endsWith(extension) : (relative, name) => !relative.includes('/') && name.endsWith(extension),
    };
  }
  const isGlob = picomatch.scan(cleaned).isGlob;
  const cheap =
    unsafeGlobReason(cleaned) === undefined &&
    cleaned.split('/').reduce((stars, segment) => stars + (segment === '**' ? 0 : (segment.match(/\*+/g) ?? []).length), 0) <= 2;
  if (isGlob || cleaned.includes('/')) return cheap ? { local: (relative) => glob(relative) } : { worker: { source: re.source, flags: re.flags } };
  // A plain name has no repetition: its glob is the text itself.
  const needle = cleaned.toLowerCase();
  return { local: (relative, name) => glob(relative) || name.toLowerCase().includes(needle) };
}
