import { readdirSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { readGitFile } from './git-file.js';
import path from 'node:path';

/** git follows chains of alternates this deep (transport.c: 5). */
const MAX_ALTERNATE_DEPTH = 5;

/** The real path a symbolic link leads to, or where it would lead if its target does not exist yet. */
function linkTarget(link: string): string {
  try {
    return realpathSync.native(link);
  } catch {
    return path.resolve(path.dirname(link), readlinkSync(link));
  }
}

/**
 * Directories of git directories already read and found to hold no symbolic link, by
 * path, with the stamp they had (adding an entry changes a directory's mtime and ctime)
 * and their subdirectories: a stat each costs less than reading each at every call.
 */
export type MetadataCache = Map<string, { stamp: string; subdirs: string[] }>;

/**
 * A directory changed this recently may change again within the same mtime tick: read it
 * every time. (Its ctime, part of the stamp, catches an mtime set back.)
 */
const SETTLED_MS = 2_000;

/**
 * Every symbolic link under a git directory must stay inside `inside`: git reads a
 * symlinked ref, `packed-refs`, `shallow`, `MERGE_HEAD` or `info/grafts` through the
 * link, and its answers (an error quoting the first line of the file) would carry a
 * file of another place to the client. And nothing there may be a FIFO or a device.
 */
function linkLeavingArea(gitDir: string, inside: (p: string) => boolean, cache: MetadataCache | undefined): string | undefined {
  // A level of directories at a time. Synchronous: a stat of a directory never waits on
  // anything but the disk (no FIFO is opened), and these are a few dozen a call, which
  // through the thread pool cost more than the call itself (100 calls sent together
  // queued behind each other's).
  let level = [gitDir];
  while (level.length > 0) {
    const next: string[] = [];
    const links: string[] = [];
    for (const dir of level) {
      let info: Stats | undefined;
      try {
        info = statSync(dir, { throwIfNoEntry: false });
      } catch {
        // unreadable: nothing under it to follow
      }
      if (info === undefined) continue;
      const stamp = `${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
      const known = cache?.get(dir);
      if (known?.stamp === stamp) {
        next.push(...known.subdirs);
        continue;
      }
      let entries: Dirent[] = [];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        // vanished or unreadable: nothing under it to follow
      }
      const subdirs: string[] = [];
      let linked = false;
      for (const entry of entries) {
        // Hooks never run here, and git itself never reads .git/lfs: a shared hooks
        // directory or LFS store linked from elsewhere is no way out.
        if (dir === gitDir && (entry.name === 'hooks' || entry.name === 'lfs')) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          // Loose objects (objects/ab/cdef...) are not looked at one by one: up to 256
          // directories at every call. A fan-out directory that is itself a link is caught.
          if (!(path.basename(dir) === 'objects' && /^[0-9a-f]{2}$/.test(entry.name))) subdirs.push(full);
        } else if (entry.isSymbolicLink()) {
          links.push(full);
          linked = true;
        } else if (entry.isFIFO() || entry.isCharacterDevice() || entry.isBlockDevice()) {
          // git opens what it finds here (the index, config, info/exclude, a ref, a reflog) and
          // would wait on a FIFO until the call's time limit. (A socket, as fsmonitor's, is never
          // opened as a file.)
          return `${full} cannot be read: it is not a regular file (a FIFO or a device), and git would wait on it; refusing to use this repository.`;
        }
      }
      next.push(...subdirs);
      // Only a directory with no link at all is remembered: a link's target can change under it.
      if (!linked && Date.now() - info.mtimeMs > SETTLED_MS) cache?.set(dir, { stamp, subdirs });
      else cache?.delete(dir);
    }
    for (const link of links) {
      let target = link;
      try {
        target = linkTarget(link);
      } catch {
        // gone meanwhile: judged by its own path
      }
      if (!inside(target)) return `${link} is a symbolic link to ${target}, outside the allowed repositories; refusing to use this repository.`;
    }
    level = next;
  }
  return undefined;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** The object directories an `objects/info/alternates` file lends to git (relative lines are relative to `objects`). */
function alternatesOf(objects: string): string[] {
  const text = readGitFile(path.join(objects, 'info', 'alternates')) ?? '';
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    // A quoted line is C-quoted (git's unquote_c_style); JSON reads the same escapes git writes.
    let entry = line;
    if (line.startsWith('"')) entry = (() => { try { return JSON.parse(line) as string; } catch { return line; } })();
    out.push(path.resolve(objects, entry));
  }
  return out;
}

/**
 * Why a repository is refused, or undefined: a repository whose metadata reaches outside the allowed repositories: a
 * symbolic link in its git directory that leads out, or an `objects/info/alternates`
 * (followed as git follows it) naming an object store elsewhere, which would let refs
 * of this repository read another's objects. Checked at every call: a write (a reset,
 * a checkout, another process) can change any of it. Synchronous, like the rest of the
 * checks of a call: metadata calls that never wait on a FIFO (see linkLeavingArea).
 */
export function metadataOutside(gitDirs: readonly string[], objects: string, inside: (p: string) => boolean, cache?: MetadataCache): string | undefined {
  for (const dir of new Set(gitDirs)) {
    const reason = linkLeavingArea(dir, inside, cache);
    if (reason) return reason;
  }
  const seen = new Set<string>();
  let level = [objects];
  for (let depth = 0; depth <= MAX_ALTERNATE_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const store of level) {
      for (const alternate of alternatesOf(store)) {
        const real = realOrSelf(alternate);
        if (!inside(real)) {
          return `${path.join(store, 'info', 'alternates')} lends objects from ${alternate}, outside the allowed repositories; refusing to use this repository.`;
        }
        if (!seen.has(real)) {
          seen.add(real);
          next.push(real);
        }
      }
    }
    level = next;
  }
  return undefined;
}
