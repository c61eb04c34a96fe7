// Cross-check with the MCP Inspector's CLI (Node 22, fetched from the npm registry when
// this Node is older): `--app-info` reads each tool's App metadata the way a host does.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureNode22 } from '../conformance/conformance.js';
import { makeSqliteDb, type SqliteFixture } from '../src/fixtures/sqlite-db.js';
import { repoRoot } from '../src/packaging.js';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const bin = path.join(repoRoot, 'servers/sqlite/dist/cli.js');

describe('MCP Inspector CLI --app-info', () => {
  let work = '';
  let env: Record<string, string> = {};
  let db: SqliteFixture;

  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
    work = await mkdtemp(path.join(tmpdir(), 'inspector-apps-'));
    db = await makeSqliteDb('CREATE TABLE t (id INTEGER PRIMARY KEY);');
    const node22 = await ensureNode22(repoRoot);
    env = {
      ...(process.env as Record<string, string>),
      PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}`,
      npm_config_cache: path.join(repoRoot, 'node_modules', '.cache', 'inspector-npm'),
      npm_config_update_notifier: 'false',
    };
  }, 180_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
    await db?.cleanup();
  });

  const inspect = (options: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'npx',
        ['-y', INSPECTOR, '--cli', ...options, '--', process.execPath, bin, '--db-path', db.file],
        { env, cwd: work, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('tools/list with --app-info: read_query names ui://sqlite/results (exit 0 with an App, 2 without)', async () => {
    const withApp = await inspect(['--advertise-apps', '--method', 'tools/call', '--tool-name', 'read_query', '--app-info']);
    console.log(`inspector --app-info read_query: exit ${withApp.code}: ${withApp.stdout.trim()} ${withApp.stderr.trim().slice(0, 300)}`);
    expect(withApp.code).toBe(0);
    expect(withApp.stdout).toContain('ui://sqlite/results');
    const withoutApp = await inspect(['--advertise-apps', '--method', 'tools/call', '--tool-name', 'list_tables', '--app-info']);
    console.log(`inspector --app-info list_tables: exit ${withoutApp.code}: ${withoutApp.stdout.trim()}`);
    expect(withoutApp.code).toBe(2);
    // Without the extension at initialize the server lists no App: the client gets what it got before.
    const notAdvertised = await inspect(['--method', 'tools/call', '--tool-name', 'read_query', '--app-info']);
    expect(notAdvertised.code).toBe(2);
    const listed = await inspect(['--advertise-apps', '--method', 'tools/list', '--app-info']);
    console.log(`inspector --app-info tools/list: exit ${listed.code}`);
    const lines = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const readQuery = lines.find((line) => JSON.stringify(line).includes('"read_query"'));
    expect(JSON.stringify(readQuery)).toContain('ui://sqlite/results');
  }, 300_000);
});
