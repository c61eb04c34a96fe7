import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb';
import { connectStdio } from './clients.js';
import { checkManifest, cliShape, readJson, recordFigures, repoRoot, resultText, serverPackages, smokeRun, USER_CONFIG_REF, type McpbManifest } from './packaging.js';

const exec = promisify(execFile);
const mcpbCli = path.join(path.dirname(createRequire(import.meta.url).resolve('@anthropic-ai/mcpb')), 'cli', 'cli.js');
const servers = serverPackages();

/**
 * Claude Desktop bundles: each server's manifest.json passes `mcpb validate` and matches its
 * package and bin; `pnpm bundle` writes a .mcpb per server; unpacked, the command Claude
 * Desktop would run (mcpb's own substitution of user_config) serves tools/list and a call.
 */
describe('MCPB bundles', () => {
  let out = '';
  const bundles = new Map<string, string>();

  beforeAll(async () => {
    out = await realpath(await mkdtemp(path.join(tmpdir(), 'mcpb-')));
    await exec(process.execPath, [path.join(repoRoot, 'scripts/mcpb.mjs'), '--out', out, ...servers.map((s) => s.folder)], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
    for (const file of readdirSync(out).filter((f) => f.endsWith('.mcpb'))) {
      const s = servers.find((x) => file.startsWith(`${x.pkg.name.replace('@mcp-reference/', '')}-${x.pkg.version}`));
      if (s) bundles.set(s.folder, path.join(out, file));
    }
  }, 180_000);

  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('pnpm bundle refuses an unknown server or option (exit 2) and an unbuilt server (exit 1), writing nothing', async () => {
    const script = path.join(repoRoot, 'scripts/mcpb.mjs');
    const target = await mkdtemp(path.join(out, 'refused-'));
    const unknown = await exec(process.execPath, [script, 'no-such-server', '--out', target]).catch((e) => e);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('no servers/no-such-server')]);
    const option = await exec(process.execPath, [script, '--zip', '--out', target]).catch((e) => e);
    expect([option.code, option.stderr]).toEqual([2, expect.stringContaining('unknown option --zip')]);
    const checkout = await mkdtemp(path.join(out, 'unbuilt-'));
    const [s] = servers;
    await cp(s.dir, path.join(checkout, 'servers', s.folder), { recursive: true, filter: (f) => !/[\\/](dist|node_modules)$/.test(f) });
    const unbuilt = await exec(process.execPath, [script, '--root', checkout, '--out', target]).catch((e) => e);
    expect([unbuilt.code, unbuilt.stderr]).toEqual([1, expect.stringContaining('is not built')]);
    expect(readdirSync(target)).toEqual([]);
  });

  it.each(servers.map((s) => [s.folder, s] as const))('%s: manifest.json passes mcpb validate and matches the package and its bin', async (_f, s) => {
    const file = path.join(s.dir, 'manifest.json');
    const validate = await exec(process.execPath, [mcpbCli, 'validate', file]).catch((e) => e);
    expect(validate.code ?? 0, `${validate.stdout}${validate.stderr}`).toBe(0);

    expect(checkManifest(readJson<McpbManifest>(file), s, await cliShape(s.binPath))).toEqual([]);
  });

  it.each(servers.map((s) => [s.folder, s] as const))('%s: pnpm bundle writes a .mcpb whose unpacked command serves tools/list and a call', async (folder, s) => {
    const bundle = bundles.get(folder);
    expect(bundle, `bundle for ${folder} in ${readdirSync(out).join(', ')}`).toBeDefined();
    const unpacked = path.join(out, `unpacked-${folder}`);
    await exec(process.execPath, [mcpbCli, 'unpack', bundle!, unpacked]);
    const manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8')) as McpbManifest;
    expect(existsSync(path.join(unpacked, manifest.server.entry_point))).toBe(true);
    const native = Object.keys(s.pkg.dependencies ?? {}).length > 0;
    // The bundle holds the bin, its README and manifest, and (only) its runtime dependencies.
    expect(readdirSync(unpacked).sort()).toEqual(['README.md', 'dist', 'manifest.json', ...(native ? ['node_modules'] : [])]);
    expect(readdirSync(path.join(unpacked, 'dist')).sort()).toEqual(['cli.js', 'server.cjs']);
    if (native) {
      expect(manifest.compatibility?.platforms).toEqual([process.platform]);
      expect(path.basename(bundle!)).toContain(`-${process.platform}-${process.arch}.mcpb`);
      for (const dep of Object.keys(s.pkg.dependencies ?? {})) expect(existsSync(path.join(unpacked, 'node_modules', dep, 'package.json')), dep).toBe(true);
    }

    // The user's answers, taken from the smoke fixture's command line.
    const dir = await mkdtemp(path.join(out, `fixture-${folder}-`));
    const smoke = await smokeRun(folder, dir);
    const userConfig: Record<string, string | string[]> = {};
    const args = manifest.server.mcp_config.args;
    let mapped = true;
    for (let i = 0; i < smoke.args.length; i++) {
      const arg = smoke.args[i];
      if (arg.startsWith('--')) {
        const at = args.indexOf(arg);
        const key = at === -1 ? undefined : USER_CONFIG_REF.exec(args[at + 1] ?? '')?.[1];
        if (key) userConfig[key] = smoke.args[++i];
        else mapped = false;
      } else {
        const key = args.map((a, j) => (j > 0 && !args[j - 1].startsWith('--') ? USER_CONFIG_REF.exec(a)?.[1] : undefined)).find(Boolean);
        if (!key) mapped = false;
        else userConfig[key] = manifest.user_config?.[key]?.multiple ? [...((userConfig[key] as string[]) ?? []), arg] : arg;
      }
    }
    const config = await getMcpConfigForManifest({
      manifest: manifest as never,
      extensionPath: unpacked,
      systemDirs: { HOME: tmpdir(), DESKTOP: tmpdir(), DOCUMENTS: tmpdir(), DOWNLOADS: tmpdir() },
      userConfig,
      pathSeparator: path.sep,
    });
    expect(config, 'the user config satisfies the manifest').toBeDefined();
    const started = performance.now();
    const connection = await connectStdio(config!.command === 'node' ? process.execPath : config!.command, config!.args ?? [], { cwd: dir });
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((t) => t.name)).toContain(smoke.tool);
      const result = await connection.client.callTool({ name: smoke.tool, arguments: smoke.arguments });
      // A fixture that needs a flag the bundle cannot set (fetch's --allow-host for a
      // loopback page) still gets an answer, a refusal.
      if (mapped) {
        expect(result.isError, resultText(result)).toBeFalsy();
        expect(JSON.stringify(result.content)).toContain(smoke.expect);
      } else {
        expect(resultText(result).length).toBeGreaterThan(0);
      }
      const { size } = await stat(bundle!);
      await recordFigures('mcpb', { [s.pkg.name]: { file: path.basename(bundle!), bytes: size, firstCallMs: Math.round(performance.now() - started) } });
    } finally {
      await connection.close();
      await smoke.close?.();
    }
  });
});
