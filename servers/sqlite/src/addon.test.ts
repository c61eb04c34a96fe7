// The SQLite engine's native addon missing, or built for another platform (a Linux
// better_sqlite3.node in a Windows bundle fails with "Bad EXE format"): every call says in
// one line how to get the right one. The built bin runs from a copy of the package whose
// addon is broken, as an install for the wrong platform is.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio } from '@mcp-reference/test-harness';
import { bin, shopDb, textOf } from './test-support.js';
import type { SqliteFixture } from '@mcp-reference/test-harness';

let dir = '';
let db: SqliteFixture;

/** A copy of the built server and its runtime dependencies, the addon replaced by `addon` (or absent). */
async function install(name: string, addon: Buffer | undefined): Promise<string> {
  const root = path.join(dir, name);
  // The bin (dist/cli.js) and the bundle it runs (dist/server.cjs).
  await cp(path.dirname(bin), path.join(root, 'dist'), { recursive: true });
  await writeFile(path.join(root, 'package.json'), '{"type":"module"}\n');
  const require = createRequire(bin);
  const sqlite = path.dirname(require.resolve('better-sqlite3/package.json'));
  const fromSqlite = createRequire(path.join(sqlite, 'package.json'));
  const bindings = path.dirname(fromSqlite.resolve('bindings/package.json'));
  const fileUri = path.dirname(createRequire(path.join(bindings, 'package.json')).resolve('file-uri-to-path/package.json'));
  const modules = path.join(root, 'node_modules');
  await cp(sqlite, path.join(modules, 'better-sqlite3'), {
    recursive: true,
    dereference: true,
    filter: (file) => !/[\\/](deps|src|node_modules)$/.test(file) && !/[\\/]build[\\/](Release[\\/])?(obj|obj\.target|deps)$/.test(file),
  });
  await cp(bindings, path.join(modules, 'bindings'), { recursive: true, dereference: true });
  await cp(fileUri, path.join(modules, 'file-uri-to-path'), { recursive: true, dereference: true });
  const node = path.join(modules, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (addon === undefined) await rm(node);
  else await writeFile(node, addon);
  return path.join(root, 'dist', 'cli.js');
}

beforeAll(async () => {
  expect(existsSync(bin), `${bin} is built (npx -y pnpm@10 exec turbo run build --filter @mcp-reference/server-sqlite...)`).toBe(true);
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'sqlite-addon-')));
  db = await shopDb();
}, 60_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a missing or wrong-platform native addon', () => {
  it.each([
    ['built for another platform (not a loadable library)', Buffer.from('MZ\x90\x00 this is a Windows DLL, not an ELF or Mach-O file')],
    ['missing', undefined],
  ] as const)('%s: one line that says how to reinstall, not the loader text', async (name, addon) => {
    const cli = await install(name.split(' ')[0], addon);
    const connection = await connectStdio(process.execPath, [cli, '--db-path', db.file], { stderr: 'ignore' });
    try {
      const result = await connection.client.callTool({ name: 'read_query', arguments: { query: 'SELECT 1' } });
      expect(result.isError).toBe(true);
      const text = textOf(result as never);
      expect(text).toMatch(/native addon\) is missing or was built for another platform than this one \(\w+-\w+, Node [\d.]+\)/);
      expect(text).toMatch(/Reinstall the server on this machine/);
      expect(text).not.toMatch(/invalid ELF header|Could not locate the bindings file|\n/);
    } finally {
      await connection.close();
    }
  });
});
