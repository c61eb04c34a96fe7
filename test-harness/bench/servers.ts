// Which servers the benchmark runs, and how each one's tools are called. Our filesystem
// server's tool and parameter names live in OUR_FS_TOOLS: adjust them there, once.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioServer } from './stdio-driver.js';
import type { ToolCallResult } from './stdio-driver.js';

export interface ServerSpec {
  label: string;
  /** JS entry run with the current node; undefined when not built. */
  entry: string | undefined;
  /** Why entry is undefined. */
  missing?: string;
}

/** A server and the arguments it is started with. */
export interface Launch {
  spec: ServerSpec;
  args: string[];
  /** Added to the bench's environment (e.g. MCP_COMPILE_CACHE=off for a first launch). */
  env?: Record<string, string>;
  /** The protocol era the bench speaks (default legacy: initialize, 2025-06-18). */
  era?: 'legacy' | 'modern';
}

export function start(launch: Launch): StdioServer {
  if (!launch.spec.entry) throw new Error(`${launch.spec.label}: ${launch.spec.missing}`);
  return new StdioServer(process.execPath, [launch.spec.entry, ...launch.args], { env: launch.env, era: launch.era });
}

/** The repository root: the nearest folder up from this file with pnpm-workspace.yaml. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root (pnpm-workspace.yaml)');
    dir = up;
  }
}

function ours(label: string, relative: string, override: string | undefined): ServerSpec {
  const entry = override ? resolve(override) : join(repoRoot(), relative);
  if (existsSync(entry)) return { label, entry };
  return { label, entry: undefined, missing: `${relative} not found (build it with \`pnpm build\`)` };
}

export function ourTemplate(override?: string): ServerSpec {
  return ours('template (ours)', 'servers/_template/dist/cli.js', override);
}

export function ourFilesystem(override?: string): ServerSpec {
  return ours('filesystem (ours)', 'servers/filesystem/dist/cli.js', override);
}

/** The official server, a devDependency of test-harness; its bin is run with node. */
export function officialFilesystem(): ServerSpec {
  const label = 'official server-filesystem';
  try {
    const require = createRequire(join(repoRoot(), 'test-harness', 'package.json'));
    const pkgJson = require.resolve('@modelcontextprotocol/server-filesystem/package.json');
    const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { bin?: string | Record<string, string>; version: string };
    const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
    if (!bin) return { label, entry: undefined, missing: 'the package declares no bin' };
    return { label: `${label} ${pkg.version}`, entry: join(dirname(pkgJson), bin) };
  } catch (err) {
    return { label, entry: undefined, missing: `not installed (${(err as Error).message.split('\n')[0]})` };
  }
}

/** How one benchmark operation maps onto a server's tools. */
export interface ToolSet {
  listAllowed: { name: string; args: () => Record<string, unknown> };
  searchFiles: {
    name: string;
    args: (dir: string, pattern: string, cursor: string | undefined) => Record<string, unknown>;
    /** The cursor of the next page, when the server pages its matches. */
    nextCursor: (result: ToolCallResult) => string | undefined;
  };
  directoryTree: {
    name: string;
    args: (dir: string, cursor: string | undefined) => Record<string, unknown>;
    /** The cursor of the next page, when the server pages its tree. */
    nextCursor: (result: ToolCallResult) => string | undefined;
  };
  grepFiles?: { name: string; args: (dir: string, pattern: string) => Record<string, unknown> };
  head: { name: string; args: (file: string, lines: number) => Record<string, unknown> };
  tail: { name: string; args: (file: string, lines: number) => Record<string, unknown> };
}

function cursorOf(result: ToolCallResult): string | undefined {
  const sc = result.structuredContent;
  const cursor = sc?.nextCursor ?? sc?.cursor;
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

export const OFFICIAL_FS_TOOLS: ToolSet = {
  listAllowed: { name: 'list_allowed_directories', args: () => ({}) },
  searchFiles: { name: 'search_files', args: (path, pattern) => ({ path, pattern }), nextCursor: () => undefined },
  directoryTree: { name: 'directory_tree', args: (path) => ({ path }), nextCursor: () => undefined },
  head: { name: 'read_text_file', args: (path, head) => ({ path, head }) },
  tail: { name: 'read_text_file', args: (path, tail) => ({ path, tail }) },
};

export const OUR_FS_TOOLS: ToolSet = {
  ...OFFICIAL_FS_TOOLS,
  directoryTree: {
    name: 'directory_tree',
    args: (path, cursor) => (cursor ? { path, cursor } : { path }),
    nextCursor: cursorOf,
  },
  // The largest pages the tools allow, following cursors, so all of it is measured.
  searchFiles: {
    name: 'search_files',
    args: (path, pattern, cursor) => ({ path, pattern, max_results: 10_000, ...(cursor ? { cursor } : {}) }),
    nextCursor: cursorOf,
  },
  // max_results is set to the tool's maximum so that grep_files returns as much as `grep -rn` prints.
  grepFiles: { name: 'grep_files', args: (path, pattern) => ({ path, pattern, max_results: 100_000 }) },
};

/** The number of items a result holds: its longest array, or else its non-empty text lines. */
export function countItems(result: ToolCallResult): number {
  let longest = -1;
  for (const value of Object.values(result.structuredContent ?? {})) {
    if (Array.isArray(value)) longest = Math.max(longest, value.length);
  }
  if (longest >= 0) return longest;
  const text = result.content?.find((c) => c.type === 'text')?.text ?? '';
  if (text === 'No matches found') return 0;
  return text.split('\n').filter((l) => l.trim() !== '').length;
}
