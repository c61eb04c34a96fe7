import { cp, lstat, rename, rm } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { errnoCode, toFsError } from './errors.js';
import { writeFileAtomic } from './atomic-write.js';

/**
 * Moves an entry. rename(2) is atomic and replaces an existing file at `destination`;
 * across filesystems (EXDEV) it falls back to copy-then-remove.
 */
export async function moveEntry(source: string, destination: string): Promise<void> {
  try {
    await rename(source, destination);
  } catch (error) {
    if (errnoCode(error) !== 'EXDEV') throw toFsError(error, destination);
    await copyEntry(source, destination, { overwrite: true });
    await rm(source, { recursive: true, force: true });
  }
}

/**
 * Copies a file atomically (streamed into a temp file, then renamed) or a directory
 * recursively (symlinks copied as links, never followed). Refuses to merge into an
 * existing directory.
 */
export async function copyEntry(source: string, destination: string, options: { overwrite: boolean }): Promise<'file' | 'directory'> {
  const stats = await lstat(source);
  if (stats.isDirectory()) {
    try {
      await cp(source, destination, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
    } catch (error) {
      throw toFsError(error, destination);
    }
    return 'directory';
  }
  await writeFileAtomic(destination, createReadStream(source), { overwrite: options.overwrite, mode: stats.mode & 0o7777 });
  return 'file';
}
