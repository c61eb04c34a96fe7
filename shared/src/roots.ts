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
