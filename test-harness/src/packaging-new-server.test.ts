import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { LaunchChecker, codeBlocks, configEntries, readmeSnippets, shellCommands } from './packaging-docs.js';
import { checkServerJson } from './packaging-server-json.js';
import { checkManifest, cliShape, readJson, repoRoot, serverPackages, type McpbManifest, type ServerPackage } from './packaging.js';

const exec = promisify(execFile);
const mcpbCli = path.join(path.dirname(createRequire(import.meta.url).resolve('@anthropic-ai/mcpb')), 'cli', 'cli.js');

/**
 * A server made by `pnpm new:server NAME` passes every packaging check untouched: its
 * package fields, server.json, MCPB manifest and README snippets all name the new server.
 */
describe('pnpm new:server output passes the packaging checks', () => {
  let work = '';
  let server: ServerPackage;

  beforeAll(async () => {
    work = await realpath(await mkdtemp(path.join(tmpdir(), 'new-server-packaging-')));
    const dest = path.join(work, 'servers', 'probe-pack');
    await exec(process.execPath, [path.join(repoRoot, 'scripts/new-server.mjs'), 'probe-pack', '--dest', dest, '--no-install']);
    // What the workspace root and `pnpm install` would provide, enough to bundle it.
    await symlink(path.join(repoRoot, 'tsconfig.base.json'), path.join(work, 'tsconfig.base.json'));
    const modules = path.join(dest, 'node_modules');
    await mkdir(path.join(modules, '@mcp-reference'), { recursive: true });
    await symlink(path.join(repoRoot, 'shared'), path.join(modules, '@mcp-reference/shared'));
    await symlink(await realpath(path.join(repoRoot, 'servers/_template/node_modules/zod')), path.join(modules, 'zod'));
    await exec(process.execPath, [path.join(repoRoot, 'scripts/bundle.mjs'), 'server'], { cwd: dest });
    [server] = serverPackages(work, '');
  }, 120_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('has the package fields, a server.json and a manifest.json true to it', async () => {
    expect(server.pkg.name).toBe('@mcp-reference/server-probe-pack');
    expect(server.pkg.mcpName).toBe('io.github.mcp-reference/probe-pack');
    expect(server.pkg.repository?.directory).toBe('servers/probe-pack');
    const shape = await cliShape(server.binPath);
    expect(checkServerJson(readJson(path.join(server.dir, 'server.json')), server.pkg, server.folder, shape)).toEqual([]);
    const manifestFile = path.join(server.dir, 'manifest.json');
    expect(checkManifest(readJson<McpbManifest>(manifestFile), server, shape)).toEqual([]);
    const validate = await exec(process.execPath, [mcpbCli, 'validate', manifestFile]).catch((e) => e);
    expect(validate.code ?? 0, `${validate.stdout}${validate.stderr}`).toBe(0);
    const bundles = path.join(work, 'bundles');
    await exec(process.execPath, [path.join(repoRoot, 'scripts/mcpb.mjs'), '--root', work, '--out', bundles]);
    expect(existsSync(path.join(bundles, `server-probe-pack-${server.pkg.version}.mcpb`))).toBe(true);
  });

  it('has a README whose config entries and commands name the new server', async () => {
    const readme = path.join(server.dir, 'README.md');
    const checker = new LaunchChecker([server]);
    const problems: string[] = [];
    for (const block of codeBlocks(readme).filter((b) => b.lang === 'json')) {
      for (const { where, server: entry } of configEntries(block)) {
        if (entry?.command) problems.push(...(await checker.check(entry.command, entry.args ?? [])).map((p) => `${where}: ${p}`));
      }
    }
    for (const { where, words } of shellCommands(readme)) problems.push(...(await checker.checkShell(words)).map((p) => `${where}: ${p}`));
    expect(problems).toEqual([]);
    const entries = readmeSnippets(readme);
    expect(entries.find((e) => e.server?.command === 'npx')?.server?.args?.[1]).toBe('@mcp-reference/server-probe-pack');
    expect(entries.find((e) => e.server?.command === 'node')?.server?.args?.[0]).toMatch(/servers\/probe-pack\/dist\/cli\.js$/);
  });
});
