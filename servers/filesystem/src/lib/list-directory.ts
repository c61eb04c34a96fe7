import { lstatSync } from 'node:fs';
import path from 'node:path';
import { isIgnored, loadGitignoreChain } from './gitignore.js';
import { createTimeSlicer } from './time-slice.js';
import { nameOrderFor, readDirectory } from './walk.js';
import type { EntryType } from './walk.js';

/**
 * list_directory and list_directory_with_sizes: one level of a directory.
 *
 * .gitignore: with `respectGitignore`, an entry is hidden when the .gitignore files of
 * `gitignoreBoundary` (the allowed directory) and of each directory from there down to
 * this one ignore it, the deeper files overriding the shallower, as git does. The
 * count of hidden entries is returned so a tool can say they exist. `.git` itself is
 * listed: in a single listing it tells the model this is a repository. A directory
 * that is itself ignored is listed in full when asked for by name.
 *
 * Sizes come from lstat: a symlink's size is that of the link, so listing never reads
 * anything about a target that may lie outside the allowed directories, unless the
 * caller supplies `symlinkSize` (which checks the target is allowed, then sizes it, so
 * that a listing and get_file_info agree).
 */
export interface DirectoryEntry {
  name: string;
  type: EntryType;
  /** Bytes, with `withSizes`, for everything but directories. */
  size?: number;
  modified?: Date;
}

export interface ListOptions {
  /** Default true. */
  respectGitignore?: boolean;
  gitignoreBoundary?: string;
  withSizes?: boolean;
  /** 'name' (code point order, default) or 'size' (largest first, then by name; implies withSizes). */
  sortBy?: 'name' | 'size';
  signal?: AbortSignal;
  /** The size to report for a symlink (its allowed target's), or undefined for the link's own. */
  symlinkSize?: (absolute: string) => Promise<number | undefined>;
}

export interface DirectoryListing {
  entries: DirectoryEntry[];
  /** Entries hidden by .gitignore. */
  ignored: number;
  totalFiles: number;
  totalDirectories: number;
  /** Sum of file sizes, with `withSizes`. */
  totalSize?: number;
}

export async function listDirectory(dir: string, options: ListOptions = {}): Promise<DirectoryListing> {
  const { respectGitignore = true, sortBy = 'name', signal } = options;
  const withSizes = options.withSizes === true || sortBy === 'size';
  // Read through the opened directory, checked to be `dir` (not a symlink swapped in since the check).
  const dirents = await readDirectory(dir);
  const rules = respectGitignore && dirents.length > 0 ? loadGitignoreChain(dir, options.gitignoreBoundary ?? dir) : [];
  const slicer = createTimeSlicer(signal);
  const entries: DirectoryEntry[] = [];
  let ignored = 0;
  for (const dirent of dirents) {
    const type: EntryType = dirent.isFile() ? 'file' : dirent.isDirectory() ? 'directory' : dirent.isSymbolicLink() ? 'symlink' : 'other';
    const full = path.join(dir, dirent.name);
    if (rules.length > 0 && isIgnored(rules, full, type === 'directory')) {
      ignored++;
      continue;
    }
    const entry: DirectoryEntry = { name: dirent.name, type };
    if (withSizes) {
      try {
        const stats = lstatSync(full);
        if (type !== 'directory') entry.size = stats.size;
        entry.modified = stats.mtime;
      } catch {
        // Vanished since readdir: list it without a size rather than fail the listing.
      }
      if (type === 'symlink' && options.symlinkSize) entry.size = (await options.symlinkSize(full).catch(() => undefined)) ?? entry.size;
    }
    entries.push(entry);
    // Without sizes too: a directory of a million entries is a million .gitignore tests.
    if (slicer.due()) await slicer.pause();
  }
  // By name they are in order already: readDirectory sorts them, and the loop keeps its order.
  if (sortBy === 'size') {
    const byName = nameOrderFor(entries);
    entries.sort((a, b) => (b.size ?? -1) - (a.size ?? -1) || byName(a.name, b.name));
  }
  const files = entries.filter((e) => e.type !== 'directory');
  return {
    entries,
    ignored,
    totalFiles: files.length,
    totalDirectories: entries.length - files.length,
    ...(withSizes ? { totalSize: files.reduce((sum, e) => sum + (e.size ?? 0), 0) } : {}),
  };
}
