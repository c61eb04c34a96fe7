import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';

/**
 * Reading a file a server opens for itself (a .gitignore met on a walk, a git ref or
 * `commondir`; anything no client named), with the checks a client's read gets: a FIFO
 * there would block until someone writes to it (read in the thread pool, it holds one of
 * its four threads for good, and four of them stall every file operation of the process),
 * a symlink to /dev/zero would grow the heap without end, a symlink could lead outside the
 * allowed directories, and a huge file would stall every session. So the file is opened
 * without blocking and without following a final symlink, must be a regular file no larger
 * than `maxBytes`, and (when the caller can tell where a descriptor really is) must really
 * be `expected`. Anything else is skipped, with the reason (`kind` says which), for the
 * caller to report or refuse.
 *
 * Synchronous on purpose: these files are small, and with these flags no step can wait on
 * anything but the disk; a trip through the thread pool costs more than the read.
 */
export type OwnFileRead = { text: string } | { skipped: string; kind: 'symlink' | 'special' | 'large' | 'moved' } | { absent: true };

export interface OwnFileOptions {
  maxBytes: number;
  /** Where the file really is (a real path), checked with `realPathOf` when both are given. */
  expected?: string;
  /** Where an open descriptor really is (/proc/self/fd on Linux), or undefined when it cannot tell. */
  realPathOf?: (fd: number) => string | undefined;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

export function readOwnFileSync(file: string, options: OwnFileOptions): OwnFileRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // O_NOFOLLOW on a symlink fails with ELOOP (EMLINK on some BSDs). git does not follow
    // a symlinked .gitignore either (since 2.32).
    if (code === 'ELOOP' || code === 'EMLINK') return { skipped: 'it is a symbolic link, which is not followed', kind: 'symlink' };
    // Absent or unreadable: as git does, treated as absent.
    return { absent: true };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { skipped: 'it is not a regular file (a FIFO, socket or device)', kind: 'special' };
    if (stats.size > options.maxBytes) return { skipped: `it is larger than ${options.maxBytes} bytes (${stats.size})`, kind: 'large' };
    if (options.expected !== undefined && options.realPathOf !== undefined) {
      // Without /proc: O_NOFOLLOW and the caller's check of the directory are what there is.
      const real = options.realPathOf(fd);
      if (real !== undefined && path.isAbsolute(real) && real !== options.expected) {
        return { skipped: 'it changed while being opened (it is not where its directory is)', kind: 'moved' };
      }
    }
    // At most maxBytes + 1, whatever the size said: a file may grow after fstat.
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, options.maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) break;
      length += n;
    }
    if (length > options.maxBytes) return { skipped: `it is larger than ${options.maxBytes} bytes`, kind: 'large' };
    return { text: buffer.toString('utf8', 0, length) };
  } catch {
    return { absent: true };
  } finally {
    closeSync(fd);
  }
}
