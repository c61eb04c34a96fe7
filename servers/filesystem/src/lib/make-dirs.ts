import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { FsError, errnoCode, toFsError } from './errors.js';
import { assertDirectoryInside, swapped, type Confine } from './open-checked.js';

/**
 * `mkdir -p` that stays inside the allowed directories while someone swaps directories
 * for symlinks: the deepest existing ancestor is checked to be the real directory the
 * path names, then each missing directory is made one at a time and checked right
 * after; one that turns out to lie elsewhere is removed again and the call refused.
 * Returns true when it created anything.
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
  await assertDirectoryInside(existing, confine, dir);
  for (const next of missing) {
    try {
      await fsp.mkdir(next);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw toFsError(error, next);
    }
    try {
      await assertDirectoryInside(next, confine, dir);
    } catch (error) {
      // Made through a swapped parent: find where it really went and take it back.
      const real = await fsp.realpath(next).catch(() => undefined);
      if (real !== undefined && !(await confine(real))) await fsp.rmdir(real).catch(() => undefined);
      throw error instanceof FsError ? error : swapped(dir);
    }
  }
  return missing.length > 0;
}
