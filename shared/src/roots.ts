import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Root } from './types.js';

/**
 * The one access rule every server uses (ARCHITECTURE.md section 3): locations given on
 * the command line are a ceiling; client roots can narrow access to places inside the
 * ceiling, never widen it; with no ceiling, roots alone define access; with neither,
 * nothing is granted (and tools say how to configure one).
 *
 * `within(parent, child)` says whether `child` lies inside `parent` (or is it). Each
 * (ceiling, root) pair grants the inner of the two when one contains the other, and
 * nothing when they are disjoint, so a root outside every ceiling grants nothing.
 */
export function narrowScopes(
  ceiling: readonly string[],
  roots: readonly string[] | undefined,
  within: (parent: string, child: string) => boolean = isWithinPath,
): string[] {
  if (roots === undefined || roots.length === 0) return dedupe(ceiling);
  if (ceiling.length === 0) return dedupe(roots);
  const granted: string[] = [];
  for (const root of roots) {
    for (const limit of ceiling) {
      if (within(limit, root)) granted.push(root);
      else if (within(root, limit)) granted.push(limit);
    }
  }
  return dedupe(granted);
}

/** Path containment by whole segments: `/data` contains `/data/x`, not `/data-evil`. */
export function isWithinPath(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  // `..x` is a child named "..x"; only `..` as a whole segment leaves the parent.
  const leaves = relative === '..' || relative.startsWith(`..${path.sep}`);
  return relative === '' || (!leaves && !path.isAbsolute(relative));
}

/** The local paths of `file://` roots; other schemes are ignored. */
export function rootPaths(roots: readonly Root[] | undefined): string[] | undefined {
  if (roots === undefined) return undefined;
  const paths: string[] = [];
  for (const root of roots) {
    if (!root.uri.startsWith('file://')) continue;
    try {
      paths.push(path.resolve(fileURLToPath(root.uri)));
    } catch {
      // A malformed root URI grants nothing.
    }
  }
  return paths;
}

function dedupe(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/**
 * A list of directories that answers "does one of them hold this path" in the time of the
 * path's length, not of their number: the path is walked down a tree of the directories'
 * segments. A client may list thousands of roots, and scanning them all for every check (a
 * read checks several times, a walk once a file) made each call cost milliseconds a
 * thousand roots, and dropping nested ones (`outermost`) their square. The same containment
 * as `isWithinPath`: whole segments, and on Windows letter case ignored as
 * `path.win32.relative` ignores it.
 */
export interface DirectorySet {
  readonly dirs: readonly string[];
  /** True when one of the directories is `p` or holds it. */
  holds(p: string): boolean;
  /** The first directory, in the list's order, that is `p` or holds it. */
  holderOf(p: string): string | undefined;
  /**
   * How many levels up from `p` are still inside one of the directories: 0 when only `p`
   * itself is (it is an outermost directory), -1 when `p` is not. A walk up from a path
   * knows from this where it leaves them, without a check a level.
   */
  levelsInside(p: string): number;
  /** The directories not inside another one of them, in the list's order (a walk over them lists each file once). */
  outermost(): string[];
  /** The directories for a message: the first few joined by `separator`, then how many more. */
  describe(separator: string): string;
}

/** Directories named in a message before "and N more". */
const DESCRIBED_DIRECTORIES = 10;

interface DirectoryNode {
  children: Map<string, DirectoryNode>;
  /** The index of the first directory that ends here. */
  index?: number;
}

export function directorySet(dirs: readonly string[], rules: path.PlatformPath = path): DirectorySet {
  // A tree of path segments (the root, then each name), walked along a path in one pass:
  // walking up with dirname made each check cost the depth times the length.
  const fold = rules.sep === '\\' ? (p: string) => p.toLowerCase() : (p: string) => p;
  const segments = (p: string): string[] => {
    const resolved = fold(rules.resolve(p));
    const root = rules.parse(resolved).root;
    return [root, ...resolved.slice(root.length).split(rules.sep).filter((name) => name !== '')];
  };
  const top: DirectoryNode = { children: new Map() };
  dirs.forEach((dir, i) => {
    let node = top;
    for (const name of segments(dir)) {
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = { children: new Map() }));
      node = child;
    }
    node.index ??= i;
  });
  // The index of the first directory that is `p` or holds it (`properOnly`: that holds it).
  const firstHolder = (p: string, properOnly: boolean): number => {
    const names = segments(p);
    let best = -1;
    let node = top;
    for (let i = 0; i < names.length; i++) {
      const child = node.children.get(names[i]);
      if (!child) break;
      node = child;
      if (node.index !== undefined && (best < 0 || node.index < best) && !(properOnly && i === names.length - 1)) best = node.index;
    }
    return best;
  };
  let outer: string[] | undefined;
  return {
    dirs,
    holds: (p) => firstHolder(p, false) >= 0,
    holderOf(p) {
      const at = firstHolder(p, false);
      return at < 0 ? undefined : dirs[at];
    },
    levelsInside(p) {
      const names = segments(p);
      let node = top;
      for (let i = 0; i < names.length; i++) {
        const child = node.children.get(names[i]);
        if (!child) return -1;
        node = child;
        if (node.index !== undefined) return names.length - 1 - i;
      }
      return -1;
    },
    outermost: () => (outer ??= dirs.filter((dir) => firstHolder(dir, true) < 0)),
    describe(separator) {
      const shown = dirs.slice(0, DESCRIBED_DIRECTORIES).join(separator);
      const more = dirs.length - DESCRIBED_DIRECTORIES;
      return more > 0 ? `${shown} (and ${more.toLocaleString('en')} more)` : shown;
    },
  };
}

/**
 * `fn` over `items`, at most `limit` at a time, the results in the items' order. Resolving
 * thousands of client roots one after the other took seconds of waits on the thread pool
 * (20,000 roots: 10 s), all at once would queue thousands of operations in it.
 */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
