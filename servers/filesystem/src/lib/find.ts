import { compileSearchPattern } from './search.js';
import { walkBatches, type WalkEntry } from './walk.js';

export interface FindOptions {
  /** Resume strictly after this relative path (the last match of the previous page). */
  after?: string;
  excludePatterns?: readonly string[];
  respectGitignore?: boolean;
  gitignoreBoundary?: string;
  signal?: AbortSignal;
  /** Called after each batch with the number of entries examined so far. */
  onProgress?: (scanned: number) => void;
}

/**
 * The entries under `root` whose path matches a search_files pattern, lazily and in walk
 * order, so a caller can take one page and resume later after the last match.
 */
export async function* findEntries(root: string, pattern: string, options: FindOptions = {}): AsyncGenerator<WalkEntry> {
  const matches = compileSearchPattern(pattern);
  let scanned = 0;
  const batches = walkBatches(root, {
    after: options.after,
    excludes: options.excludePatterns,
    respectGitignore: options.respectGitignore,
    gitignoreBoundary: options.gitignoreBoundary,
    signal: options.signal,
  });
  for await (const batch of batches) {
    scanned += batch.length;
    options.onProgress?.(scanned);
    for (const entry of batch) if (matches(entry.relative, entry.name)) yield entry;
  }
}
