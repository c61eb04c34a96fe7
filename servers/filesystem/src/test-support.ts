// Helpers shared by the server-level test files (*.test.ts beside this one). Not part of
// the bundle: only cli.ts is bundled.
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openToolSession, type ClientOptions, type TempTree, type ToolSession } from '@mcp-reference/test-harness';
import { createFilesystemServer, type CreateFilesystemServerOptions } from './server.js';

export { linksOf, refusal, textOf, type ToolResult } from '@mcp-reference/test-harness';

export const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

export type Session = ToolSession<ReturnType<typeof createFilesystemServer>>;

/** A factory-built server with a real in-memory client. Close it in afterEach/afterAll. */
export function open(options: Partial<CreateFilesystemServerOptions> & { dirs: string[] }, client: ClientOptions = {}): Promise<Session> {
  return openToolSession(createFilesystemServer({ logLevel: 'error', ...options }), client);
}

/**
 * Everything under `dir`, by relative path: file contents, symlink targets, directories.
 * Comparing two snapshots shows any file created, changed, removed or left behind.
 */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function visit(current: string) {
    for (const name of (await readdir(current)).sort()) {
      const full = path.join(current, name);
      const rel = path.relative(dir, full);
      const stats = await lstat(full);
      if (stats.isSymbolicLink()) out[rel] = `link -> ${await readlink(full)}`;
      else if (stats.isDirectory()) {
        out[rel] = 'dir';
        await visit(full);
      } else out[rel] = `file ${(await readFile(full)).toString('base64')}`;
    }
  }
  await visit(dir);
  return out;
}

/** A 1x1 transparent PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A temp directory holding `dirs` x `filesPerDir` small files, made synchronously (one
 * syscall each, no thread-pool round trips). On Linux it goes to /dev/shm when
 * available: creating 20,000 files on some CI disks takes over 15 s, on tmpfs 0.3 s.
 */
export async function makeBigTree(
  dirs: number,
  filesPerDir: number,
  content: (dir: number, file: number) => string = (d, f) => `${d}/${f}\n`,
): Promise<TempTree> {
  let base = tmpdir();
  try {
    accessSync('/dev/shm', constants.W_OK);
    base = '/dev/shm';
  } catch {
    // not Linux, or no tmpfs: the usual temp directory
  }
  const dir = await realpath(await mkdtemp(path.join(base, 'mcp-big-tree-')));
  for (let d = 0; d < dirs; d++) {
    const sub = path.join(dir, `d${String(d).padStart(2, '0')}`);
    mkdirSync(sub);
    for (let f = 0; f < filesPerDir; f++) writeFileSync(path.join(sub, `f${String(f).padStart(4, '0')}.txt`), content(d, f));
  }
  return { dir, path: (...parts) => path.join(dir, ...parts), cleanup: () => rm(dir, { recursive: true, force: true }) };
}
