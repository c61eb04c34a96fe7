// What a server's bin (dist/cli.js) runs: it loads the bundled server (dist/server.cjs) with
// a V8 code cache, so that a launch after the first skips compiling the bundle and the
// functions the first launch needed (about a quarter of the start-up time). Node 22 has
// `module.enableCompileCache()` for this; Node 20, which the servers support, does not.
//
// The cache is private to the user: a directory under the user's cache folder, created
// 0700, used only when it and the file belong to this user and nobody else can write them
// (a planted cache would be code run by the server). Each file is named after the bundle's
// name, content hash, Node's version and the architecture (writing it removes the cache of the
// server's build before), and carries a checksum of what follows (see `checksum`);
// V8 refuses a cache made by another V8 or for another source length. A cache that is
// missing, refused or unusable only costs the compile it would have saved; it is written
// once, atomically, after the server has started (it then holds the functions start-up and
// the first requests compiled). `MCP_COMPILE_CACHE=off` turns it off; any other value names
// the directory to use.
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { isMainThread } from 'node:worker_threads';

/**
 * How dist/server.cjs begins and ends: the bundle is one function expression, taking CommonJS's
 * five parameters and the bin's own URL, written so by scripts/bundle.mjs (which spells the same
 * text; test-harness's repo-layout test holds the two together). Compiled as the file is, its text
 * is the one copy V8 keeps; wrapping it here (a concatenation V8 flattens) kept a second, about
 * 1.3 MB, for the life of the process.
 */
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname, __mcpEntryUrl) {';
export const BUNDLE_TAIL = '\n})';
const DIGEST_BYTES = 8;
/** The first bytes of a cache file: a file in an earlier format (a SHA-256 first) is not read. */
const FORMAT_TAG = 'mcc1';
/** How long after start the cache is written, if the process lives that long (else at exit). */
const WRITE_AFTER_MS = 1500;

export interface RunBundleOptions {
  /** The bundled server (dist/server.cjs): CommonJS code inside BUNDLE_HEAD and BUNDLE_TAIL. */
  bundle: URL;
  /** The bin's own URL: what `import.meta.url` means inside the bundle. */
  entry: string;
  /** A hash of the bundle's content, fixed at build time. */
  buildId: string;
  /** The bin's name: an update's cache replaces the one of the version before. */
  name: string;
  env?: NodeJS.ProcessEnv;
}

/** The directory for cache files, or undefined when caching is off or has nowhere to go. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const setting = env.MCP_COMPILE_CACHE;
  if (setting !== undefined && setting !== '') {
    return /^(off|0|false|no)$/i.test(setting) ? undefined : setting;
  }
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  const os = process.platform;
  if (os === 'win32') {
    const base = env.LOCALAPPDATA || (home ? join(home, 'AppData', 'Local') : '');
    return base ? join(base, 'mcp-reference', 'compile-cache') : undefined;
  }
  if (!home) return undefined;
  if (os === 'darwin') return join(home, 'Library', 'Caches', 'mcp-reference', 'compile-cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'mcp-reference', 'compile-cache');
}

/**
 * A checksum of a cache's payload: it tells a damaged file (a disk error, a copy cut short)
 * from one V8 can load, which V8 itself does not check in release builds. It is no defence
 * against tampering, and needs none: whoever can write the file could write a matching
 * checksum too, which is why only the user's own private files are read at all. A format
 * tag and the payload's CRC-32 (zlib's, native: about 3 ms with loading zlib for a megabyte
 * where SHA-256 needed node:crypto, 5-8 ms, and a JavaScript hash ran cold for 6-10 ms).
 */
export function checksum(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(DIGEST_BYTES);
  out.write(FORMAT_TAG, 0, 'latin1');
  out.writeUInt32LE(crc32(payload), 4);
  return out;
}

/** True when only this user can have written the entry (always true on Windows: per-user folders). */
function ownedPrivately(stats: { uid: number; mode: number }): boolean {
  if (typeof process.getuid !== 'function') return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/** The cache's payload if it and its directory are private and it is intact. */
function readCache(dir: string, file: string): Buffer | undefined {
  try {
    const stats = lstatSync(dir);
    if (!stats.isDirectory() || !ownedPrivately(stats)) return undefined;
  } catch {
    return undefined;
  }
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink planted in place of the file is not followed.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || !ownedPrivately(stats) || stats.size <= DIGEST_BYTES) return undefined;
    const data = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    const payload = data.subarray(DIGEST_BYTES);
    return checksum(payload).equals(data.subarray(0, DIGEST_BYTES)) ? payload : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Creates the directory (0700) if needed; true when it is a private directory of this user. */
function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = lstatSync(dir);
    return stats.isDirectory() && ownedPrivately(stats);
  } catch {
    return false;
  }
}

function writeCache(dir: string, file: string, payload: Buffer, replaces: (name: string) => boolean): void {
  if (!privateDir(dir)) return;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([checksum(payload), payload]), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
    return;
  }
  // The caches of this server's earlier builds (on this Node) are of no more use: without
  // this, every update would leave about a megabyte behind.
  try {
    for (const entry of readdirSync(dir)) if (replaces(entry)) rmSync(join(dir, entry), { force: true });
  } catch {
    /* tidying is best effort */
  }
}

/** What happened to the code cache at start: used, written later, or why neither. */
export type CacheOutcome = 'used' | 'miss' | 'rejected' | 'off';

export interface BundleRun {
  cache: CacheOutcome;
  /** Writes the cache now if this run is to write one (otherwise does nothing); idempotent. */
  writeCache(): void;
}

/** The bundle compiled, and what became of its code cache. */
interface Compiled {
  script: Script;
  cache: CacheOutcome;
}

/**
 * Reads and compiles the bundle. A function of its own so that the file's bytes and the cache's
 * (about 1.3 and 0.9 MB) are out of reach once it returns: held by a frame still on the stack
 * while the server starts, they were carried into the old generation and stayed in memory until
 * its first full collection, seconds after start.
 */
function compileBundle(filename: string, dir: string | undefined, cacheFile: string | undefined): Compiled {
  const bytes = readFileSync(filename);
  // The build keeps the script ASCII (scripts/bundle.mjs), and for ASCII, decoding as Latin-1
  // is exact and about a third cheaper than UTF-8's (some 5 ms of every start).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  if (!source.startsWith(BUNDLE_HEAD) || !source.trimEnd().endsWith(BUNDLE_TAIL.trim())) {
    throw new Error(`${filename} is not a bundle built by scripts/bundle.mjs (one function expression); rebuild it with pnpm build.`);
  }
  const cached = cacheFile ? readCache(dir!, cacheFile) : undefined;
  const script = new Script(source, { filename, cachedData: cached });
  return { script, cache: !cacheFile ? 'off' : cached ? (script.cachedDataRejected ? 'rejected' : 'used') : 'miss' };
}

/** Runs the bundled server, with the code cache when one can be used. */
export function runBundle({ bundle, entry, buildId, name, env = process.env }: RunBundleOptions): BundleRun {
  const filename = fileURLToPath(bundle);
  const dir = compileCacheDir(env);
  const safeName = name.replace(/[^\w.-]+/g, '_');
  const runtime = `node${process.versions.node}-v8-${process.versions.v8}-${process.arch}.cache`;
  const fileName = `${safeName}-${buildId}-${runtime}`;
  const cacheFile = dir && join(dir, fileName);
  const { script, cache } = compileBundle(filename, dir, cacheFile);
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename), entry);

  // Only the main thread writes: a worker started from the same bin would race it.
  if (cache === 'off' || cache === 'used' || !isMainThread) return { cache, writeCache: () => undefined };
  let written = false;
  const writeNow = () => {
    if (written) return;
    written = true;
    clearTimeout(timer);
    process.removeListener('exit', writeNow);
    const earlierBuild = (entry: string) => entry !== fileName && entry.startsWith(`${safeName}-`) && entry.endsWith(`-${runtime}`);
    writeCache(dir!, cacheFile!, script.createCachedData(), earlierBuild);
  };
  const timer = setTimeout(writeNow, WRITE_AFTER_MS).unref();
  process.once('exit', writeNow);
  return { cache, writeCache: writeNow };
}
