import { readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** git follows chains of alternates this deep (transport.c: 5). */
const MAX_ALTERNATE_DEPTH = 5;

/** The real path a symbolic link leads to, or where it would lead if its target does not exist yet. */
async function linkTarget(link: string): Promise<string> {
  return realpath(link).catch(async () => path.resolve(path.dirname(link), await readlink(link)));
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
 * file of another place to the client.
 */
async function linkLeavingArea(gitDir: string, inside: (p: string) => boolean, cache: MetadataCache | undefined): Promise<string | undefined> {
  // A level of directories at a time, read together.
  let level = [gitDir];
  while (level.length > 0) {
    const next: string[] = [];
    const links: string[] = [];
    await Promise.all(
      level.map(async (dir) => {
        const info = await stat(dir).catch(() => undefined);
        if (info === undefined) return;
        const stamp = `${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
        const known = cache?.get(dir);
        if (known?.stamp === stamp) {
          next.push(...known.subdirs);
          return;
        }
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
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
          }
        }
        next.push(...subdirs);
        // Only a directory with no link at all is remembered: a link's target can change under it.
        if (!linked && Date.now() - info.mtimeMs > SETTLED_MS) cache?.set(dir, { stamp, subdirs });
        else cache?.delete(dir);
      }),
    );
    for (const link of links) {
      const target = await linkTarget(link).catch(() => link);
      if (!inside(target)) return `${link} is a symbolic link to ${target}, outside the allowed repositories; refusing to use this repository.`;
    }
    level = next;
  }
  return undefined;
}

/** The object directories an `objects/info/alternates` file lends to git (relative lines are relative to `objects`). */
async function alternatesOf(objects: string): Promise<string[]> {
  const text = await readFile(path.join(objects, 'info', 'alternates'), 'utf8').catch(() => '');
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
 * a checkout, another process) can change any of it.
 */
export async function metadataOutside(
  gitDirs: readonly string[],
  objects: string,
  inside: (p: string) => boolean,
  cache?: MetadataCache,
): Promise<string | undefined> {
  for (const dir of new Set(gitDirs)) {
    const reason = await linkLeavingArea(dir, inside, cache);
    if (reason) return reason;
  }
  const seen = new Set<string>();
  let level = [objects];
  for (let depth = 0; depth <= MAX_ALTERNATE_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const store of level) {
      for (const alternate of await alternatesOf(store)) {
        const real = await realpath(alternate).catch(() => alternate);
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
