import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { BigIntStats } from 'node:fs';
import { FsError, errnoCode, toFsError } from './errors.js';
import { assertOpenedInside, holdDirectory, type Confine } from './open-checked.js';
import { renameRetrying, type RenameRetry } from './rename-retry.js';
import { nodeCrypto } from '@mcp-reference/shared/core';

export interface AtomicWriteOptions {
  /** When false, fail with EXISTS instead of replacing an existing file. Default true. */
  overwrite?: boolean;
  /** Permission bits for a new file (before umask). An existing file keeps its own. */
  mode?: number;
  /** fsync the data and the directory before returning. Default true. */
  durable?: boolean;
  /**
   * The allowed directories. When given, the directory is opened and checked to be the
   * one the caller resolved (not reached through a symlink swapped in), and the temporary
   * file is checked after it is opened. The temporary file, the check of the target and
   * the rename all go through the open directory (/proc/self/fd on Linux), so a swap of
   * its path afterwards cannot redirect them; on any failure the temporary file is removed.
   */
  confine?: Confine;
  /**
   * What the caller read and based its content on: the write is refused (CONFLICT) if
   * `target` no longer is that file (changed by someone else since) just before the
   * rename. 'absent' means the caller saw no file there: one that appeared meanwhile is
   * not replaced.
   */
  expect?: FileIdentity | 'absent';
  /** How the final rename waits out a target held by another program (Windows); see rename-retry.ts. */
  renameRetry?: RenameRetry;
}

/** Enough of a file's stat to notice that it was replaced or changed. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

export function identityOf(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs };
}

function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

export type AtomicWriteData = string | Uint8Array | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/**
 * Replaces `target` so that every reader sees either the old content or the new, never
 * a mix, and a crash leaves the old file intact: the data goes to a temporary file in
 * the same directory (same filesystem, so rename(2) is atomic), is flushed, and is
 * renamed over the target.
 *
 * rename(2) replaces a symlink at `target` rather than writing through it, so a link
 * planted after the path check cannot redirect the write. On any failure the temporary
 * file is removed; only a process killed mid-write can leave one behind (a dot-file
 * named `.NAME.XXXXXXXXXXXX.tmp` next to the target).
 *
 * `data` may be an (async) iterable of chunks, so large content (a copied file) is
 * streamed instead of held in memory.
 */
export async function writeFileAtomic(target: string, data: AtomicWriteData, options: AtomicWriteOptions = {}): Promise<void> {
  const { overwrite = true, durable = true, confine, expect } = options;
  const dir = path.dirname(target);
  const name = path.basename(target);
  // Every name below is reached through the held directory, so a swap of its path for a
  // symlink after this check cannot move the write elsewhere.
  const held = await holdDirectory(dir, { confine, requested: target }).catch((error: unknown) => Promise.reject(toFsError(error, target)));
  try {
    const at = held.at(name);
    const existing = await fsp.lstat(at).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw toFsError(error, target);
    });
    if (existing?.isDirectory()) {
      throw new FsError('NOT_A_FILE', `${target} is a directory; give the path of a file to write.`);
    }
    if (existing && !overwrite) {
      throw new FsError('EXISTS', `${target} already exists. Choose another name, or ask to overwrite it.`);
    }
    // Keep the permissions of the file being replaced; a symlink's own mode means nothing.
    const keepMode = existing?.isFile() ? existing.mode & 0o7777 : undefined;

    const temp = held.at(tempName(name));
    let handle: FileHandle | undefined;
    let created = false;
    try {
      handle = await fsp.open(temp, 'wx', keepMode ?? options.mode ?? 0o666);
      created = true;
      if (confine) await assertOpenedInside(handle, temp, confine, target);
      // open() applies the umask; chmod restores the exact bits of the replaced file.
      if (keepMode !== undefined) await handle.chmod(keepMode);
      if (existing?.isFile()) await handle.chown(existing.uid, existing.gid).catch(() => undefined);
      await writeAll(handle, data);
      if (durable) await handle.sync();
      await handle.close();
      handle = undefined;
      await assertExpected(at, target, expect);
      // Create without replacing when nothing was there (or nothing may be replaced):
      // link(2) fails if the name exists, closing the gap between the checks and now.
      if (overwrite && !(expect === 'absent' || existing === undefined)) {
        await renameRetrying(temp, at, target, options.renameRetry);
      } else {
        try {
          await fsp.link(temp, at);
          await fsp.unlink(temp);
        } catch (error) {
          const code = errnoCode(error);
          if (code === 'EEXIST') throw appeared(target, overwrite);
          // A filesystem without hard links: check once more, then rename.
          if (!overwrite || !(code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS')) throw error;
          await assertExpected(at, target, 'absent');
          await renameRetrying(temp, at, target, options.renameRetry);
        }
      }
      created = false;
    } catch (error) {
      await handle?.close().catch(() => undefined);
      if (created) await fsp.unlink(temp).catch(() => undefined);
      throw toFsError(error, target);
    }
    if (durable) await held.sync();
  } finally {
    await held.close();
  }
}

async function assertExpected(at: string, target: string, expect: AtomicWriteOptions['expect']): Promise<void> {
  if (expect === undefined) return;
  const now = await fsp.lstat(at, { bigint: true }).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw toFsError(error, target);
  });
  if (expect === 'absent') {
    if (now !== undefined) throw appeared(target, true);
    return;
  }
  if (now === undefined || !sameIdentity(expect, identityOf(now))) {
    throw new FsError(
      'CONFLICT',
      `${target} was changed by someone else after it was read, so nothing was written (that change is kept). ` +
        'Read the file again and redo the edit.',
    );
  }
}

function appeared(target: string, overwrite: boolean): FsError {
  return overwrite
    ? new FsError('CONFLICT', `${target} was created by someone else meanwhile, so it was not replaced. Read it, then decide.`)
    : new FsError('EXISTS', `${target} already exists. Choose another name, or ask to overwrite it.`);
}

async function writeAll(handle: FileHandle, data: AtomicWriteData): Promise<void> {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    await handle.writeFile(data);
    return;
  }
  for await (const chunk of data) await handle.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
}

// The rename is only durable once the directory entry is: `held.sync()` fsyncs the
// directory (best effort: some platforms cannot).

/** Dot-prefixed so editors, watchers and listings treat it as hidden; short enough for NAME_MAX. */
export function tempName(base: string): string {
  return `.${Array.from(base).slice(0, 32).join('')}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
}

/** True for the names `writeFileAtomic` gives its temporary files. */
export function isAtomicTempName(name: string): boolean {
  return /^\..*\.[0-9a-f]{12}\.tmp$/.test(name);
}
