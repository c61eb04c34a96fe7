import { promises as fsp } from 'node:fs';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { tempName, writeFileAtomic } from './atomic-write.js';
import { FsError, errnoCode, toFsError } from './errors.js';
import { makeDirectories } from './make-dirs.js';
import { assertOpenedInside, holdDirectory, openRegularFile, type Confine, type HeldDirectory } from './open-checked.js';
import { renameRetrying } from './rename-retry.js';
import type { PathFlavor } from './path-flavor.js';

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
  return copyRegular(source, source, destination, options);
}

/** copyFile, opening the source by `openPath` (a held directory's `at(name)`) and naming it `source`. */
async function copyRegular(openPath: string, source: string, destination: string, options: CopyMoveOptions): Promise<void> {
  const { confine } = options;
  // Opened first, then checked: the bytes copied are those of the file the check approved.
  const handle = await openRegularFile(openPath).catch((error: unknown) => {
    if (error instanceof FsError && error.code === 'NOT_A_FILE' && /directory/.test(error.message)) {
      throw new FsError('NOT_A_FILE', `${source} is a directory; copy_file copies single files. Create the directory, then copy its files.`);
    }
    throw error;
  });
  try {
    if (confine) await assertOpenedInside(handle, openPath, confine, source);
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
  const name = path.basename(destination);
  const held: HeldDirectory[] = [];
  const hold = async (dir: string, via?: string) => {
    const directory = await holdDirectory(dir, { confine, via });
    held.push(directory);
    return directory;
  };
  let parent: HeldDirectory | undefined;
  let created = false;
  try {
    const from = await hold(source);
    await assertCopyable(from.at(''), source);
    if (confine) await makeDirectories(path.dirname(destination), confine);
    else await fsp.mkdir(path.dirname(destination), { recursive: true });
    parent = await hold(path.dirname(destination));
    await fsp.mkdir(parent.at(name), { mode: (await fsp.stat(from.at(''))).mode & 0o777 }).catch((error: unknown) => Promise.reject(toFsError(error, destination)));
    created = true;
    // Every directory is held open while its entries are copied, so neither side can be
    // swapped for a symlink under the copy.
    const copyInto = async (src: HeldDirectory, srcPath: string, dst: HeldDirectory, dstPath: string): Promise<void> => {
      const dirents = await fsp.readdir(src.at(''), { withFileTypes: true });
      for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const fromPath = path.join(srcPath, dirent.name);
        const toPath = path.join(dstPath, dirent.name);
        if (dirent.isDirectory()) {
          await fsp.mkdir(dst.at(dirent.name), { mode: (await fsp.lstat(src.at(dirent.name))).mode & 0o777 });
          await copyInto(await hold(fromPath, src.at(dirent.name)), fromPath, await hold(toPath, dst.at(dirent.name)), toPath);
        } else if (dirent.isSymbolicLink()) {
          await fsp.symlink(await fsp.readlink(src.at(dirent.name)), dst.at(dirent.name));
        } else if (dirent.isFile()) {
          await copyRegular(src.at(dirent.name), fromPath, toPath, { confine });
        } else {
          throw special(fromPath, source);
        }
      }
    };
    await copyInto(from, source, await hold(destination, parent.at(name)), destination);
  } catch (error) {
    // Roll back: remove what was made, through the held parent (so nothing else is removed).
    if (created && parent) await fsp.rm(parent.at(name), { recursive: true, force: true }).catch(() => undefined);
    const reason = error instanceof FsError ? error.message : (error as Error).message;
    throw new FsError(error instanceof FsError ? error.code : 'IO_ERROR', `${reason} Nothing was copied to ${destination}.`, { cause: error });
  } finally {
    for (const directory of held) await directory.close();
  }
}

/** Refuses, before anything is copied, a tree holding anything but files, directories and symlinks. */
async function assertCopyable(root: string, label: string): Promise<void> {
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    let dirents: Dirent[];
    try {
      dirents = await fsp.readdir(path.join(root, relative), { withFileTypes: true });
    } catch (error) {
      throw toFsError(error, path.join(label, relative));
    }
    for (const dirent of dirents) {
      const child = relative === '' ? dirent.name : path.join(relative, dirent.name);
      if (dirent.isDirectory()) pending.push(child);
      else if (!dirent.isFile() && !dirent.isSymbolicLink()) throw special(path.join(label, child), label);
    }
  }
}

function special(entry: string, root: string): FsError {
  return new FsError(
    'NOT_A_FILE',
    `${entry} is not a regular file, directory or symbolic link (a pipe, socket or device), so ${root} ` +
      'cannot be copied. Nothing was copied; copy its other contents one by one, or remove that entry first.',
  );
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
  if (await isSameEntry(source, destination)) return renameInPlace(source, destination, options.confine);
  await assertDestination(source, destination, options);
  // Both directories held open and checked: the rename happens in them, whatever is
  // swapped in at their paths meanwhile.
  const from = await holdDirectory(path.dirname(source), { confine: options.confine, requested: source });
  const to = await holdDirectory(path.dirname(destination), { confine: options.confine, requested: destination }).catch(async (error: unknown) => {
    await from.close();
    throw error;
  });
  try {
    await renameRetrying(from.at(path.basename(source)), to.at(path.basename(destination)), source);
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
  } finally {
    await from.close();
    await to.close();
  }
}

/**
 * The path a rename should go to when the destination the user typed resolved to the
 * source itself: on Windows (and macOS) the real path of "NEW.txt" is "new.txt" when only
 * that exists, so the typed name is put back. `typed` is the destination as sent.
 */
export function renameTarget(source: string, resolved: string, typed: string, { path: p }: PathFlavor): string {
  if (resolved !== source) return resolved;
  const name = p.basename(typed);
  if (name === '' || name === '.' || name === '..' || name === p.basename(source) || !sameNameFolded(name, p.basename(source))) return resolved;
  return p.join(p.dirname(source), name);
}

/** Equal but for case and Unicode form: what a case-insensitive, normalizing volume treats as one name. */
export function sameNameFolded(a: string, b: string): boolean {
  return a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
}

/**
 * True when `destination` is another spelling (case, Unicode form) of `source` in the
 * same directory that the filesystem takes for the very same entry, as a case-insensitive
 * volume does: renaming one to the other changes only how the name is stored. A second
 * hard link that merely differs in case is a separate entry (its own name is listed), not this.
 */
export async function isSameEntry(source: string, destination: string): Promise<boolean> {
  const dir = path.dirname(source);
  const name = path.basename(destination);
  if (source === destination || path.dirname(destination) !== dir || !sameNameFolded(path.basename(source), name)) return false;
  const [a, b] = await Promise.all([fsp.lstat(source, { bigint: true }).catch(() => undefined), fsp.lstat(destination, { bigint: true }).catch(() => undefined)]);
  if (a === undefined || b === undefined || a.dev !== b.dev || a.ino !== b.ino) return false;
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  return !names.includes(name);
}

/**
 * A case-only (or Unicode-form-only) rename in place: through a temporary name, since
 * some systems take a rename onto another spelling of the same name for a no-op.
 */
async function renameInPlace(source: string, destination: string, confine: Confine | undefined): Promise<void> {
  const dir = await holdDirectory(path.dirname(source), { confine, requested: source });
  try {
    const from = dir.at(path.basename(source));
    const temp = dir.at(tempName(path.basename(source)));
    await renameRetrying(from, temp, source).catch((error: unknown) => Promise.reject(toFsError(error, source)));
    try {
      await renameRetrying(temp, dir.at(path.basename(destination)), source);
    } catch (error) {
      await fsp.rename(temp, from).catch(() => undefined);
      throw toFsError(error, destination);
    }
  } finally {
    await dir.close();
  }
}

async function assertDestination(source: string, destination: string, options: CopyMoveOptions): Promise<void> {
  if (source === destination) {
    throw new FsError('INVALID_ARGUMENT', `Source and destination are the same path (${source}).`);
  }
  if (await isSameEntry(source, destination)) {
    throw new FsError(
      'INVALID_ARGUMENT',
      `${destination} is ${source} itself: this filesystem does not tell names apart by case. Give the copy another name.`,
    );
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
