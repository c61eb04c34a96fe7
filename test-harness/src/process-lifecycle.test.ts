import { describe, it, expect, afterAll, beforeAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverDirs } from './template-files.js';
import { connectStdio, spawnHttpServer } from './clients.js';
import { makeTempTree, type TempTree } from './fixtures/temp-tree.js';
import { launchArgs } from './launch-args.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function exitOf(child: ChildProcess, timeoutMs = 5_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** Resolves once everything the child wrote to stderr has been read. */
async function endOf(child: ChildProcess): Promise<void> {
  const stderr = child.stderr!;
  if (!stderr.readableEnded) await new Promise((resolve) => stderr.once('end', resolve));
}

/** Every built server ends cleanly, whichever way it is asked to (ARCHITECTURE.md section 2). */
describe.each(serverDirs(repoRoot).map((dir) => [path.basename(dir), path.join(dir, 'dist/cli.js')]))('%s process', (name, bin) => {
  let dir: TempTree;
  let args: string[];
  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
    dir = await makeTempTree({});
    args = await launchArgs(name, dir.dir);
  });
  afterAll(() => dir?.cleanup());

  it('exits 0 on SIGTERM while serving HTTP, and stops listening', async () => {
    const server = await spawnHttpServer(bin, args);
    const exited = exitOf(server.child);
    server.child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    await expect(fetch(server.url, { method: 'POST', body: '{}' })).rejects.toThrow();
    // And says why it stopped (what someone reading a client's log of a server that went away looks for).
    await endOf(server.child);
    expect(server.stderr()).toMatch(/info: stopping on SIGTERM/);
  });

  it('exits 0 on SIGINT in stdio mode', async () => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise((resolve) => child.stderr!.once('data', resolve)); // the "serving on stdio" line
    const exited = exitOf(child);
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    await endOf(child);
    expect(stderr).toMatch(/info: stopping on SIGINT/);
  });

  it('answers initialize without loading the modules only later calls need (crypto, HTTP, TLS, child processes)', async () => {
    const preload = path.join(repoRoot, 'test-harness/src/fixtures/first-answer-modules.cjs');
    const child = spawn(process.execPath, ['--require', preload, bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let stderr = '';
      const report = new Promise<string[]>((resolve, reject) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const line = /FIRST-ANSWER-MODULES (.*)\n/.exec(stderr);
          if (line) resolve(JSON.parse(line[1]!) as string[]);
        });
        child.once('exit', () => reject(new Error(`exited before answering: ${stderr}`)));
      });
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } })}\n`);
      const loaded = await report;
      // The preload itself sees what every Node process loads; a server's own start must not
      // add these (each costs milliseconds of every cold start: see shared/src/compile-cache.ts).
      expect(loaded).toContain('fs');
      const later = ['crypto', 'http', 'https', 'tls', 'dns', 'dns/promises', 'child_process'];
      expect(loaded.filter((m) => later.includes(m))).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('keeps V8 from optimizing while it loads and answers the lists, and lets it at the first call (shared/src/lean-start.ts)', async () => {
    // V8's --trace-opt writes a line to stdout for each function it optimizes. Without the
    // lean start, loading the SDK and zod alone has TurboFan compile 3-4 schema functions.
    const session = (calls: number) =>
      new Promise<{ code: number | null; answers: number; optimized: number }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--trace-opt', bin, ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        child.once('error', reject);
        child.once('exit', (code) => resolve({ code, answers: out.match(/"jsonrpc"/g)?.length ?? 0, optimized: out.match(/\[compiling method/g)?.length ?? 0 }));
        const send = (message: object) => child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
        send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
        send({ method: 'notifications/initialized' });
        send({ id: 1, method: 'tools/list' });
        send({ id: 2, method: 'prompts/list' });
        for (let i = 0; i < calls; i++) send({ id: 3 + i, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
        // At the end of stdin the server answers what it was sent and exits, writing out V8's trace.
        child.stdin!.end();
      });
    const idle = await session(0);
    expect(idle).toEqual({ code: 0, answers: 3, optimized: 0 });
    const working = await session(300);
    expect(working.code).toBe(0);
    expect(working.answers).toBe(303);
    expect(working.optimized).toBeGreaterThan(0);
  });

  it('writes a private code cache on its first launch and answers the same from it, or from a damaged one', async () => {
    const cacheDir = path.join(dir.dir, '.compile-cache');
    const env = { MCP_COMPILE_CACHE: cacheDir };
    const listTools = async () => {
      const connection = await connectStdio(process.execPath, [bin, ...args], { env, stderr: 'ignore' });
      try {
        return (await connection.client.listTools()).tools.map((t) => t.name);
      } finally {
        await connection.close();
      }
    };
    const first = await listTools();
    expect(first.length).toBeGreaterThan(0);
    // Written once the server has started (or at exit, whichever comes first).
    const [file] = readdirSync(cacheDir).filter((f) => f.endsWith('.cache'));
    expect(file, 'a cache file').toBeDefined();
    if (process.platform !== 'win32') expect(statSync(path.join(cacheDir, file)).mode & 0o777).toBe(0o600);
    expect(await listTools()).toEqual(first);
    const data = readFileSync(path.join(cacheDir, file));
    data[data.length >> 1] ^= 0xff;
    writeFileSync(path.join(cacheDir, file), data);
    expect(await listTools()).toEqual(first);
  });

  it('exits 0 when the client closes stdin', async () => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise((resolve) => child.stderr!.once('data', resolve));
    const exited = exitOf(child);
    child.stdin!.end();
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});
