// What the packaging tests (publish, MCPB, server.json, docs snippets, inspector) share:
// the published shape of each server folder, its flags as its built bin reports them, and
// one smoke call per server. Everything iterates over the folders under servers/, so a
// server that lands later is covered and a removed one is simply not there.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startHttpFixture } from './fixtures/http-server.js';
import { launchArgs } from './launch-args.js';
import { serverDirs } from './template-files.js';

const exec = promisify(execFile);

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The GitHub owner of the repository: registry names are io.github.<owner>/<server>. */
export const REGISTRY_OWNER = 'mcp-reference';
export const REPOSITORY_URL = 'https://github.com/mcp-reference/servers';

export interface PackageJson {
  name: string;
  version: string;
  description: string;
  license?: string;
  mcpName?: string;
  keywords?: string[];
  files?: string[];
  engines?: Record<string, string>;
  repository?: { type: string; url: string; directory?: string };
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  private?: boolean;
}

export interface ServerPackage {
  /** Folder name under servers/ (`_template`, `filesystem`, ...). */
  folder: string;
  dir: string;
  pkg: PackageJson;
  /** `filesystem` for `@mcp-reference/server-filesystem`. */
  short: string;
  binName: string;
  /** dist/cli.js of the built server. */
  binPath: string;
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/**
 * Every server folder under servers/ that has a package.json, sorted. MCP_PACKAGING_ONLY
 * (folder names, comma-separated) narrows the packaging tests while one server is worked on.
 */
export function serverPackages(root = repoRoot, filter = process.env.MCP_PACKAGING_ONLY): ServerPackage[] {
  const only = filter ? filter.split(',').filter(Boolean) : undefined;
  return serverDirs(root)
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .filter((dir) => !only || only.includes(basename(dir)))
    .sort()
    .map((dir) => {
      const pkg = readJson<PackageJson>(join(dir, 'package.json'));
      const [binName, binFile] = Object.entries(pkg.bin ?? {})[0] ?? ['', 'dist/cli.js'];
      return {
        folder: basename(dir),
        dir,
        pkg,
        short: pkg.name.replace(/^@mcp-reference\/server-/, ''),
        binName,
        binPath: join(dir, binFile),
      };
    });
}

/** The server whose package is `name`, or undefined. */
export function serverByPackage(name: string, root = repoRoot): ServerPackage | undefined {
  return serverPackages(root).find((s) => s.pkg.name === name);
}

export interface CliShape {
  /** Every flag the bin accepts, e.g. `--read-only`, with whether it takes a value. */
  flags: Map<string, { takesValue: boolean; repeatable: boolean; description: string }>;
  /** The positional argument's name in the usage line (`DIR...`), if any. */
  positional?: string;
}

/** The flags of a built bin, read from its `--help` output. */
export async function cliShape(binPath: string): Promise<CliShape> {
  const { stdout } = await exec(process.execPath, [binPath, '--help']);
  const flags: CliShape['flags'] = new Map();
  for (const line of stdout.split('\n')) {
    const match = /^ {2}(--[a-z0-9-]+)( N| VALUE \(repeatable\)| VALUE)?\s+(.*)$/.exec(line);
    if (match) flags.set(match[1], { takesValue: Boolean(match[2]), repeatable: Boolean(match[2]?.includes('repeatable')), description: match[3] });
  }
  const usage = /^Usage: \S+ \[options\](?: \[([^\]]+)\])?/m.exec(stdout);
  return { flags, positional: usage?.[1] };
}

/**
 * Checks an argument list against a bin's flags: every `--flag` exists, a flag that takes
 * a value has one, and positionals appear only when the bin takes them. Returns the
 * problems found (empty when the arguments are valid).
 */
export function checkArgs(args: readonly string[], shape: CliShape): string[] {
  const problems: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      const flag = arg.split('=')[0];
      const known = shape.flags.get(flag);
      if (!known) problems.push(`unknown flag ${flag}`);
      else if (known.takesValue && !arg.includes('=')) {
        if (i + 1 >= args.length || args[i + 1].startsWith('--')) problems.push(`${flag} needs a value`);
        i++;
      } else if (!known.takesValue && arg.includes('=')) problems.push(`${flag} takes no value`);
    } else if (!shape.positional) {
      problems.push(`unexpected positional argument ${arg}`);
    }
  }
  return problems;
}

export interface SmokeRun {
  /** Arguments after the bin (or after the package name for npx). */
  args: string[];
  tool: string;
  arguments: Record<string, unknown>;
  /** Text the tool's result must contain. */
  expect: string;
  close?: () => Promise<void>;
}

/**
 * One read-only tool call per server, with the arguments to start it on a fixture in
 * `dir`. A folder without an entry uses the template's (a `pnpm new:server` copy starts as
 * the template); a server that changes the template's tools adds its entry here.
 */
export const SMOKE: Record<string, (dir: string) => Promise<SmokeRun>> = {
  _template: async (dir) => ({
    args: await launchArgs('_template', dir),
    tool: 'search_notes',
    arguments: { query: 'first note' },
    expect: 'welcome',
  }),
  filesystem: async (dir) => ({
    args: await launchArgs('filesystem', dir),
    tool: 'list_allowed_directories',
    arguments: {},
    expect: basename(dir),
  }),
  git: async (dir) => ({
    args: await launchArgs('git', dir),
    tool: 'git_log',
    arguments: { repo_path: dir },
    expect: 'first',
  }),
  sqlite: async (dir) => ({
    args: await launchArgs('sqlite', dir),
    tool: 'read_query',
    arguments: { query: 'SELECT name FROM users ORDER BY id' },
    expect: 'grace',
  }),
  fetch: async () => {
    const site = await startHttpFixture({
      '/': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Smoke</title></head><body><h1>Smoke page</h1><p>It works.</p></body></html>');
      },
    });
    return {
      args: ['--allow-host', `127.0.0.1:${site.port}`],
      tool: 'fetch',
      arguments: { url: `${site.origin}/` },
      expect: 'Smoke page',
      close: () => site.close(),
    };
  },
};

export async function smokeRun(folder: string, dir: string): Promise<SmokeRun> {
  await mkdir(dir, { recursive: true });
  const make = SMOKE[folder] ?? SMOKE._template;
  return make(dir);
}

/** The text of a tool result's content, joined (for `expect` checks and messages). */
export function resultText(result: Record<string, unknown>): string {
  const content = (result.content ?? []) as { type: string; text?: string; uri?: string }[];
  return content.map((c) => c.text ?? c.uri ?? '').join('\n');
}

/** Writes measured figures to test-results/packaging-<section>.json (quoted in reports). */
export async function recordFigures(section: string, figures: Record<string, unknown>): Promise<void> {
  const file = join(repoRoot, 'test-results', `packaging-${section}.json`);
  await mkdir(dirname(file), { recursive: true });
  const all = existsSync(file) ? readJson<Record<string, unknown>>(file) : {};
  await writeFile(file, `${JSON.stringify({ ...all, ...figures }, null, 2)}\n`);
}

export interface McpbManifest {
  manifest_version: string;
  name: string;
  version: string;
  license?: string;
  server: { type: string; entry_point: string; mcp_config: { command: string; args: string[] } };
  compatibility?: { platforms?: string[]; runtimes?: { node?: string } };
  user_config?: Record<string, { type: string; required?: boolean; multiple?: boolean; default?: unknown }>;
}

export const USER_CONFIG_REF = /^\$\{user_config\.([^}]+)\}$/;

/**
 * Problems of a server's MCPB manifest.json against its package and bin: names, version,
 * entry point, every ${user_config.X} defined and every field used, and the arguments, with
 * values filled in, flags the bin accepts. (The schema itself is `mcpb validate`'s job.)
 */
export function checkManifest(manifest: McpbManifest, s: ServerPackage, shape: CliShape): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, message: string) => void (ok || problems.push(message));
  const binFile = relative(s.dir, s.binPath).split('\\').join('/');
  expect(manifest.manifest_version === '0.3', `manifest_version ${manifest.manifest_version}, expected 0.3`);
  expect(manifest.name === s.binName, `name ${manifest.name}, expected the bin name ${s.binName}`);
  expect(manifest.version === s.pkg.version, `version ${manifest.version}, package.json has ${s.pkg.version}`);
  expect(manifest.license === s.pkg.license, `license ${manifest.license}, package.json has ${s.pkg.license}`);
  expect(manifest.server?.type === 'node' && manifest.server.entry_point === binFile, `server should be {type: node, entry_point: ${binFile}}`);
  const [entry, ...args] = manifest.server?.mcp_config?.args ?? [];
  expect(manifest.server?.mcp_config?.command === 'node', 'mcp_config.command should be node');
  expect(entry === `\${__dirname}/${binFile}`, `mcp_config.args[0] should be \${__dirname}/${binFile}`);
  const defined = Object.keys(manifest.user_config ?? {}).sort();
  const used = args.map((a) => USER_CONFIG_REF.exec(a)?.[1]).filter((k): k is string => Boolean(k)).sort();
  expect(JSON.stringify(defined) === JSON.stringify(used), `user_config fields ${defined.join(',')} but args use ${used.join(',')}`);
  problems.push(...checkArgs(args.map((a) => (USER_CONFIG_REF.test(a) ? '/some/value' : a)), shape).map((p) => `mcp_config.args: ${p}`));
  // Every server runs where Claude Desktop does. A native dependency makes each bundle
  // per platform: scripts/mcpb.mjs narrows `platforms` to the one it builds on.
  const platforms = [...(manifest.compatibility?.platforms ?? [])].sort().join(',');
  expect(platforms === 'darwin,linux,win32', `compatibility.platforms should be darwin, win32 and linux, is ${platforms}`);
  return problems;
}
