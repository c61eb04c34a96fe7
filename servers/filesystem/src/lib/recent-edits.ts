import { shortenDiff } from './unified-diff.js';

/**
 * A bounded, newest-last record of the edits this server made, for the review prompt.
 *
 * Bounded by count and by bytes: a diff is kept up to `maxDiffBytes` (cut at a line,
 * with a note), and the oldest entries go once all of them together pass `maxBytes`. A
 * diff is a copy, never a slice of the caller's string, which may be far larger.
 */
export interface RecentEdit {
  path: string;
  diff: string;
  at: string;
}

export interface RecentEditsOptions {
  /** Most entries kept (default 20). */
  limit?: number;
  /** Most UTF-8 bytes of diff kept over all entries (default 4 MiB). */
  maxBytes?: number;
  /** Most bytes of one entry's diff (default 512 KiB). */
  maxDiffBytes?: number;
}

export function createRecentEdits(options: RecentEditsOptions = {}) {
  const { limit = 20, maxBytes = 4 * 1024 * 1024, maxDiffBytes = 512 * 1024 } = options;
  const edits: (RecentEdit & { bytes: number })[] = [];
  let total = 0;
  return {
    add(path: string, diff: string) {
      const kept = shortenDiff(diff, Math.min(maxDiffBytes, maxBytes), 'the rest of the diff is not kept for review').diff;
      // A flat copy: a slice of `diff` would hold the whole of it in memory.
      const copy = Buffer.from(kept, 'utf8');
      edits.push({ path, diff: copy.toString('utf8'), at: new Date().toISOString(), bytes: copy.length });
      total += copy.length;
      while (edits.length > limit || total > maxBytes) total -= edits.shift()!.bytes;
    },
    list(filter?: (edit: RecentEdit) => boolean): RecentEdit[] {
      const all = edits.map(({ path, diff, at }) => ({ path, diff, at }));
      return filter ? all.filter(filter) : all;
    },
    /** UTF-8 bytes of diff held (for tests: the bound holds). */
    bytes: () => total,
  };
}

export type RecentEdits = ReturnType<typeof createRecentEdits>;
