import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectStdio } from './clients.js';
import { startLocalRegistry, type LocalRegistry } from './packaging-registry.js';
import { readJson, recordFigures, repoRoot, resultText, serverPackages, smokeRun, type PackageJson } from './packaging.js';
import { readmeSnippets } from './packaging-docs.js';

const exec = promisify(execFile);

/**
 * The release, for real, in a temporary copy of the repository (the checkout's versions
 * are never touched): `changeset version`, build, `pnpm publish` to a throwaway verdaccio
 * on 127.0.0.1, then, in an empty directory with an empty npm cache, the README's
 * `npx -y @mcp-reference/server-<name>` completes initialize, tools/list and a tool call.
 * These are the release steps of CONTRIBUTING.md.
 */
const servers = serverPackages();
const INSTALL_TIMEOUT_MS = 8 * 60_000; // better-sqlite3 compiles from source when no prebuilt binary can be fetched

/** The environment of a child npm/pnpm: the parent's, without what a running pnpm exports. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_|pnpm_|PNPM_)/.test(key)) env[key] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

describe('release: changeset version, pnpm publish to a local registry, npx from it', () => {
  let work = '';
  let repo = '';
  let registry: LocalRegistry | undefined;
  const before = new Map<string, PackageJson>();

  beforeAll(async () => {
    work = await realpath(await mkdtemp(path.join(tmpdir(), 'publish-')));
    repo = path.join(work, 'repo');
    const skip = new Set(['node_modules', 'dist', '.git', '.turbo', 'test-results', '.cache', 'coverage', 'bundles']);
    // Server folders left out by MCP_PACKAGING_ONLY are left out of the copy too.
    const serversDir = path.join(repoRoot, 'servers');
    const keep = (src: string) =>
      (path.dirname(src) !== serversDir || servers.some((s) => s.dir === src)) && !src.includes(`${path.sep}bench${path.sep}results${path.sep}tmp`);
    await cp(repoRoot, repo, { recursive: true, filter: (src) => !skip.has(path.basename(src)) && keep(src) });
    // What `pnpm install` gives the copy: the checkout's installed modules.
    for (const rel of ['.', 'shared', 'test-harness', ...servers.map((s) => `servers/${s.folder}`)]) {
      const modules = path.join(repoRoot, rel, 'node_modules');
      if (existsSync(modules)) await symlink(modules, path.join(repo, rel, 'node_modules'));
    }
    for (const s of servers) before.set(s.folder, s.pkg);
    if (process.env.MCP_PACKAGING_ONLY) {
      // So are the changesets of the servers left out.
      const left = new Set(serverPackages().map((s) => s.pkg.name));
      for (const file of await readdir(path.join(repo, '.changeset'))) {
        const text = await readFile(path.join(repo, '.changeset', file), 'utf8');
        if ([...text.matchAll(/(@mcp-reference\/server-[\w-]+)['"]?\s*:/g)].some((m) => !left.has(m[1]))) await rm(path.join(repo, '.changeset', file));
      }
    }

    registry = await startLocalRegistry(await mkdtemp(path.join(work, 'registry-')));
    await writeFile(path.join(repo, '.npmrc'), registry.npmrc);
    const env = childEnv({ npm_config_registry: registry.url });

    // 1. Version: consume the changesets into versions and CHANGELOG.md files, and carry
    // the versions into server.json and manifest.json.
    await exec('npx', ['-y', 'pnpm@10', 'release:version'], { cwd: repo, env });
    // 2. Build: each server's bin, bundled with its new version.
    for (const s of servers) {
      await exec(process.execPath, [path.join(repo, 'scripts/bundle.mjs'), 'server'], { cwd: path.join(repo, 'servers', s.folder), env });
    }
    // 3. Publish every server package whose version is not on the registry yet.
    // (--no-git-checks: the copy is no git checkout.)
    await exec('npx', ['-y', 'pnpm@10', 'release:publish', '--no-git-checks'], {
      cwd: repo,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    await registry?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('versions each package that has a changeset, writes its CHANGELOG.md, and consumes the changesets', async () => {
    const left = (await readdir(path.join(repo, '.changeset'))).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(left).toEqual([]);
    const changesets = (await readdir(path.join(repoRoot, '.changeset'))).filter((f) => f.endsWith('.md') && f !== 'README.md');
    const named = new Set<string>();
    for (const file of changesets) {
      const text = await readFile(path.join(repoRoot, '.changeset', file), 'utf8');
      for (const m of (/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '').matchAll(/^['"]?([^'":]+)['"]?\s*:/gm)) named.add(m[1].trim());
    }
    for (const s of servers) {
      const after = readJson<PackageJson>(path.join(repo, 'servers', s.folder, 'package.json'));
      if (!named.has(s.pkg.name)) {
        expect(after.version, s.folder).toBe(before.get(s.folder)!.version);
        continue;
      }
      expect(after.version, s.folder).not.toBe(before.get(s.folder)!.version);
      const changelog = await readFile(path.join(repo, 'servers', s.folder, 'CHANGELOG.md'), 'utf8');
      expect(changelog, s.folder).toContain(`# ${s.pkg.name}\n\n## ${after.version}`);
      for (const file of ['server.json', 'manifest.json']) {
        expect(readJson<{ version: string }>(path.join(repo, 'servers', s.folder, file)).version, `${s.folder}/${file}`).toBe(after.version);
      }
    }
    // Independent versions: the checkout itself is untouched.
    expect(readJson<PackageJson>(path.join(repoRoot, 'servers', servers[0].folder, 'package.json')).version).toBe(servers[0].pkg.version);
  });

  it('publishes each server as its bin and bundled script, its README and package.json, with only native addons as dependencies', async () => {
    const sizes: Record<string, unknown> = {};
    for (const s of servers) {
      const version = readJson<PackageJson>(path.join(repo, 'servers', s.folder, 'package.json')).version;
      const doc = (await (await fetch(`${registry!.url}${s.pkg.name.replace('/', '%2f')}`)).json()) as {
        versions: Record<string, PackageJson & { dist: { tarball: string } }>;
      };
      const meta = doc.versions[version];
      expect(meta, `${s.pkg.name}@${version} on the registry`).toBeDefined();
      expect(Object.values(meta.dependencies ?? {}).some((v) => /^(catalog|workspace):/.test(v)), s.folder).toBe(false);
      expect(meta.bin).toEqual({ [s.binName]: 'dist/cli.js' });
      // What the MCP registry and npm's page read from the published package.json.
      expect({ mcpName: meta.mcpName, license: meta.license, repository: meta.repository, engines: meta.engines }).toEqual({
        mcpName: s.pkg.mcpName,
        license: s.pkg.license,
        repository: s.pkg.repository,
        engines: s.pkg.engines,
      });
      const tarball = Buffer.from(await (await fetch(meta.dist.tarball)).arrayBuffer());
      const file = path.join(work, `${s.folder}.tgz`);
      await writeFile(file, tarball);
      const entries = (await exec('tar', ['-tzf', file])).stdout.trim().split('\n').sort();
      expect(entries, s.folder).toContain('package/dist/cli.js');
      expect(entries, s.folder).toContain('package/dist/server.cjs');
      expect(entries, s.folder).toContain('package/README.md');
      const bin = (await exec('tar', ['-xzOf', file, 'package/dist/cli.js'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
      expect(bin.startsWith('#!/usr/bin/env node\n'), `${s.folder}: dist/cli.js has a shebang`).toBe(true);
      // Nothing else: no sources, tests, fixtures or stray dotfiles (.npmrc, .env) ship.
      expect(entries.filter((e) => !/^package\/(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/(cli\.js|server\.cjs))$/.test(e)), s.folder).toEqual([]);
      sizes[s.pkg.name] = { version, tarballBytes: tarball.length, binBytes: Buffer.byteLength(bin), files: entries.length };
    }
    await recordFigures('publish-tarballs', sizes);
  });

  it.each(servers.map((s) => [s.folder, s] as const))(
    '%s: the README npx command, in an empty directory with an empty npm cache, installs and serves',
    async (folder, s) => {
      const snippet = readmeSnippets(path.join(s.dir, 'README.md')).find((x) => x.server?.command === 'npx');
      expect(snippet, `${folder}/README.md has an npx config entry`).toBeDefined();
      const args = snippet!.server!.args ?? [];
      const at = args.indexOf(s.pkg.name);
      expect(args.slice(0, at), `${folder}: npx flags before the package`).toEqual(['-y']);

      const dir = await mkdtemp(path.join(work, `npx-${folder}-`));
      const smoke = await smokeRun(folder, path.join(dir, 'fixture'));
      const empty = path.join(dir, 'empty');
      await mkdir(empty);
      // Under `pnpm test` the environment carries pnpm's npm_config_*: point the ones that
      // matter at the empty directory, its fresh cache and the local registry.
      const env = {
        npm_config_registry: registry!.url,
        npm_config_cache: path.join(dir, 'npm-cache'),
        npm_config_local_prefix: empty,
        npm_config_update_notifier: 'false',
      };
      const started = performance.now();
      const connection = await connectStdio('npx', [...args.slice(0, at + 1), ...smoke.args], {
        cwd: empty,
        env,
        stderr: 'ignore',
        connectTimeoutMs: INSTALL_TIMEOUT_MS,
      });
      try {
        const initialized = performance.now();
        const version = readJson<PackageJson>(path.join(repo, 'servers', folder, 'package.json')).version;
        expect(connection.client.getServerVersion()?.version).toBe(version);
        const { tools } = await connection.client.listTools();
        expect(tools.map((t) => t.name)).toContain(smoke.tool);
        const result = await connection.client.callTool({ name: smoke.tool, arguments: smoke.arguments });
        expect(result.isError, resultText(result)).toBeFalsy();
        expect(JSON.stringify([result.content, result.structuredContent])).toContain(smoke.expect);
        const done = performance.now();
        await recordFigures('publish-npx', {
          [s.pkg.name]: { version, firstRunMs: Math.round(done - started), initializeMs: Math.round(initialized - started) },
        });
      } finally {
        await connection.close();
        await smoke.close?.();
      }
    },
    INSTALL_TIMEOUT_MS + 60_000,
  );
});
