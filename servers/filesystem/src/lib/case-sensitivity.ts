import { statSync } from 'node:fs';
import path from 'node:path';
import type { GlobOptions } from './glob.js';

/**
 * Whether names under a directory are matched case-insensitively by its filesystem
 * (Windows; macOS by default; a case-folding ext4 or a mounted FAT volume on Linux), so
 * that globs match the way the filesystem does: `**\/B.TXT` finds `b.txt` there.
 *
 * The filesystem is asked, not guessed from the platform: the directory's path with the
 * case of one letter flipped is looked up, and names the same directory (device and
 * inode) only where case does not matter. Only when no component of the path has a
 * letter does the platform decide.
 */
export function isCaseInsensitiveAt(dir: string, platform: NodeJS.Platform = process.platform): boolean {
  let own: { dev: number; ino: number };
  try {
    own = statSync(dir);
  } catch {
    return platform === 'win32' || platform === 'darwin';
  }
  // The deepest component with a letter whose case can flip.
  for (let current = dir; path.dirname(current) !== current; current = path.dirname(current)) {
    const name = path.basename(current);
    const flipped = flipCase(name);
    if (flipped === name) continue;
    const other = path.join(path.dirname(current), flipped) + dir.slice(current.length);
    try {
      const stats = statSync(other);
      return stats.dev === own.dev && stats.ino === own.ino;
    } catch {
      return false;
    }
  }
  return platform === 'win32' || platform === 'darwin';
}

function flipCase(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    const upper = c.toUpperCase();
    const lower = c.toLowerCase();
    if (upper !== lower && upper.length === 1 && lower.length === 1) {
      return name.slice(0, i) + (c === upper ? lower : upper) + name.slice(i + 1);
    }
  }
  return name;
}

/** How globs match under each allowed directory, probed once per directory. */
export interface GlobSettings {
  /** The options for globs matched under `root` (an allowed directory). */
  forRoot(root: string): GlobOptions;
}

/** One per server instance: the probe's answers are cached there, per allowed directory. */
export function createGlobSettings(platform: NodeJS.Platform = process.platform): GlobSettings {
  const cache = new Map<string, GlobOptions>();
  return {
    forRoot(root) {
      let options = cache.get(root);
      if (!options) {
        options = { caseInsensitive: isCaseInsensitiveAt(root, platform), platform };
        cache.set(root, options);
      }
      return options;
    },
  };
}
