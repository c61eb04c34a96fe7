import { walkBatches } from './walk.js';
import type { GlobOptions } from './glob.js';

/**
 * directory_tree: the nested `{ name, type, children }` JSON of the official server,
 * with a cap. The official server builds the whole tree, which for a large checkout is
 * a response of tens of megabytes; here the walk stops at `maxEntries` and the result
 * says so, so a response can never grow past a known size.
 *
 * As in the official output, `type` is 'directory' or 'file' (symlinks and other
 * special files count as 'file' and are not followed), and every directory has a
 * `children` array. A directory whose listing was cut short (by maxEntries or
 * maxDepth) carries `truncated: true`, so an empty array is never mistaken for an empty
 * directory.
 */
export interface TreeNode {
  name: string;
  type: 'file' | 'directory';
  children?: TreeNode[];
  truncated?: true;
  /** On a page after the first: this directory was listed on an earlier page (its node is repeated to place its children). */
  continued?: true;
}

export interface TreeOptions {
  /** See `WalkOptions.excludes`. */
  excludePatterns?: readonly string[];
  respectGitignore?: boolean;
  gitignoreBoundary?: string;
  /** Told about each .gitignore skipped (see walk.ts). */
  onIgnoreFileSkipped?: (file: string, reason: string) => void;
  /** Case-insensitive matching, Windows separators (glob.ts). */
  globOptions?: GlobOptions;
  /** Most entries to include. Default 10,000 (roughly 1 MB of JSON). */
  maxEntries?: number;
  /** Deepest level to include (1 = only the root's children). */
  maxDepth?: number;
  /** Resume strictly after this relative path (the `last` of the previous page). */
  after?: string;
  signal?: AbortSignal;
  onProgress?: (entries: number) => void;
}

export interface TreeResult {
  tree: TreeNode[];
  entries: number;
  truncated: boolean;
  /** Relative path of the last entry included: pass it as `after` for the next page. */
  last?: string;
  /** Directories whose contents could not be listed (path too long, loop), at most 100. */
  skipped?: { path: string; reason: string }[];
}

const MAX_SKIPPED_REPORTED = 100;

export const DEFAULT_MAX_TREE_ENTRIES = 10_000;

export async function directoryTree(root: string, options: TreeOptions = {}): Promise<TreeResult> {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_TREE_ENTRIES;
  const maxDepth = options.maxDepth ?? Infinity;
  const tree: TreeNode[] = [];
  // levels[d - 1] is where entries of depth d go; nodes[d - 1] is the directory owning it.
  const levels: TreeNode[][] = [tree];
  const owners: (TreeNode | undefined)[] = [undefined];
  let entries = 0;
  let truncated = false;
  let last: string | undefined;
  const skipped: { path: string; reason: string }[] = [];

  const batches = walkBatches(root, {
    onSkip: (path, reason) => {
      if (skipped.length < MAX_SKIPPED_REPORTED) skipped.push({ path, reason });
    },
    excludes: options.excludePatterns,
    respectGitignore: options.respectGitignore,
    gitignoreBoundary: options.gitignoreBoundary,
    onIgnoreFileSkipped: options.onIgnoreFileSkipped,
    globOptions: options.globOptions,
    signal: options.signal,
    after: options.after,
    // One level more than shown, to tell a directory cut by maxDepth from an empty one.
    maxDepth: maxDepth + 1,
  });
  outer: for await (const batch of batches) {
    for (const entry of batch) {
      if (levels.length > entry.depth) {
        levels.length = entry.depth;
        owners.length = entry.depth;
      }
      // A page that resumes inside a directory repeats the directories above its first
      // entries, so every page is a tree rooted at `root`.
      while (levels.length < entry.depth && entry.depth <= maxDepth) {
        const name = entry.relative.split('/')[levels.length - 1];
        const node: TreeNode = { name, type: 'directory', children: [], continued: true };
        levels[levels.length - 1].push(node);
        levels.push(node.children!);
        owners.push(node);
      }
      const owner = owners[entry.depth - 1];
      if (entry.depth > maxDepth) {
        if (owner) owner.truncated = true;
        continue;
      }
      if (entries === maxEntries) {
        truncated = true;
        if (owner) owner.truncated = true;
        break outer;
      }
      entries++;
      last = entry.relative;
      const node: TreeNode = { name: entry.name, type: entry.type === 'directory' ? 'directory' : 'file' };
      if (entry.type === 'directory') {
        node.children = [];
        levels.push(node.children);
        owners.push(node);
      }
      levels[entry.depth - 1].push(node);
    }
    options.onProgress?.(entries);
  }
  return { tree, entries, truncated, ...(last === undefined ? {} : { last }), ...(skipped.length > 0 ? { skipped } : {}) };
}
