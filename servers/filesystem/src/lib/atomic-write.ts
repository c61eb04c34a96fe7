import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FsError, errnoCode, toFsError } from './errors.js';

export interface AtomicWriteOptions {
  /** When false, fail with EXISTS instead of replacing an existing file. Default true. */
  overwrite?: boolean;
  /** Permission bits for a new file (before umask). An existing file keeps its own. */
  mode?: number;
  /** fsync the data and the directory before returning. Default true. */
  durable?: boolean;
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
  const { overwrite = true, durable = true } = options;
  const dir = path.dirname(target);
  const existing = await fsp.lstat(target).catch((error: unknown) => {
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

  const temp = path.join(dir, tempName(path.basename(target)));
  let handle: FileHandle | undefined;
  try {
    handle = await fsp.open(temp, 'wx', keepMode ?? options.mode ?? 0o666);
    // open() applies the umask; chmod restores the exact bits of the replaced file.
    if (keepMode !== undefined) await handle.chmod(keepMode);
    if (existing?.isFile()) await handle.chown(existing.uid, existing.gid).catch(() => undefined);
    await writeAll(handle, data);
    if (durable) await handle.sync();
    await handle.close();
    handle = undefined;
    if (overwrite) {
      await fsp.rename(temp, target);
    } else {
      // link(2) fails if the name exists, closing the gap between the lstat above and now.
      await fsp.link(temp, target);
      await fsp.unlink(temp);
    }
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fsp.unlink(temp).catch(() => undefined);
    throw toFsError(error, target);
  }
  if (durable) await syncDirectory(dir);
}

async function writeAll(handle: FileHandle, data: AtomicWriteData): Promise<void> {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    await handle.writeFile(data);
    return;
  }
  for await (const chunk of data) await handle.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
}

// The rename is only durable once the directory entry is; some platforms cannot open
// a directory for fsync, which is not worth failing a completed write for.
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Dot-prefixed so editors, watchers and listings treat it as hidden; short enough for NAME_MAX. */
function tempName(base: string): string {
  return `.${Array.from(base).slice(0, 32).join('')}.${randomBytes(6).toString('hex')}.tmp`;
}

/** True for the names `writeFileAtomic` gives its temporary files. */
export function isAtomicTempName(name: string): boolean {
  return /^\..*\.[0-9a-f]{12}\.tmp$/.test(name);
}
