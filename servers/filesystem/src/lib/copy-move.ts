import { createReadStream, promises as fsp } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';
import { FsError, errnoCode, toFsError } from './errors.js';

/**
 * copy_file and move_file on paths the policy has already resolved.
 *
 * Neither replaces an existing destination unless `overwrite` is set (the official
 * move_file refuses too; a tool asks the user before passing overwrite).
 */
export interface CopyMoveOptions {
  overwrite?: boolean;
}

/**
 * Copies one regular file. The copy is written atomically (temp file + rename), so a
 * failed copy never leaves a half-written destination; a new file gets the source's
 * permission bits, a replaced one keeps its own.
 */
export async function copyFile(source: string, destination: string, options: CopyMoveOptions = {}): Promise<void> {
  const stats = await fsp.stat(source).catch((error: unknown) => Promise.reject(toFsError(error, source)));
  if (!stats.isFile()) {
    throw new FsError(
      'NOT_A_FILE',
      stats.isDirectory()
        ? `${source} is a directory; copy_file copies single files. Create the directory, then copy its files.`
        : `${source} is not a regular file and cannot be copied.`,
    );
  }
  await assertDestination(source, destination, options);
  await writeFileAtomic(destination, createReadStream(source), {
    overwrite: options.overwrite ?? false,
    mode: stats.mode & 0o777,
  });
}

/**
 * Copies a directory recursively into a destination that must not exist yet. Symlinks
 * are copied as links, never followed, so nothing outside the source is read.
 */
export async function copyDirectory(source: string, destination: string): Promise<void> {
  await assertDestination(source, destination, { overwrite: false });
  try {
    await fsp.cp(source, destination, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
  } catch (error) {
    throw toFsError(error, destination);
  }
}

/**
 * Moves or renames a file or directory with rename(2). Across filesystems (EXDEV) a
 * file is copied then removed; a directory is refused, since a half-finished recursive
 * move is worse than none.
 *
 * The existence check and the rename are two steps: a destination created in between
 * by another process is replaced. rename(2) has no portable no-replace flag.
 */
export async function moveFile(source: string, destination: string, options: CopyMoveOptions = {}): Promise<void> {
  const stats = await fsp.lstat(source).catch((error: unknown) => Promise.reject(toFsError(error, source)));
  await assertDestination(source, destination, options);
  try {
    await fsp.rename(source, destination);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EXDEV' && stats.isFile()) {
      await copyFile(source, destination, options);
      await fsp.unlink(source).catch((e: unknown) => Promise.reject(toFsError(e, source)));
      return;
    }
    if (code === 'EXDEV') {
      throw new FsError('INVALID_ARGUMENT', `${source} is a directory on another filesystem than ${destination}; it cannot be moved in one step.`);
    }
    if (code === 'EINVAL') throw new FsError('INVALID_ARGUMENT', `Cannot move ${source} into itself (${destination}).`);
    throw toFsError(error, destination);
  }
}

async function assertDestination(source: string, destination: string, options: CopyMoveOptions): Promise<void> {
  if (source === destination) {
    throw new FsError('INVALID_ARGUMENT', `Source and destination are the same path (${source}).`);
  }
  const existing = await fsp.lstat(destination).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw toFsError(error, destination);
  });
  if (!existing) return;
  if (existing.isDirectory()) {
    throw new FsError(
      'EXISTS',
      `${destination} is an existing directory. Give the full destination path including the new name, e.g. ${destination}/name.`,
    );
  }
  if (!options.overwrite) {
    throw new FsError('EXISTS', `${destination} already exists. Choose another destination, or ask to overwrite it.`);
  }
}
