import { describe, it, expect, beforeAll } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ensureFixtureBin } from '../testing/fixture-bin.js';

type Message = { jsonrpc?: string; id?: unknown; result?: any; error?: { code: number; message: string } };

/** A raw stdio peer: writes lines, collects every line the server writes. */
function spawnRaw(bin: string, args: string[] = []) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams;
  // A server that went away shows up as a failed assertion, not as an EPIPE in the runner.
  child.stdin.on('error', () => undefined);
  const messages: Message[] = [];
  let pending: Buffer[] = [];
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    let rest = chunk;
    let newline: number;
    while ((newline = rest.indexOf(0x0a)) !== -1) {
      const line = Buffer.concat([...pending, rest.subarray(0, newline)]);
      pending = [];
      rest = rest.subarray(newline + 1);
      messages.push(JSON.parse(line.toString('utf8')));
    }
    if (rest.length) pending.push(rest);
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const send = (line: string) => child.stdin.write(`${line}\n`);
  const sendJson = (message: unknown) => send(JSON.stringify(message));
  function waitFor(match: (m: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = messages.find(match);
        if (!hit) return;
        done();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 500)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }
  async function initialize() {
    sendJson({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    await waitFor((m) => m.id === 'init');
    sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  return { child, messages, send, sendJson, waitFor, initialize, exited, stderr: () => stderr };
}

describe('stdio transport under a careless or hostile client', () => {
  let bin: string;
  beforeAll(async () => {
    bin = await ensureFixtureBin();
  });

  it('answers a line that is not JSON with -32700 and id null, and keeps serving', async () => {
    const peer = spawnRaw(bin);
    try {
      await peer.initialize();
      peer.send('{"jsonrpc": "2.0", "id": 5, "method": ');
      const parseError = await peer.waitFor((m) => m.error?.code === -32700);
      expect(parseError).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      peer.sendJson({ jsonrpc: '2.0', id: 6, method: 'ping' });
      expect(await peer.waitFor((m) => m.id === 6)).toMatchObject({ result: {} });
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  it('answers JSON that is not a JSON-RPC message with -32600', async () => {
    const peer = spawnRaw(bin);
    try {
      await peer.initialize();
      peer.sendJson({ jsonrpc: '2.0', id: 7 });
      peer.sendJson([1, 2, 3]);
      peer.sendJson('just a string');
      const invalid = await peer.waitFor((m) => m.error?.code === -32600 && m.id === 7);
      expect(invalid.jsonrpc).toBe('2.0');
      await peer.waitFor((m) => m.error?.code === -32600 && m.id === null);
      peer.sendJson({ jsonrpc: '2.0', id: 8, method: 'ping' });
      expect(await peer.waitFor((m) => m.id === 8)).toMatchObject({ result: {} });
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  it('answers an initialize with invalid params with -32602 and one line', async () => {
    const peer = spawnRaw(bin);
    try {
      peer.sendJson({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 42, clientInfo: 'me' } });
      const answer = await peer.waitFor((m) => m.id === 1);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).not.toContain('\n');
      expect(answer.error?.message).toMatch(/initialize/);
      await peer.initialize();
      peer.sendJson({ jsonrpc: '2.0', id: 2, method: 'ping' });
      expect(await peer.waitFor((m) => m.id === 2)).toMatchObject({ result: {} });
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  it('pins 2026-07-28 from the opening request, refuses a forged requestState with -32602, and keeps serving', async () => {
    const peer = spawnRaw(bin);
    try {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
      peer.sendJson({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
      expect(await peer.waitFor((m) => m.id === 1)).toMatchObject({ result: { supportedVersions: ['2026-07-28'] } });
      peer.sendJson({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, requestState: 'v1.e30.forged', _meta: meta } });
      expect((await peer.waitFor((m) => m.id === 2)).error?.code).toBe(-32602);
      peer.sendJson({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: meta } });
      expect(await peer.waitFor((m) => m.id === 3)).toMatchObject({ result: { structuredContent: { text: 'x' } } });
      // The 2025 handshake is refused once the connection is 2026-07-28.
      peer.sendJson({ jsonrpc: '2.0', id: 4, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      expect((await peer.waitFor((m) => m.id === 4)).error).toBeDefined();
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  it('refuses a line over the size limit with -32600 and keeps serving', async () => {
    const peer = spawnRaw(bin);
    try {
      await peer.initialize();
      const huge = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'echo', arguments: { text: 'y'.repeat(17 * 1024 * 1024) } } });
      peer.send(huge);
      const refused = await peer.waitFor((m) => m.error?.code === -32600);
      expect(refused.error?.message).toMatch(/bytes/);
      peer.sendJson({ jsonrpc: '2.0', id: 9, method: 'ping' });
      expect(await peer.waitFor((m) => m.id === 9)).toMatchObject({ result: {} });
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  /** Closes the server's stdin and waits for it to exit: its exit code, or null if it had to be killed (after 20 s). */
  async function endOfInput(peer: ReturnType<typeof spawnRaw>): Promise<number | null> {
    peer.child.stdin.end();
    const timer = setTimeout(() => peer.child.kill('SIGKILL'), 20_000);
    const { code } = await peer.exited;
    clearTimeout(timer);
    return code;
  }

  // Clockless: the process ends by itself (code 0, not the test's SIGKILL), and says why it
  // stopped. The 3 s bound is the exit timer's, which the next test makes fire.
  it('exits by itself when stdin closes while a call that never ends is running, and says why', async () => {
    const peer = spawnRaw(bin);
    try {
      await peer.initialize();
      peer.sendJson({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'hang', arguments: {} } });
      peer.sendJson({ jsonrpc: '2.0', id: 4, method: 'ping' });
      await peer.waitFor((m) => m.id === 4);
      expect(await endOfInput(peer)).toBe(0);
      expect(peer.stderr()).toMatch(/info: stopping: the client closed stdin/);
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  it('exits 2.5 s after stdin closes even when a tool left a timer running, and names what was still open', async () => {
    const peer = spawnRaw(bin);
    try {
      await peer.initialize();
      peer.sendJson({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'linger', arguments: {} } });
      await peer.waitFor((m) => m.id === 3);
      // Without the exit timer the process would never end: the interval keeps it alive.
      expect(await endOfInput(peer)).toBe(0);
      expect(peer.stderr()).toMatch(/warning: exiting 2500 ms after the end of input with work still open: .*Timeout/);
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  it('keeps serving, and exits 0 at the end of input, after the client closes its end of stderr', async () => {
    // Every tool call logs a line at debug: after stderr's reader is gone each write fails
    // with EPIPE, which ended the process (exit code 1) when nothing listened for it.
    const peer = spawnRaw(bin, ['--log-level', 'debug']);
    try {
      await peer.initialize();
      peer.child.stderr.destroy();
      for (let id = 10; id < 15; id++) {
        peer.sendJson({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `after ${id}` } } });
        const answer = await peer.waitFor((m) => m.id === id);
        expect(answer.result, JSON.stringify(answer)).toMatchObject({ structuredContent: { text: `after ${id}` } });
      }
      expect(await endOfInput(peer)).toBe(0);
    } finally {
      peer.child.kill('SIGKILL');
    }
  });

  it('writes 60 concurrent 9 MB answers through a slow reader without a warning or a crash', async () => {
    const peer = spawnRaw(bin, ['--max-result-bytes', String(32 * 1024 * 1024)]);
    try {
      await peer.initialize();
      peer.child.stdout.pause();
      for (let i = 0; i < 60; i++) {
        peer.sendJson({ jsonrpc: '2.0', id: `b${i}`, method: 'tools/call', params: { name: 'blob', arguments: { bytes: 9 * 1024 * 1024 } } });
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      peer.child.stdout.resume();
      for (let i = 0; i < 60; i++) {
        const answer = await peer.waitFor((m) => m.id === `b${i}`, 60_000);
        expect(answer.result?.structuredContent?.data).toHaveLength(9 * 1024 * 1024);
      }
      // Answers are dropped as they are checked, so the test itself stays small.
      peer.messages.length = 0;
      expect(peer.stderr()).not.toMatch(/MaxListenersExceededWarning|ENOBUFS/);
      expect(peer.child.exitCode).toBeNull();
    } finally {
      peer.child.kill('SIGKILL');
    }
  }, 120_000);
});
