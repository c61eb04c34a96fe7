import { existsSync } from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { McpServer, Root } from '@mcp-reference/shared';
import { serveHttp } from '@mcp-reference/shared/http';
import { silentLogger } from '@mcp-reference/shared';
import { connectHttp, connectInMemory, connectStdio, spawnHttpServer, type Connection } from './clients.js';
import {
  cpuLoad,
  POST_HEADERS,
  postInitialize,
  postStatus,
  httpMessages,
  inBatches,
  malformedResponse,
  rssBytes,
  sleep,
  spawnRawStdio,
  type RawMessage,
} from './robustness-probes.js';

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What a server gives the robustness suite: a fixture and the calls to exercise it with. */
export interface RobustnessFixture {
  /** CLI arguments for the built bin (stdio and HTTP). */
  args: string[];
  /** The same server from the factory (the suite passes `maxResultBytes` when `bigCall` names one). */
  create(options: { maxResultBytes?: number }): McpServer;
  /** Client roots to present (for servers that take access from roots). */
  roots?: Root[];
  /** A call that succeeds quickly with structuredContent (run 50 at once). */
  quickCall: ToolCall;
  /**
   * A call whose result is over the budget. Without `maxResultBytes`, it goes to the bin
   * over stdio with the default budget (8 MiB), so its result must be larger than that (a
   * 9 MB file, say): the stock SDK client would drop a message over 10 MiB. With it, the
   * suite builds the server through `create({ maxResultBytes })` and calls in memory.
   */
  bigCall: ToolCall & { maxResultBytes?: number };
  /**
   * The server's slowest call: one that keeps working (CPU, I/O) for many seconds unless
   * stopped. Without one, the checks of pings during work, cancellation and dropped
   * connections are skipped.
   */
  slowCall?: ToolCall;
  /**
   * Whether the work of the slow call has stopped, for work that is not visible as CPU
   * time of the server process (a child process, say). By default the suite checks that
   * the process's CPU time stops growing (Linux).
   */
  workStopped?(): Promise<boolean>;
  cleanup(): Promise<void>;
}

export interface RobustnessOptions {
  /** Path of the built bin (`servers/NAME/dist/cli.js`). */
  bin: string;
  /** Makes a fresh fixture for the suite. */
  setup(): Promise<RobustnessFixture>;
}

/** CPU use (ms per ms) under which the work counts as stopped. */
const IDLE_LOAD = 0.25;

/**
 * What every server must withstand (ARCHITECTURE.md section 2, "Limits that protect every
 * session"), through real clients: malformed and oversized JSON-RPC over stdio and HTTP,
 * a ping answered within 100 ms while the slowest call runs, cancellation, session end
 * and dropped connections that stop the work, a result over the budget refused, 50
 * concurrent calls, exit within 3 s of stdin closing, and a flood of HTTP sessions in
 * bounded memory with idle expiry. Each server's `robustness.test.ts` calls this.
 */
export function describeServerRobustness(name: string, options: RobustnessOptions): void {
  describe(`${name} robustness`, () => {
    let fixture: RobustnessFixture;
    const hasSlowCall = () => fixture?.slowCall !== undefined;

    beforeAll(async () => {
      if (!existsSync(options.bin)) throw new Error(`${options.bin} is missing: build first (pnpm build)`);
      fixture = await options.setup();
    }, 60_000);
    afterAll(async () => {
      await fixture?.cleanup();
    });

    /** The work has stopped: the fixture's probe, else the process's CPU use falls to idle. */
    async function expectWorkStopped(pid: number) {
      if (fixture.workStopped) {
        let stopped = false;
        for (let i = 0; i < 30 && !stopped; i++) {
          stopped = await fixture.workStopped();
          if (!stopped) await sleep(100);
        }
        expect(stopped, 'the work of the call went on after it was stopped').toBe(true);
        return;
      }
      // Give the stop a moment, then measure over a second.
      await sleep(500);
      const load = await cpuLoad(pid, 1_000);
      if (load === undefined) return; // no /proc: nothing to measure
      expect(load, 'CPU use after the call was stopped (ms per ms)').toBeLessThan(IDLE_LOAD);
    }

    /** A ping on 2025; on 2026-07-28, which has none, a tools/list. */
    const alive = (connection: Connection): Promise<unknown> =>
      connection.era === 'modern' ? connection.client.listTools() : connection.client.ping();

    /** Median and worst round trip of `count` pings. */
    async function pingTimes(connection: Connection, count = 10): Promise<{ median: number; worst: number }> {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await alive(connection);
        times.push(performance.now() - t0);
        await sleep(20);
      }
      times.sort((a, b) => a - b);
      return { median: times[Math.floor(times.length / 2)], worst: times[times.length - 1] };
    }

    it(
      'answers thousands of malformed and oversized messages over stdio with well-formed JSON-RPC, and keeps serving',
      async () => {
        const peer = spawnRawStdio(options.bin, fixture.args);
        try {
          await peer.initialize();
          const expectAnswer = new Set<string | number>();
          const quick = fixture.quickCall.name;
          const hostile = (i: number): string => {
            const id = `m${i}`;
            switch (i % 14) {
              case 0:
                return 'not json at all';
              case 1:
                return '{"jsonrpc": "2.0", "id": 1, "method": ';
              case 2:
                return '\u0000\u0001\u0002';
              case 3:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '1.0', id, method: 'ping' });
              case 4:
                return JSON.stringify({ jsonrpc: '2.0', id: { nested: true }, method: 'ping' });
              case 5:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'no/such/method' });
              case 6:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 42 } });
              case 7:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: quick, arguments: 'x' } });
              case 8:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: quick, arguments: { __proto__: { x: 1 }, path: [[[]]] } } });
              case 9:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: '\u0000://%%%' } });
              case 10:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'no-such-prompt' } });
              case 11:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: 7 } });
              case 12:
                return `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
              default:
                expectAnswer.add(id);
                return JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/list', params: { cursor: '%%%not-a-cursor' } });
            }
          };
          for (let i = 0; i < 3_000; i++) {
            peer.send(hostile(i));
            if (i % 500 === 499) await sleep(10);
          }
          // One line far over any sane message size (the base refuses past 16 MiB).
          peer.send(`{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"${'p'.repeat(17 * 1024 * 1024)}"}}`);
          peer.sendJson({ jsonrpc: '2.0', id: 'last', method: 'ping' });
          await peer.waitFor((m) => m.id === 'last', 60_000);

          expect(peer.garbage, 'lines on stdout that are not JSON').toEqual([]);
          for (const message of peer.messages) expect(malformedResponse(message), JSON.stringify(message).slice(0, 300)).toBeUndefined();
          const answered = new Map<unknown, number>();
          for (const message of peer.messages) answered.set(message.id, (answered.get(message.id) ?? 0) + 1);
          for (const id of expectAnswer) expect(answered.get(id), `answers to ${id}`).toBe(1);
          const parseErrors = peer.messages.filter((m) => m.id === null && (m.error as { code?: number })?.code === -32700);
          expect(parseErrors.length).toBeGreaterThanOrEqual(3 * Math.floor(3_000 / 14));
          const tooLarge = peer.messages.find((m) => (m.error as { message?: string } | undefined)?.message?.match(/exceeds/));
          expect(tooLarge, 'a reply refusing the oversized line').toBeDefined();
          expect(peer.stderr()).not.toMatch(/MaxListenersExceededWarning|Unhandled|ENOBUFS/);
          expect(peer.child.exitCode).toBeNull();
        } finally {
          peer.kill();
        }
      },
      120_000,
    );

    it(
      'answers malformed and oversized HTTP requests with well-formed errors, and keeps serving',
      async () => {
        const server = await spawnHttpServer(options.bin, fixture.args);
        try {
          const headers: Record<string, string> = { ...POST_HEADERS };
          const init = await postInitialize(server.url);
          const sessionId = init.headers.get('mcp-session-id')!;
          await init.text();
          const session = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
          const bodies: { body: string; headers: Record<string, string> }[] = [
            { body: 'not json', headers },
            { body: '{"jsonrpc":"2.0","id":1,"method":', headers: session },
            { body: '{"jsonrpc":"2.0","id":2}', headers: session },
            { body: '[]', headers: session },
            { body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'no/such' }), headers: session },
            { body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 42 } }), headers: session },
            { body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }), headers: { ...session, 'mcp-session-id': 'no-such-session' } },
            { body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }), headers },
          ];
          const statuses = await inBatches(1_000, 16, async (i) => {
            const { body, headers: sent } = bodies[i % bodies.length];
            const response = await fetch(server.url, { method: 'POST', headers: sent, body });
            const messages = await httpMessages(response).catch((error) => [`unparseable: ${error}`]);
            for (const message of messages) expect(malformedResponse(message), JSON.stringify(message).slice(0, 300)).toBeUndefined();
            return response.status;
          });
          expect(statuses.every((status) => status < 500), `statuses ${[...new Set(statuses)]}`).toBe(true);
          // The server answers 413 before the body is in, and closes: fetch would report the
          // EPIPE of its unfinished upload rather than the answer.
          expect(await postStatus(server.url, session, `{"pad":"${'p'.repeat(8 * 1024 * 1024)}"}`)).toBe(413);

          const connection = await connectHttp(server.url, { roots: fixture.roots });
          try {
            const result = await connection.client.callTool(fixture.quickCall);
            expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
          } finally {
            await connection.close();
          }
          expect(server.child.exitCode).toBeNull();
        } finally {
          await server.close();
        }
      },
      120_000,
    );

    // The calls a client makes run in both eras: SDK v1's client (2025) and SDK v2's
    // pinned to 2026-07-28, where a ping is a tools/list (the revision removed ping).
    for (const era of ['legacy', 'modern'] as const) {
      const suffix = era === 'modern' ? ' (2026-07-28)' : '';
      it(
        `answers 50 concurrent calls, each correctly${suffix}`,
        async () => {
          const connection = await connectStdio(process.execPath, [options.bin, ...fixture.args], { roots: fixture.roots, era });
          try {
            const results = await Promise.all(Array.from({ length: 50 }, () => connection.client.callTool(fixture.quickCall)));
            for (const result of results) {
              expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
              expect(result.structuredContent).toEqual(results[0].structuredContent);
            }
          } finally {
            await connection.close();
          }
        },
        60_000,
      );

      it(
        `refuses a result over the budget with an isError that says how to ask for less${suffix}`,
        async () => {
          const { maxResultBytes, ...call } = fixture.bigCall;
          const server = maxResultBytes === undefined ? undefined : fixture.create({ maxResultBytes });
          const connection = server
            ? await connectInMemory(server, { roots: fixture.roots, era })
            : await connectStdio(process.execPath, [options.bin, ...fixture.args], { roots: fixture.roots, era });
          try {
            const result = await connection.client.callTool(call, undefined, { timeout: 60_000 });
            expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBe(true);
            expect(result.structuredContent).toBeUndefined();
            expect((result.content as { text?: string }[])[0].text).toMatch(/over the .* a response may carry\. Ask for less/);
            await expect(alive(connection)).resolves.toBeDefined();
          } finally {
            await connection.close();
            await server?.close();
          }
        },
        60_000,
      );

      it(
        `answers a ping within 100 ms while its slowest call runs, and cancellation stops the work${suffix}`,
        async (context) => {
          if (!hasSlowCall()) return context.skip();
          const connection = await connectStdio(process.execPath, [options.bin, ...fixture.args], { roots: fixture.roots, era });
          const pid = (connection as unknown as { transport: { pid: number | null } }).transport.pid!;
          try {
            const cancel = new AbortController();
            const call = connection.client
              .callTool(fixture.slowCall!, undefined, { signal: cancel.signal, timeout: 120_000 })
              .then(
                () => 'answered',
                () => 'cancelled',
              );
            await sleep(500);
            const { median, worst } = await pingTimes(connection);
            expect(median, `median ping while ${fixture.slowCall!.name} runs (ms)`).toBeLessThan(100);
            expect(worst, `worst ping while ${fixture.slowCall!.name} runs (ms)`).toBeLessThan(1_000);
            cancel.abort('stop');
            expect(await call).toBe('cancelled');
            await expectWorkStopped(pid);
            await expect(alive(connection)).resolves.toBeDefined();
          } finally {
            await connection.close();
          }
        },
        60_000,
      );
    }

    it(
      'stops the work of a call whose HTTP connection drops, and of a session that ends, while other sessions are answered',
      async (context) => {
        if (!hasSlowCall()) return context.skip();
        const server = await spawnHttpServer(options.bin, fixture.args);
        const observer = await connectHttp(server.url, { roots: fixture.roots });
        try {
          const headers: Record<string, string> = { ...POST_HEADERS };
          const capabilities = fixture.roots ? { roots: {} } : {};
          const openSession = async () => {
            const init = await postInitialize(server.url, { capabilities });
            const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
            await init.text();
            await (await fetch(server.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
            return session;
          };
          const startSlow = async (session: Record<string, string>, signal?: AbortSignal) => {
            const response = await fetch(server.url, {
              method: 'POST',
              headers: session,
              body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: fixture.slowCall }),
              signal,
            });
            // Answer roots/list requests that arrive on the stream, as a client would.
            void (async () => {
              try {
                const reader = response.body!.getReader();
                let text = '';
                for (;;) {
                  const { done, value } = await reader.read();
                  if (done) return;
                  text += new TextDecoder().decode(value);
                  for (const line of text.split('\n')) {
                    if (!line.startsWith('data: ')) continue;
                    const message = JSON.parse(line.slice(6)) as RawMessage;
                    if (message.method === 'roots/list') {
                      await fetch(server.url, {
                        method: 'POST',
                        headers: session,
                        body: JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { roots: fixture.roots ?? [] } }),
                      }).then((r) => r.text());
                    }
                  }
                  text = text.slice(text.lastIndexOf('\n') + 1);
                }
              } catch {
                // The connection was dropped on purpose.
              }
            })();
          };

          // A dropped connection.
          const dropped = await openSession();
          const drop = new AbortController();
          await startSlow(dropped, drop.signal);
          await sleep(500);
          const { median } = await pingTimes(observer);
          expect(median, 'median ping of another session while the slow call runs (ms)').toBeLessThan(100);
          drop.abort();
          await expectWorkStopped(server.child.pid!);

          // A session that ends (DELETE) while its call runs.
          const ending = await openSession();
          await startSlow(ending);
          await sleep(500);
          await (await fetch(server.url, { method: 'DELETE', headers: ending })).text();
          await expectWorkStopped(server.child.pid!);

          await expect(observer.client.ping()).resolves.toBeDefined();
          expect(server.child.exitCode).toBeNull();
        } finally {
          await observer.close();
          await server.close();
        }
      },
      90_000,
    );

    it(
      'stops the work of a 2026-07-28 call whose HTTP connection drops, while other requests are answered',
      async (context) => {
        if (!hasSlowCall()) return context.skip();
        const server = await spawnHttpServer(options.bin, fixture.args);
        const observer = await connectHttp(server.url, { era: 'modern' });
        try {
          const drop = new AbortController();
          const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
          const call = fetch(server.url, {
            method: 'POST',
            headers: {
              ...POST_HEADERS,
              'mcp-protocol-version': '2026-07-28',
              'mcp-method': 'tools/call',
              'mcp-name': fixture.slowCall!.name,
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...fixture.slowCall, _meta: meta } }),
            signal: drop.signal,
          }).then((response) => response.text()).catch(() => 'dropped');
          await sleep(500);
          const { median } = await pingTimes(observer);
          expect(median, 'median tools/list of another client while the slow call runs (ms)').toBeLessThan(100);
          drop.abort();
          expect(await call).toBe('dropped');
          await expectWorkStopped(server.child.pid!);
          await expect(observer.client.listTools()).resolves.toBeDefined();
          expect(server.child.exitCode).toBeNull();
        } finally {
          await observer.close();
          await server.close();
        }
      },
      90_000,
    );

    it(
      'exits within 3 s of stdin closing, even while its slowest call runs',
      async () => {
        const peer = spawnRawStdio(options.bin, fixture.args);
        try {
          await peer.initialize();
          const call = fixture.slowCall ?? fixture.quickCall;
          peer.sendJson({ jsonrpc: '2.0', id: 'work', method: 'tools/call', params: call });
          await sleep(300);
          const closedAt = Date.now();
          peer.child.stdin.end();
          const guard = setTimeout(() => peer.kill(), 15_000);
          const { at, signal } = await peer.exited;
          clearTimeout(guard);
          expect(signal).toBeNull();
          expect(at - closedAt, 'ms from stdin close to exit').toBeLessThan(3_000);
        } finally {
          peer.kill();
        }
      },
      30_000,
    );

    it(
      'holds a flood of 1,000 HTTP sessions in bounded memory, and expires idle ones',
      async () => {
        // The bin: memory stays bounded.
        const server = await spawnHttpServer(options.bin, fixture.args);
        try {
          const before = rssBytes(server.child.pid!);
          const initialize = async (url: string, i: number) => {
            const response = await postInitialize(url, { id: i, clientName: 'flood' });
            await response.text();
            return response.status;
          };
          const statuses = await inBatches(1_000, 50, (i) => initialize(server.url, i));
          expect(statuses.every((status) => status === 200)).toBe(true);
          const after = rssBytes(server.child.pid!);
          if (before !== undefined && after !== undefined) {
            expect((after - before) / 1_000, 'bytes of resident memory per open session').toBeLessThan(256 * 1024);
          }
          const connection = await connectHttp(server.url, { roots: fixture.roots });
          await expect(connection.client.ping()).resolves.toBeDefined();
          await connection.close();
        } finally {
          await server.close();
        }

        // The factory behind serveHttp: idle sessions are closed.
        const mcp = fixture.create({});
        const handle = await serveHttp(mcp, { host: '127.0.0.1', port: 0, logger: silentLogger, sessionIdleMs: 2_000 });
        try {
          await inBatches(200, 50, (i) =>
            postInitialize(handle.url, { id: i, clientName: 'flood' }).then((r) => r.text()),
          );
          expect(handle.sessionCount()).toBeGreaterThan(0);
          const deadline = Date.now() + 15_000;
          while (handle.sessionCount() > 0 && Date.now() < deadline) await sleep(200);
          expect(handle.sessionCount()).toBe(0);
          expect(mcp.sessionCount).toBe(0);
        } finally {
          await handle.close();
        }
      },
      120_000,
    );
  });
}
