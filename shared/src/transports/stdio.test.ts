import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectStdio } from '../client/index.js';
import { ensureTemplateBin } from '../testing/template-bin.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('stdio transport (the template server bin)', () => {
  let bin: string;
  let dir: string;
  beforeAll(async () => {
    bin = await ensureTemplateBin();
    dir = await mkdtemp(path.join(tmpdir(), 'stdio-test-'));
    await writeFile(path.join(dir, 'groceries.md'), '# Groceries\n- apples\n- pears\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a client over stdio and exits by itself when the client closes stdin', async () => {
    const connection = await connectStdio(process.execPath, [bin, dir], { stderr: 'pipe' });
    const pid = connection.transport.pid!;
    let stderr = '';
    connection.transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
    try {
      expect(connection.client.getServerVersion()?.name).toBe('mcp-server-template');
      const { tools } = await connection.client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_notes');
      const found = await connection.client.callTool({ name: 'search_notes', arguments: { query: 'pears' } });
      expect(found.structuredContent).toMatchObject({ matches: [{ name: 'groceries', line: 3, text: '- pears' }] });
      const read = await connection.client.readResource({ uri: 'note:///groceries' });
      expect(read.contents[0]).toMatchObject({ text: expect.stringContaining('apples') });
    } finally {
      // The SDK ends stdin, waits up to 2 s for the exit, then sends SIGTERM.
      await connection.close();
    }
    expect(isAlive(pid)).toBe(false);
    // It saw the end of its input and stopped for that reason (not a clock: a loaded machine
    // may take longer than the SDK waits before its SIGTERM).
    expect(stderr).toMatch(/info: stopping: the client closed stdin/);
  });

  it('answers the last request, writes only JSON-RPC to stdout and exits 0 on end of input', async () => {
    const child = spawn(process.execPath, [bin, dir, '--log-level', 'debug'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'apples' } } });
    child.stdin.end();

    const timeout = setTimeout(() => child.kill('SIGKILL'), 5_000);
    const { code, signal } = await exited;
    clearTimeout(timeout);
    expect(signal).toBeNull();
    expect(code).toBe(0);

    const lines = stdout.split('\n').filter(Boolean);
    const messages = lines.map((line) => JSON.parse(line));
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    expect(messages.find((m) => m.id === 1)?.result.serverInfo.name).toBe('mcp-server-template');
    expect(messages.find((m) => m.id === 2)?.result.structuredContent.matches).toHaveLength(1);
    // The process log went to stderr.
    expect(stderr).toMatch(/serving on stdio/);
  });
});
