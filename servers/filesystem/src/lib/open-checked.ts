import { closeSync, constants, fstatSync, open, promises as fsp, readlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FsError, errnoCode, toFsError } from './errors.js';
import { useProcFd } from './proc-fd.js';
import { Descriptor, type ReadableFile } from './descriptor.js';

/**
 * Opening what the path check approved, and nothing else.
 *
 * A path is checked (path-policy.ts), then opened. In between, someone who can write in
 * an allowed directory may swap a directory for a symlink to elsewhere, or a file for a
 * FIFO. So every read and write opens first, then checks what it actually opened:
 * - O_NOFOLLOW: a final component that became a symlink is refused (ELOOP);
 * - O_NONBLOCK: opening a FIFO or a device never waits for a writer; the descriptor's
 *   type (fstat) is checked before any read, so no read ever blocks on one;
 * - the descriptor's real path (`/proc/self/fd/N` on Linux; elsewhere realpath of the
 *   opened path, accepted only if it names the same device and inode) must be inside
 *   the allowed directories.
 */

/** Where a real path may be: the policy's allowed directories. */
export type Confine = (real: string) => Promise<boolean>;

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/**
 * Opens a regular file without blocking on a FIFO or device and without following a
 * final symlink; anything but a regular file is closed again and refused (NOT_A_FILE).
 * For grep and every other reader that walks or reads files it did not just check.
 */
export async function openRegularFile(file: string, flags: number = constants.O_RDONLY, label = file): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(file, flags | O_NONBLOCK | O_NOFOLLOW);
  } catch (error) {
    throw openError(error, label);
  }
  try {
    assertRegular(handle.fd, label);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw toFsError(error, label);
  }
}

/**
 * The same as `openRegularFile`, into a `Descriptor`: for the reads of one call
 * (path-policy's openFile). The open itself stays off the main thread: opening can wait on
 * more than a disk (a macOS iCloud file not yet downloaded is fetched when opened, a network
 * share answers when it answers), and no other session should wait with it. The type check
 * is synchronous, on the open descriptor.
 */
export async function openRegularDescriptor(file: string, label = file): Promise<Descriptor> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) =>
      open(file, constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW, (error, opened) => (error ? reject(error) : resolve(opened))),
    );
  } catch (error) {
    throw openError(error, label);
  }
  try {
    assertRegular(fd, label);
    return new Descriptor(fd);
  } catch (error) {
    closeSync(fd);
    throw toFsError(error, label);
  }
}

/** NOT_A_FILE unless descriptor `fd` (opened by both openers above) is a regular file. */
function assertRegular(fd: number, label: string): void {
  // fstat of an open descriptor never waits on a disk: synchronous, no thread-pool trip.
  const stats = fstatSync(fd);
  if (!stats.isFile()) throw notAFile(label, stats);
}

/** NOT_A_FILE for `label`, which turned out to be a directory or a special file. */
export function notAFile(label: string, stats: { isDirectory(): boolean }): FsError {
  return new FsError(
    'NOT_A_FILE',
    stats.isDirectory()
      ? `${label} is a directory, not a file. List it, or give the path of a file inside it.`
      : `${label} is not a regular file (device, socket or pipe) and cannot be read as one.`,
  );
}

/** Opens a directory (not a symlink to one) to learn where it really is. */
export async function openDirectory(dir: string): Promise<FileHandle> {
  try {
    return await fsp.open(dir, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    // With O_DIRECTORY, Linux reports a symlink as ENOTDIR.
    if (errnoCode(error) === 'ENOTDIR' && (await fsp.lstat(dir).catch(() => undefined))?.isSymbolicLink()) throw swapped(dir);
    throw openError(error, dir);
  }
}

/**
 * The real path of what `handle` refers to. `opened` is the path it was opened by, for
 * systems without /proc: its realpath counts only if it still names the same inode.
 * Undefined when the file was deleted or moved meanwhile.
 */
export async function realPathOfHandle(handle: Pick<ReadableFile, 'fd' | 'stat'>, opened: string): Promise<string | undefined> {
  const viaProc = procPathOfFd(handle.fd);
  if (viaProc !== undefined) return viaProc;
  try {
    const [own, real] = await Promise.all([handle.stat({ bigint: true }), fsp.realpath(opened)]);
    const now = await fsp.stat(real, { bigint: true });
    return now.dev === own.dev && now.ino === own.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

const DELETED = ' (deleted)';

/**
 * Where descriptor `fd` really is, from /proc/self/fd (Linux), or undefined without /proc.
 *
 * The kernel appends " (deleted)" to the path of a file unlinked since it was opened,
 * which is also what a reader sees when another process replaces the file by rename
 * between our open and this look-up: that file is still the one that was at the path
 * (the old version), so its former path is where it is. A name that itself ends in
 * " (deleted)" reads the same; the link count tells the two apart.
 */
export function procPathOfFd(fd: number): string | undefined {
  if (!useProcFd()) return undefined;
  let link: string;
  try {
    // Synchronous: reading a /proc link never waits on a disk, and a trip through the
    // thread pool would cost more than the call itself.
    link = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined; // no /proc
  }
  if (!path.isAbsolute(link)) return undefined;
  if (!link.endsWith(DELETED)) return link;
  try {
    if (fstatSync(fd).nlink > 0) return link; // a live file whose name ends so
  } catch {
    return undefined;
  }
  return link.slice(0, -DELETED.length);
}

/**
 * Throws ACCESS_DENIED unless `handle` (opened by `opened`, which the policy resolved from
 * `requested`) is inside the allowed directories. Returns its real path.
 */
export async function assertOpenedInside(handle: Pick<ReadableFile, 'fd' | 'stat'>, opened: string, confine: Confine, requested = opened): Promise<string> {
  const real = await realPathOfHandle(handle, opened);
  if (real !== undefined && (await confine(real))) return real;
  throw swapped(requested);
}

/** A directory the caller resolved must still be that directory, inside the allowed ones. */
export async function assertDirectoryInside(dir: string, confine: Confine, requested = dir): Promise<void> {
  const handle = await openDirectory(dir);
  try {
    const real = await realPathOfHandle(handle, dir);
    if (real === undefined || real !== dir || !(await confine(real))) throw swapped(requested);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** A directory held open, so that names can be created and renamed in that very directory. */
export interface HeldDirectory {
  /** The path it was opened by. */
  path: string;
  /**
   * A path that reaches `name` in the held directory itself: on Linux through
   * /proc/self/fd/N (the kernel resolves it to the open directory, whatever is at its old
   * path now: the *at() system calls Node lacks); elsewhere the plain path.
   */
  at(name: string): string;
  /** fsync of the directory (best effort). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the directory `dir` (no final symlink) and holds it. With `confine`, it must be
 * inside the allowed directories and really be `dir` (not reached through a symlink
 * swapped in on the way); `via` opens it by another path (a held parent's `at(name)`).
 */
export async function holdDirectory(
  dir: string,
  options: { confine?: Confine; via?: string; requested?: string } = {},
): Promise<HeldDirectory> {
  const { confine, requested = dir } = options;
  if (process.platform === 'win32') {
    // Windows cannot open a directory as a file: check its real path, then use plain paths.
    if (confine && ((await fsp.realpath(dir).catch(() => undefined)) !== dir || !(await confine(dir)))) throw swapped(requested);
    return { path: dir, at: (name) => path.join(dir, name), sync: async () => undefined, close: async () => undefined };
  }
  const handle = await openDirectory(options.via ?? dir);
  try {
    const viaProc = useProcFd() ? await fsp.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined) : undefined;
    if (confine) {
      const real = viaProc ?? (await realPathOfHandle(handle, dir));
      if (real === undefined || real !== dir || !(await confine(real))) throw swapped(requested);
    }
    const base = viaProc !== undefined && path.isAbsolute(viaProc) ? `/proc/self/fd/${handle.fd}` : dir;
    return {
      path: dir,
      at: (name) => path.join(base, name),
      sync: () => handle.sync().catch(() => undefined),
      close: () => handle.close().catch(() => undefined),
    };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

export function swapped(requested: string): FsError {
  return new FsError(
    'ACCESS_DENIED',
    `Access denied: ${requested} changed while it was being opened (a directory or file on the way was replaced, ` +
      'e.g. by a symbolic link leading outside the allowed directories). Nothing was read or written.',
  );
}

function openError(error: unknown, file: string): unknown {
  // O_NOFOLLOW on a symlink fails with ELOOP (EMLINK on some BSDs).
  const code = errnoCode(error);
  if (code === 'ELOOP' || code === 'EMLINK') return swapped(file);
  if (code === 'ENOTDIR' && O_DIRECTORY !== 0) {
    return new FsError('NOT_A_DIRECTORY', `${file} is not a directory (it may have just been replaced).`, { cause: error });
  }
  return toFsError(error, file);
}
