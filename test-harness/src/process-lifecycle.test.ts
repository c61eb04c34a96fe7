import { describe, it, expect, afterAll, beforeAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverDirs } from './template-files.js';
import { spawnHttpServer } from './clients.js';
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
  });

  it('exits 0 on SIGINT in stdio mode', async () => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise((resolve) => child.stderr!.once('data', resolve)); // the "serving on stdio" line
    const exited = exitOf(child);
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('exits 0 when the client closes stdin', async () => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise((resolve) => child.stderr!.once('data', resolve));
    const exited = exitOf(child);
    child.stdin!.end();
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});
