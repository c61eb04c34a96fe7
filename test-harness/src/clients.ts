import { spawn, type ChildProcess } from 'node:child_process';
import { connectHttp, type ClientOptions, type Connection } from '@mcp-reference/shared/client';

export { connectInMemory, connectStdio, connectHttp, type Connection, type ClientOptions } from '@mcp-reference/shared/client';

export interface SpawnedHttpServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** What the server wrote to stderr so far (for failure messages). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts a built server bin with `--http --port 0` and waits for the line in which it
 * names its URL. Fails with the server's stderr if it exits first.
 */
export async function spawnHttpServer(bin: string, args: string[] = [], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<SpawnedHttpServer> {
  const child = spawn(process.execPath, [bin, '--http', '--port', '0', ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`server did not start within ${options.timeoutMs ?? 15_000} ms`)), options.timeoutMs ?? 15_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n--- stderr ---\n${stderr}`));
    };
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /(http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => fail(new Error(`server exited with code ${code} before listening`)));
    child.once('error', fail);
  });
  child.removeAllListeners('exit');
  return {
    url,
    port: Number(new URL(url).port),
    child,
    stderr: () => stderr,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Spawns a bin over HTTP and connects a client to it; closing closes both. */
export async function connectSpawnedHttp(bin: string, args: string[], options: ClientOptions = {}): Promise<Connection & { server: SpawnedHttpServer }> {
  const server = await spawnHttpServer(bin, args);
  try {
    const connection = await connectHttp(server.url, options);
    const close = connection.close;
    return Object.assign(connection, {
      server,
      async close() {
        await close().catch(() => undefined);
        await server.close();
      },
    });
  } catch (error) {
    await server.close();
    throw error;
  }
}
