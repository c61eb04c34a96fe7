// A throwaway npm registry for the publish test: verdaccio on 127.0.0.1, storage in a
// temporary directory. @mcp-reference/* packages live only here; every other package is
// proxied from the npm registry (a server's runtime dependencies, e.g. better-sqlite3).
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** A token that may publish @mcp-reference/*. */
  token: string;
  /** The .npmrc lines that point npm/pnpm at this registry with the token. */
  npmrc: string;
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The registry the machine's npm uses (verdaccio's uplink for everything not ours). */
export function upstreamRegistry(): string {
  return process.env.MCP_TEST_UPSTREAM_REGISTRY ?? 'https://registry.npmjs.org/';
}

export async function startLocalRegistry(dir: string, timeoutMs = 30_000): Promise<LocalRegistry> {
  const port = await freePort();
  const config = [
    `storage: ${JSON.stringify(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
    '    max_users: 10',
    'uplinks:',
    '  npmjs:',
    `    url: ${JSON.stringify(upstreamRegistry())}`,
    '    timeout: 120s',
    'packages:',
    "  '@mcp-reference/*':",
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    proxy: npmjs',
    'web:',
    '  enable: false',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
  const configFile = join(dir, 'verdaccio.yaml');
  await writeFile(configFile, config);
  const bin = join(dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const child: ChildProcess = spawn(process.execPath, [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VERDACCIO_APPDIR: dir },
  });
  let log = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const url = `http://127.0.0.1:${port}/`;
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}`);
      const ok = await fetch(`${url}-/ping`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`verdaccio did not answer within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // npm adduser, as an HTTP call: the answer carries a token that may publish.
    const response = await fetch(`${url}-/user/org.couchdb.user:release`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'release', password: 'release-password-0', email: 'release@example.invalid' }),
    });
    if (!response.ok) throw new Error(`verdaccio refused to add a user: ${response.status} ${await response.text()}`);
    const { token } = (await response.json()) as { token: string };
    const npmrc = `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`;
    return { url, token, npmrc, log: () => log, close };
  } catch (error) {
    await close();
    throw new Error(`${(error as Error).message}\n--- verdaccio log ---\n${log}`);
  }
}
