import { promises as fsp, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { directorySet, isWithinPath, mapConcurrently, type DirectorySet } from '@mcp-reference/shared/core';
import { FsError, errnoCode, toFsError } from './errors.js';
import { assertOpenedInside, notAFile, openRegularDescriptor } from './open-checked.js';
import type { ReadableFile } from './descriptor.js';
import { pathFlavor, type PathFlavor } from './path-flavor.js';

/**
 * Confinement of every path a client sends to the allowed directories.
 *
 * The rule is simple on purpose: a path is turned into the real path the kernel would
 * use (every symlink resolved), and only that real path is checked and returned. Tools
 * then operate on the returned path, never on the string the client sent, so a symlink
 * inside an allowed directory cannot smuggle an operation outside it.
 *
 * A component can be swapped for a symlink between the check and the operation by
 * someone who can already write inside the allowed directory. So reads go through
 * `openFile`, which checks what was actually opened (open-checked.ts), and writes check
 * the directory and the temporary file they write (atomic-write.ts); `contains` is the
 * test both apply to a real path.
 */
export interface PathPolicy {
  /** The allowed directories (absolute, real paths). */
  allowed(): Promise<string[]>;
  /** The allowed directories as a set that answers containment in a path's depth (several thousand client roots cost no more). */
  scope(): Promise<DirectorySet>;
  /** An existing file or directory: its real path. NOT_FOUND if it does not exist. */
  resolveReadable(requested: string): Promise<string>;
  /** An existing regular file (NOT_A_FILE for directories). */
  resolveFile(requested: string): Promise<string>;
  /** An existing directory (NOT_A_DIRECTORY for files). */
  resolveDirectory(requested: string): Promise<string>;
  /**
   * A path that may not exist yet (to create, write, or move onto). Its deepest
   * existing ancestor is resolved and checked; a (dangling) symlink at the first
   * missing component is followed on paper and refused if it leads outside. Missing
   * intermediate directories are allowed: whether to create them is the caller's call.
   */
  resolveWritable(requested: string): Promise<string>;
  /**
   * The allowed directory that holds a resolved path: where .gitignore files stop
   * applying (a .gitignore above an allowed directory is not the user's to apply).
   */
  rootOf(resolved: string): Promise<string | undefined>;
  /** True when a real path is inside the allowed directories. */
  contains(real: string): Promise<boolean>;
  /**
   * An existing regular file, opened for reading: resolved like `resolveFile`, opened
   * without following a final symlink or blocking on a FIFO, and refused unless the
   * opened descriptor really is inside the allowed directories. The caller closes it.
   */
  openFile(requested: string): Promise<{ handle: ReadableFile; real: string }>;
}

/**
 * @param getAllowed returns the allowed directories as absolute real paths (see
 *   `realpathAllowedDirs`). It is called on every resolution, so the set can change at
 *   runtime (client roots) without the policy holding state of its own.
 */
export function createPathPolicy(getAllowed: () => Promise<string[]> | string[]): PathPolicy {
  // The set of the list getAllowed last gave (the same array until the roots change).
  let last: DirectorySet | undefined;
  const setOf = (dirs: string[]) => (last?.dirs === dirs ? last : (last = directorySet(dirs)));

  async function scope(): Promise<DirectorySet> {
    const set = setOf(await getAllowed());
    if (set.dirs.length === 0) {
      throw new FsError(
        'NO_ALLOWED_DIRECTORIES',
        'No directory is allowed yet, so no path can be used. Start the server with one or more DIR arguments ' +
          '(mcp-server-filesystem /path/to/dir), or use a client that provides roots.',
      );
    }
    return set;
  }

  async function allowed(): Promise<string[]> {
    return [...(await scope()).dirs];
  }

  async function locate(requested: string): Promise<{ real: string; exists: boolean }> {
    const dirs = await scope();
    const absolute = toAbsolute(requested, dirs);
    if (absolute.includes(REPLACEMENT_CHARACTER)) await assertUnambiguousNames(absolute, requested, dirs);
    const { real, exists } = await resolveDeepest(absolute, dirs, requested);
    if (!dirs.holds(real)) throw outside(requested, real, dirs);
    return { real, exists };
  }

  async function resolveReadable(requested: string): Promise<string> {
    const { real, exists } = await locate(requested);
    if (!exists) {
      throw new FsError(
        'NOT_FOUND',
        `${requested}${driveNote(requested, real, pathFlavor())} does not exist. Check the spelling, or list ${await nearestExisting(real)} to see what is there.`,
      );
    }
    return real;
  }

  async function resolveFile(requested: string): Promise<string> {
    // A path that changes after this check is caught on the opened descriptor
    // (openRegularDescriptor, assertOpenedInside).
    const real = await resolveReadable(requested);
    const stats = statOf(real, requested);
    if (!stats.isFile()) throw notAFile(requested, stats);
    return real;
  }

  async function resolveDirectory(requested: string): Promise<string> {
    const real = await resolveReadable(requested);
    const stats = statOf(real, requested);
    if (!stats.isDirectory()) {
      throw new FsError('NOT_A_DIRECTORY', `${requested} is a file, not a directory. Give the directory that contains it.`);
    }
    return real;
  }

  async function resolveWritable(requested: string): Promise<string> {
    return (await locate(requested)).real;
  }

  async function rootOf(resolved: string): Promise<string | undefined> {
    return (await scope()).holderOf(resolved);
  }

  async function contains(real: string): Promise<boolean> {
    return setOf(await getAllowed()).holds(real);
  }

  async function openFile(requested: string): Promise<{ handle: ReadableFile; real: string }> {
    // Only a regular file is opened (resolveFile's stat): opening a device or a FIFO can
    // act on it (a serial line's modem signals, a FIFO's waiting writer), even when it is
    // refused right after. The opened descriptor's own fstat refuses what was swapped in meanwhile.
    const checked = await resolveFile(requested);
    const handle = await openRegularDescriptor(checked, requested);
    try {
      return { handle, real: await assertOpenedInside(handle, checked, contains, requested) };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  return { allowed, scope, resolveReadable, resolveFile, resolveDirectory, resolveWritable, rootOf, contains, openFile };
}

/** stat, synchronously (see resolveDeepest), errors as FsErrors about `requested`. */
function statOf(real: string, requested: string): Stats {
  try {
    return statSync(real);
  } catch (error) {
    throw toFsError(error, requested);
  }
}

/**
 * True when `child` is `parent` or inside it, comparing whole path segments, so
 * `/data` does not contain `/data-evil`. The base's rule, the same one roots use.
 */
export const isWithin = isWithinPath;

export interface AllowedDirs {
  /** Absolute real paths of existing directories, deduplicated, in the given order. */
  directories: string[];
  /** Inputs that were dropped, each with a reason a user can act on. */
  skipped: { input: string; reason: string }[];
}

/**
 * Turns configured locations (CLI arguments or client roots) into the absolute real
 * directories a policy checks against. Unlike paths from a model, these come from the
 * user, so `~` is expanded and `file://` URIs (the form of MCP roots) are accepted.
 */
/** Allowed directories resolved at once (the thread pool has 4 threads by default). */
const RESOLVING_AT_ONCE = 8;

export async function realpathAllowedDirs(inputs: readonly string[]): Promise<AllowedDirs> {
  const home = os.homedir();
  const flavor = pathFlavor();
  // Several at a time: a client may list thousands of roots (one after the other, 20,000
  // took 10 s of waits on the thread pool).
  const outcomes = await mapConcurrently(inputs, RESOLVING_AT_ONCE, async (input): Promise<{ real: string } | { reason: string }> => {
    let candidate: string;
    try {
      candidate = input.startsWith('file:') ? fileURLToPath(input) : input;
    } catch (error) {
      return { reason: `not a local file URI (${(error as Error).message})` };
    }
    try {
      const real = await fsp.realpath(path.resolve(expandHome(candidate, home, flavor)));
      return (await fsp.stat(real)).isDirectory() ? { real } : { reason: 'not a directory' };
    } catch (error) {
      const code = errnoCode(error);
      return { reason: code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'permission denied' : (error as Error).message };
    }
  });
  const directories = new Set<string>();
  const skipped: AllowedDirs['skipped'] = [];
  outcomes.forEach((outcome, i) => ('real' in outcome ? directories.add(outcome.real) : skipped.push({ input: inputs[i], reason: outcome.reason })));
  return { directories: [...directories], skipped };
}

/**
 * "~", "~/..." and, on Windows, "~\\..." are the home directory, as in the official server
 * (a tool's result must still be inside an allowed directory); "~name" is an ordinary
 * relative name.
 */
export function expandHome(p: string, home: string, { path: rules }: PathFlavor): string {
  if (p === '~' || p.startsWith('~/') || (rules.sep === '\\' && p.startsWith('~\\'))) return rules.join(home, p.slice(1));
  return p;
}

/**
 * On Windows a path such as "\\Users\\me" names no drive: it is taken on the current
 * drive. Errors about one say which drive that was, or the user cannot tell why
 * "\\data" is outside "D:\\data". Empty for any other path.
 */
export function driveNote(requested: string, absolute: string, { path: rules }: PathFlavor): string {
  if (rules.sep !== '\\' || !/^[\\/](?![\\/])/.test(requested)) return '';
  return ` (a path without a drive letter, taken on the current drive ${rules.parse(absolute).root.slice(0, 2)} as ${absolute})`;
}

// Percent-encoded ".", "/" and "\": a model that sends these usually copied a URL, and
// decoding them ourselves would make one string mean two paths.
const ENCODED_SEPARATOR = /%(2e|2f|5c)/i;
const WINDOWS_DRIVE = /^[A-Za-z]:([\\/]|$)/;

/**
 * The longest path each system opens (PATH_MAX, in bytes; on Windows, with long paths
 * enabled, in characters). A longer one cannot name a file, and looking for its deepest
 * existing ancestor copied it once a level: 300 KB held the event loop for 32 s.
 */
const LONGEST_PATH: Partial<Record<NodeJS.Platform, number>> = { linux: 4096, darwin: 1024, win32: 32_767 };

function toAbsolute(requested: string, dirs: DirectorySet): string {
  if (typeof requested !== 'string') {
    throw new FsError('INVALID_PATH', `The path is not a string. Give an absolute path inside ${dirs.describe(' or ')}.`);
  }
  // As in the official server: "" is the first allowed directory.
  if (requested.length === 0) return dirs.dirs[0];
  let p = requested;
  if (p.startsWith('file://')) {
    // Links this server hands out are file:// URIs; accept them back as paths.
    try {
      p = fileURLToPath(p);
    } catch (error) {
      throw new FsError('INVALID_PATH', `${requested} is not a valid file:// URI (${(error as Error).message}).`);
    }
  } else if (ENCODED_SEPARATOR.test(p)) {
    throw new FsError(
      'INVALID_PATH',
      `${requested} contains percent-encoded characters (%2e, %2f or %5c). Paths are not URL-decoded; give the plain path.`,
    );
  }
  if (p.includes('\0')) {
    throw new FsError('INVALID_PATH', 'The path contains a NUL byte, which no filesystem accepts.');
  }
  p = expandHome(p, os.homedir(), pathFlavor());
  const longest = LONGEST_PATH[process.platform] ?? LONGEST_PATH.linux!;
  const size = process.platform === 'win32' ? p.length : Buffer.byteLength(p);
  if (size > longest) {
    throw new FsError(
      'INVALID_PATH',
      `The path is ${size.toLocaleString('en')} ${process.platform === 'win32' ? 'characters' : 'bytes'} long; the longest ${process.platform} opens is ${longest.toLocaleString('en')}. Give a shorter path.`,
    );
  }
  if (process.platform !== 'win32' && (WINDOWS_DRIVE.test(p) || p.includes('\\'))) {
    throw new FsError(
      'INVALID_PATH',
      `${requested} looks like a Windows path, but this server runs on ${process.platform} where paths use "/" ` +
        `and have no drive letter. Give a path such as ${path.join(dirs.dirs[0], 'file.txt')}.`,
    );
  }
  return path.isAbsolute(p) ? path.resolve(p) : path.resolve(dirs.dirs[0], p);
}

const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Names that are not valid UTF-8 are listed with U+FFFD in place of the bad bytes, so
 * "a\uFFFD" as listed may be a file named with those bytes, or another one really named
 * "a\uFFFD": a read would get whichever has the UTF-8 name, maybe not the one the model
 * saw. A path naming such a look-alike is refused rather than guessed.
 */
async function assertUnambiguousNames(absolute: string, requested: string, dirs: DirectorySet): Promise<void> {
  const parts = absolute.split(path.sep);
  for (let i = 1; i < parts.length; i++) {
    if (!parts[i].includes(REPLACEMENT_CHARACTER)) continue;
    const parent = parts.slice(0, i).join(path.sep) || path.sep;
    // Look only inside the allowed directories: an error must reveal nothing about the rest.
    if (!dirs.holds(parent)) continue;
    const names = await fsp.readdir(parent, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
    const wanted = Buffer.from(parts[i], 'utf8');
    const lookAlikes = names.filter((name) => name.toString('utf8') === parts[i] && !name.equals(wanted));
    if (lookAlikes.length > 0) {
      throw new FsError(
        'INVALID_PATH',
        `${requested}: the name ${JSON.stringify(parts[i])} is ambiguous. ${parent} holds a name that is not valid UTF-8 ` +
          'and shows the same way (U+FFFD stands for its bad bytes), so this server cannot tell which one is meant. ' +
          'Rename it outside the server to a valid UTF-8 name.',
      );
    }
  }
}

// Enough for any legitimate chain of links; the kernel's own limit is 40.
const MAX_LINK_HOPS = 40;

/**
 * realpath of `absolute` if it exists; otherwise realpath of its deepest existing
 * ancestor with the missing tail appended. A symlink at the first missing component
 * (dangling: its target does not exist) is followed on paper, because writing to it
 * would create its target.
 */
async function resolveDeepest(
  absolute: string,
  dirs: DirectorySet,
  requested: string,
  hops = 0,
): Promise<{ real: string; exists: boolean }> {
  const ancestors = ancestorsOf(absolute);
  // Inside an allowed directory for this many levels up.
  const levelsInside = dirs.levelsInside(absolute);
  // Inside an allowed directory, synchronous, like the walk's directory reads and the
  // checks of an open descriptor: resolving a path's names takes microseconds on a local
  // disk, a trip through the thread pool many times that (most of a head or tail call went
  // to such trips). Any other path goes through the pool: a client must not be able to
  // hold every session up with a path on a dead network mount or an automounter. Opening
  // and reading, which can wait on more than names (a file still to download), stay in the pool,
  // and so do very deep paths: resolving one costs the square of its depth (1,800 levels: 0.1 s).
  const depth = ancestors.length - 1;
  const resolveAt = async (up: number): Promise<{ real: string } | { missing: true }> => {
    try {
      const sync = up <= levelsInside && depth - up <= MAX_DEPTH_RESOLVED_IN_LOOP;
      return { real: sync ? realpathSync.native(ancestors[up]) : await fsp.realpath(ancestors[up]) };
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ELOOP') throw new FsError('INVALID_PATH', `${requested} goes through a symbolic link loop.`);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
      // Say nothing about paths outside the allowed directories, not even why they failed.
      if (up > levelsInside) throw outside(requested, absolute, dirs);
      throw toFsError(error, requested);
    }
  };
  const whole = await resolveAt(0);
  if ('real' in whole) return { real: whole.real, exists: true };
  const deepest = await nearest(ancestors, 1, async (up) => {
    const at = await resolveAt(up);
    return 'real' in at ? at.real : undefined;
  });
  if (deepest === undefined) return { real: absolute, exists: false };
  const missing = ancestors.slice(0, deepest.up).map((ancestor) => path.basename(ancestor)).reverse();
  return resolveMissingTail(deepest.value, missing, dirs, requested, hops);
}

/** Paths deeper than this are resolved in the thread pool even inside an allowed directory. */
const MAX_DEPTH_RESOLVED_IN_LOOP = 64;

/** `p` and its ancestors: `[p, its parent, ..., the root]` (slices of one string). */
function ancestorsOf(p: string): string[] {
  const chain = [p];
  for (let parent = path.dirname(p); parent !== chain[chain.length - 1]; parent = path.dirname(parent)) chain.push(parent);
  return chain;
}

/**
 * The nearest of `ancestors` (from index `from` up) for which `probe` gives a value, found by
 * halving: the probes ask whether something exists, and an ancestor of a path that exists
 * does. One level at a time cost a walk of every name per level (realpath, access): a path
 * 1,800 levels deep that does not exist took a second of the event loop.
 */
async function nearest<T>(ancestors: readonly string[], from: number, probe: (up: number) => Promise<T | undefined>): Promise<{ up: number; value: T } | undefined> {
  // The nearest first: a new file's directory usually exists.
  if (from >= ancestors.length) return undefined;
  const first = await probe(from);
  if (first !== undefined) return { up: from, value: first };
  let low = from + 1;
  let high = ancestors.length - 1;
  let found: { up: number; value: T } | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = await probe(middle);
    if (value !== undefined) {
      found = { up: middle, value };
      high = middle - 1;
    } else low = middle + 1;
  }
  return found;
}

async function resolveMissingTail(
  realParent: string,
  missing: string[],
  dirs: DirectorySet,
  requested: string,
  hops: number,
): Promise<{ real: string; exists: boolean }> {
  // Outside: the caller refuses it; probe nothing there, so errors reveal nothing about it.
  if (!dirs.holds(realParent)) return { real: path.join(realParent, ...missing), exists: false };
  const first = path.join(realParent, missing[0]);
  const stats = await fsp.lstat(first).catch(() => undefined);
  if (stats?.isSymbolicLink()) {
    if (hops >= MAX_LINK_HOPS) throw new FsError('INVALID_PATH', `${requested} goes through too many symbolic links.`);
    const target = path.resolve(realParent, await fsp.readlink(first));
    const resolved = await resolveDeepest(path.join(target, ...missing.slice(1)), dirs, requested, hops + 1);
    if (!dirs.holds(resolved.real)) {
      throw new FsError(
        'ACCESS_DENIED',
        `Access denied: ${requested} is a symbolic link to ${target}, which is outside the allowed directories ` +
          `(${dirs.describe(', ')}).`,
      );
    }
    return resolved;
  }
  if (stats === undefined) {
    // The parent exists; if it is a file, say so now rather than fail later with ENOTDIR.
    const parentStats = await fsp.stat(realParent).catch(() => undefined);
    if (parentStats && !parentStats.isDirectory()) {
      throw new FsError('NOT_A_DIRECTORY', `${realParent} is a file, so ${requested} cannot be created inside it.`);
    }
    // "é" sent composed (NFC) names the file stored decomposed (NFD), as macOS stores
    // names, and the other way round: the official server finds it, so this one does.
    const variant = parentStats?.isDirectory() ? await unicodeVariant(realParent, missing[0]) : undefined;
    if (variant !== undefined) return resolveDeepest(path.join(realParent, variant, ...missing.slice(1)), dirs, requested, hops);
  }
  return { real: path.join(realParent, ...missing), exists: false };
}

/** The one entry of `dir` equal to `name` under Unicode normalization, when `name` itself is absent. */
async function unicodeVariant(dir: string, name: string): Promise<string | undefined> {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(name)) return undefined;
  const wanted = name.normalize('NFC');
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const found = names.filter((entry) => entry !== name && entry.normalize('NFC') === wanted);
  return found.length === 1 ? found[0] : undefined;
}

function outside(requested: string, resolved: string, dirs: DirectorySet): FsError {
  const drive = driveNote(requested, resolved, pathFlavor());
  const via = drive || (path.resolve(requested) === resolved || !path.isAbsolute(requested) ? '' : ` (resolves to ${resolved})`);
  return new FsError(
    'ACCESS_DENIED',
    `Access denied: ${requested}${via} is outside the allowed directories. Use a path inside ${dirs.describe(' or ')}.`,
  );
}

async function nearestExisting(real: string): Promise<string> {
  const ancestors = ancestorsOf(path.dirname(real));
  const found = await nearest(ancestors, 0, (up) => fsp.access(ancestors[up]).then(() => ancestors[up], () => undefined));
  return found?.value ?? ancestors[ancestors.length - 1];
}
