import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { procPathOfFd } from './open-checked.js';
import path from 'node:path';
import { errnoCode } from './errors.js';

/**
 * Reading a file the server opens for itself (a .gitignore met on a walk; anything no
 * client named), with the checks a client's read gets: a FIFO there would block the
 * process until someone writes to it, a symlink to /dev/zero would grow the heap without
 * end, a symlink could lead outside the allowed directories, and a huge file would stall
 * every session. So the file is opened without blocking and without following a final
 * symlink, must be a regular file no larger than `maxBytes`, and (where /proc tells) must
 * really be `expected`. Anything else is skipped, with the reason, for the caller to
 * report once.
 *
 * Synchronous on purpose: a walk reads its directories synchronously in time slices
 * (walk.ts), and with these flags no step can wait on anything but the disk.
 */
export type OwnFileRead = { text: string } | { skipped: string } | { absent: true };

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

export function readOwnFileSync(file: string, options: { maxBytes: number; expected?: string }): OwnFileRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    // O_NOFOLLOW on a symlink fails with ELOOP (EMLINK on some BSDs). git does not follow
    // a symlinked .gitignore either (since 2.32).
    if (code === 'ELOOP' || code === 'EMLINK') return { skipped: 'it is a symbolic link, which is not followed' };
    // Absent or unreadable: as git does, treated as absent.
    return { absent: true };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { skipped: 'it is not a regular file (a FIFO, socket or device)' };
    if (stats.size > options.maxBytes) return { skipped: `it is larger than ${options.maxBytes} bytes (${stats.size})` };
    if (options.expected !== undefined) {
      // Without /proc: O_NOFOLLOW and the caller's check of the directory are what there is.
      const real = procPathOfFd(fd);
      if (real !== undefined && path.isAbsolute(real) && real !== options.expected) {
        return { skipped: 'it changed while being opened (it is not where its directory is)' };
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
    if (length > options.maxBytes) return { skipped: `it is larger than ${options.maxBytes} bytes` };
    return { text: buffer.toString('utf8', 0, length) };
  } catch {
    return { absent: true };
  } finally {
    closeSync(fd);
  }
}
