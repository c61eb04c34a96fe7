import { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import { toFsError } from './errors.js';
import { assertOpenedInside, holdDirectory, openDirectory, openRegularFile, swapped, type Confine } from './open-checked.js';

/** get_file_info: the fields of the official server, same names and meanings. */
export interface FileInfo {
  size: number;
  created: Date;
  modified: Date;
  accessed: Date;
  isDirectory: boolean;
  isFile: boolean;
  /** Octal permission bits, e.g. "644". */
  permissions: string;
}

/**
 * Metadata of a path the policy has already resolved (so symlinks are already followed).
 * With `confine`, the metadata is read from what was actually opened, and only if that
 * is inside the allowed directories: between the check and a stat by path, a directory
 * on the way may have been swapped for a symlink to elsewhere (see open-checked.ts).
 */
export async function getFileInfo(file: string, confine?: Confine): Promise<FileInfo> {
  const stats = confine ? await statConfined(file, confine) : await fsp.stat(file).catch((error: unknown) => Promise.reject(toFsError(error, file)));
  return {
    size: stats.size,
    created: stats.birthtime,
    modified: stats.mtime,
    accessed: stats.atime,
    isDirectory: stats.isDirectory(),
    isFile: stats.isFile(),
    permissions: (stats.mode & 0o777).toString(8).padStart(3, '0'),
  };
}

/**
 * fstat of a descriptor checked to be inside the allowed directories: a directory is
 * opened O_DIRECTORY|O_NOFOLLOW, a regular file O_NONBLOCK|O_NOFOLLOW. Anything else
 * (FIFO, socket, device: opening may block or act) is lstat'ed by name inside its parent
 * directory, held open and checked the way writes check it.
 */
async function statConfined(file: string, confine: Confine): Promise<Stats> {
  let kind: Stats;
  try {
    kind = await fsp.lstat(file);
  } catch (error) {
    throw toFsError(error, file);
  }
  if (kind.isDirectory() || kind.isFile()) {
    const handle = kind.isDirectory() ? await openDirectory(file) : await openRegularFile(file);
    try {
      await assertOpenedInside(handle, file, confine);
      return await handle.stat();
    } catch (error) {
      throw toFsError(error, file);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
  const parent = await holdDirectory(path.dirname(file), { confine, requested: file });
  try {
    const stats = await fsp.lstat(parent.at(path.basename(file))).catch((error: unknown) => Promise.reject(toFsError(error, file)));
    if (stats.isSymbolicLink()) throw swapped(file); // resolved paths hold no final symlink: one was swapped in
    return stats;
  } finally {
    await parent.close();
  }
}

/**
 * Whether `requested` itself is a symbolic link, asked without leaving the allowed
 * directories: lstat by name in its parent directory held open and checked to be inside
 * them. A parent outside them (an allowed directory given by a symlink to it, or a
 * directory swapped meanwhile) counts only when the link leads to `resolved`, the path the
 * policy approved; otherwise the answer is false, revealing nothing about outside entries.
 */
export async function isSymlinkConfined(requested: string, resolved: string, confine: Confine): Promise<boolean> {
  const name = path.basename(requested);
  if (name === '') return false;
  const parentReal = await fsp.realpath(path.dirname(requested)).catch(() => undefined);
  if (parentReal !== undefined && (await confine(parentReal))) {
    const parent = await holdDirectory(parentReal, { confine }).catch(() => undefined);
    if (!parent) return false;
    try {
      return (await fsp.lstat(parent.at(name)).catch(() => undefined))?.isSymbolicLink() ?? false;
    } finally {
      await parent.close();
    }
  }
  const link = await fsp.lstat(requested).catch(() => undefined);
  return Boolean(link?.isSymbolicLink()) && (await fsp.realpath(requested).catch(() => undefined)) === resolved;
}
