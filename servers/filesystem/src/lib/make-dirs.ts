import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { FsError, errnoCode, toFsError } from './errors.js';
import { holdDirectory, type Confine } from './open-checked.js';

/**
 * `mkdir -p` that stays inside the allowed directories while someone swaps directories
 * for symlinks: the deepest existing ancestor is opened and checked to be the real
 * directory the path names, and each missing directory is made inside the one held open
 * before it (through /proc/self/fd on Linux), then opened and held in turn. Returns true
 * when it created anything.
 */
export async function makeDirectories(dir: string, confine: Confine): Promise<boolean> {
  const missing: string[] = [];
  let existing = dir;
  for (;;) {
    const stats = await fsp.lstat(existing).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw toFsError(error, existing);
    });
    if (stats?.isDirectory()) break;
    if (stats !== undefined) {
      throw new FsError('NOT_A_DIRECTORY', `${existing} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'a file'}, so ${dir} cannot be created.`);
    }
    const parent = path.dirname(existing);
    if (parent === existing) break;
    missing.unshift(existing);
    existing = parent;
  }
  let held = await holdDirectory(existing, { confine, requested: dir });
  try {
    for (const next of missing) {
      const name = path.basename(next);
      try {
        await fsp.mkdir(held.at(name));
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw toFsError(error, next);
      }
      const child = await holdDirectory(next, { confine, via: held.at(name), requested: dir });
      await held.close();
      held = child;
    }
  } finally {
    await held.close();
  }
  return missing.length > 0;
}
