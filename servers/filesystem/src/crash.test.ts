import { describe, it, expect, afterEach } from 'vitest';
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

/**
 * A server killed in the middle of write_file must leave the old file whole: the data
 * goes to a temporary file that is renamed into place only when complete. The test kills
 * the process (SIGKILL, no chance to clean up) the moment that temporary file appears.
 */
describe('write_file when the server is killed mid-write', () => {
  let tree: TempTree;
  afterEach(() => tree?.cleanup());

  it('leaves the file whole', async () => {
    const original = 'the original content\n'.repeat(1000);
    const replacement = 'N'.repeat(8 * 1024 * 1024);
    tree = await makeTempTree({ 'data.txt': original });
    const child = spawn(process.execPath, [bin, tree.dir], { stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    const exited = new Promise((resolve) => child.once('exit', resolve));

    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    let sawTempFile = false;
    const watcher = watch(tree.dir, (_event, name) => {
      if (name && name !== 'data.txt' && !sawTempFile) {
        sawTempFile = true;
        child.kill('SIGKILL');
      }
    });
    try {
      // Large enough that writing and flushing it takes a while (stdio messages are capped at 10 MB).
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write_file', arguments: { path: tree.path('data.txt'), content: replacement } } });
      await exited;
    } finally {
      watcher.close();
    }

    expect(sawTempFile).toBe(true);
    // Killed while the temporary file existed: the old file, whole (or, had the rename won
    // the race with the kill, the new one, whole), never a mix or a truncated file.
    const content = await readFile(tree.path('data.txt'), 'utf8');
    expect(content === original || content === replacement, `data.txt has ${content.length} characters`).toBe(true);
    // What may remain is one dot-named temporary file, never a half-written data.txt.
    const leftovers = (await readdir(tree.dir)).filter((name) => name !== 'data.txt');
    for (const name of leftovers) expect(name).toMatch(/^\.data\.txt\..*\.tmp$/);
  }, 60_000);
});
