import { promises as fsp } from 'node:fs';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { FsError, errnoCode, toFsError } from './errors.js';
import { makeDirectories } from './make-dirs.js';
import { assertDirectoryInside, assertOpenedInside, openRegularFile, type Confine } from './open-checked.js';

/**
 * copy_file and move_file on paths the policy has already resolved.
 *
 * Neither replaces an existing destination unless `overwrite` is set (the official
 * move_file refuses too; a tool asks the user before passing overwrite).
 */
export interface CopyMoveOptions {
  overwrite?: boolean;
  /**
   * The allowed directories: what is opened and written is checked against them (see
   * open-checked.ts), so a directory swapped for a symlink mid-operation is refused.
   */
  confine?: Confine;
}

/**
 * Copies one regular file. The copy is written atomically (temp file + rename), so a
 * failed copy never leaves a half-written destination; a new file gets the source's
 * permission bits, a replaced one keeps its own.
 */
export async function copyFile(source: string, destination: string, options: CopyMoveOptions = {}): Promise<void> {
  const { confine } = options;
  // Opened first, then checked: the bytes copied are those of the file the check approved.
  const handle = await openRegularFile(source).catch((error: unknown) => {
    if (error instanceof FsError && error.code === 'NOT_A_FILE' && /directory/.test(error.message)) {
      throw new FsError('NOT_A_FILE', `${source} is a directory; copy_file copies single files. Create the directory, then copy its files.`);
    }
    throw error;
  });
  try {
    if (confine) await assertOpenedInside(handle, source, confine);
    const stats = await handle.stat();
    await assertDestination(source, destination, options);
    await writeFileAtomic(destination, handle.createReadStream({ start: 0, autoClose: false }), {
      overwrite: options.overwrite ?? false,
      mode: stats.mode & 0o777,
      confine,
      ...(options.overwrite ? {} : { expect: 'absent' as const }),
    });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Copies a directory recursively into a destination that must not exist yet. Symlinks
 * are copied as links, never followed, so nothing outside the source is read. A tree
 * holding anything but files, directories and symlinks (a FIFO, a socket, a device) is
 * refused before anything is copied; a copy that fails midway is removed again, so the
 * destination is either complete or absent.
 */
export async function copyDirectory(source: string, destination: string, options: Pick<CopyMoveOptions, 'confine'> = {}): Promise<void> {
  const { confine } = options;
  await assertDestination(source, destination, { overwrite: false });
  if (isInside(source, destination)) {
    throw new FsError('INVALID_ARGUMENT', `Cannot copy ${source} into itself (${destination}).`);
  }
  if (confine) await assertDirectoryInside(source, confine);
  const entries = await listTree(source);
  if (confine) await makeDirectories(path.dirname(destination), confine);
  else await fsp.mkdir(path.dirname(destination), { recursive: true });
  try {
    await fsp.mkdir(destination, { mode: (await fsp.stat(source)).mode & 0o777 });
  } catch (error) {
    throw toFsError(error, destination);
  }
  try {
    if (confine) await assertDirectoryInside(destination, confine);
    for (const entry of entries) {
      const from = path.join(source, entry.relative);
      const to = path.join(destination, entry.relative);
      if (entry.type === 'directory') {
        await fsp.mkdir(to, { mode: (await fsp.lstat(from)).mode & 0o777 });
        if (confine) await assertDirectoryInside(to, confine);
      } else if (entry.type === 'symlink') {
        await fsp.symlink(await fsp.readlink(from), to);
      } else {
        await copyFile(from, to, { confine });
      }
    }
  } catch (error) {
    // Roll back: remove what was made, as long as the destination is still the directory we made.
    const ours = confine ? await assertDirectoryInside(destination, confine).then(() => true, () => false) : true;
    if (ours) await fsp.rm(destination, { recursive: true, force: true }).catch(() => undefined);
    const reason = error instanceof FsError ? error.message : (error as Error).message;
    throw new FsError(error instanceof FsError ? error.code : 'IO_ERROR', `${reason} Nothing was copied to ${destination}.`, { cause: error });
  }
}

interface TreeEntry {
  relative: string;
  type: 'file' | 'directory' | 'symlink';
}

/** Every entry under `root`, parents before children; refuses special files up front. */
async function listTree(root: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    let dirents: Dirent[];
    try {
      dirents = await fsp.readdir(path.join(root, relative), { withFileTypes: true });
    } catch (error) {
      throw toFsError(error, path.join(root, relative));
    }
    for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const child = relative === '' ? dirent.name : path.join(relative, dirent.name);
      if (dirent.isDirectory()) {
        out.push({ relative: child, type: 'directory' });
        pending.push(child);
      } else if (dirent.isSymbolicLink()) out.push({ relative: child, type: 'symlink' });
      else if (dirent.isFile()) out.push({ relative: child, type: 'file' });
      else {
        throw new FsError(
          'NOT_A_FILE',
          `${path.join(root, child)} is not a regular file, directory or symbolic link (a pipe, socket or device), so ${root} ` +
            'cannot be copied. Nothing was copied; copy its other contents one by one, or remove that entry first.',
        );
      }
    }
  }
  return out;
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
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
  if (options.confine) {
    // Right before the rename: both directories are still the real ones that were checked.
    await assertDirectoryInside(path.dirname(source), options.confine, source);
    await assertDirectoryInside(path.dirname(destination), options.confine, destination);
  }
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
