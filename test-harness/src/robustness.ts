import { existsSync, renameSync, rmSync } from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { McpServer, Root } from '@mcp-reference/shared';
import { serveHttp } from '@mcp-reference/shared/http';
import { silentLogger } from '@mcp-reference/shared';
import { connectHttp, connectInMemory, connectStdio, spawnHttpServer, type Connection } from './clients.js';
import { isWellFormedText } from './tool-session.js';
import { makeSpecialFile } from './special-files.js';
import { slowPerson, unlessStillWaiting } from './slow-person.js';
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
   * time of the server process (a child process, say). The suite also checks that the
   * process's CPU time stops growing (Linux), for work it does itself.
   */
  workStopped?(): Promise<boolean>;
  /**
   * Texts the server answers in pieces, each cut naming how to read on (files, diffs, pages,
   * rows): the suite reads each from its first call to its last and checks the pieces put
   * together are the whole, byte for byte, every piece well-formed text. Without any, the
   * check is skipped.
   */
  continuations?: Continuation[];
  /**
   * A file the server opens for itself (no client names it: a .gitignore met on a walk, a
   * git ref), with a call that reads it. The suite turns it into a FIFO for a while and
   * checks that six such calls at once answer (or are refused) without waiting on it, and
   * that the server still answers a ping. Without one, the check is skipped.
   */
  ownFile?: { path: string; call: ToolCall };
  /**
   * A call that asks the user before it changes something (replaces a file, discards changes,
   * deletes rows), and another session's call that changes what the user is being asked
   * about. The suite checks, on a 2025 session (where the call waits for the answer), that the
   * other call is answered while the question is pending (nothing is locked while a person
   * thinks), and that once the user agrees, the first call is refused and changes nothing:
   * they agreed to what they were shown. Without one, the check is skipped.
   */
  confirmation?: Confirmation;
  /**
   * Calls with the patterns a backtracking engine takes exponential or quadratic time on
   * (nested repetition, `.*x` over a long line, a backreference), on inputs made for them.
   * The suite checks that each is answered within 5 s (before, such calls ran into the
   * 120 s limit), with a ping answered beside it: with matches, or refused with a message
   * that matches `refused`. Without any, the check is skipped.
   */
  hostilePatterns?: (ToolCall & { refused?: RegExp })[];
  cleanup(): Promise<void>;
}

/** What a tool call answers, as far as the continuation check reads it. */
export interface CallAnswer {
  content?: unknown;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A text read in pieces (see RobustnessFixture.continuations). */
export interface Continuation {
  /** What is read, for messages ("a 60 KB file at HEAD"). */
  label: string;
  /** The server, with limits small enough that the text comes in several pieces (called in memory). */
  create(): McpServer;
  /** The call that reads the first piece. */
  first: ToolCall;
  /** The call that reads on after `answer` (the answer to `call`), or undefined when the answer says nothing follows. */
  next(answer: CallAnswer, call: ToolCall): ToolCall | undefined;
  /** The part of the text an answer carries. */
  piece(answer: CallAnswer): string;
  /** The whole text, as something other than the server gives it (the file, git, SQLite). */
  whole(): Promise<string> | string;
  /** The text must come in at least this many pieces (default 3), so that cuts are exercised. */
  minPieces?: number;
}

/** See RobustnessFixture.confirmation. */
export interface Confirmation {
  /** A server that can make the change (write access), called in memory. */
  create(): McpServer;
  /** The call that asks first. */
  call: ToolCall;
  /** Another session's call, made while the question is pending, that changes what it asks about. */
  meanwhile: ToolCall;
  /** What the first call would change, read outside the server (file contents, git's status, rows). */
  state(): Promise<string> | string;
}

export interface RobustnessOptions {
  /** Path of the built bin (`servers/NAME/dist/cli.js`). */
  bin: string;
  /** Makes a fresh fixture for the suite. */
  setup(): Promise<RobustnessFixture>;
}

/**
 * About `bytes` of UTF-8 text that makes cuts hard: characters of 1, 2, 3 and 4 bytes, short
 * lines, an empty one, CRLF, lines longer than any small limit, and no final newline. The
 * same every run.
 */
export function textOfEveryWidth(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line =
      i % 7 === 3
        ? 'é€😀x'.repeat(700 + (i % 5) * 311) // 7-20 KB: longer than a 4 KiB limit
        : i % 7 === 5
          ? ''
          : `line ${i}: ${[...'aé€😀'].slice(0, 1 + (i % 4)).join('')} ${'word '.repeat(i % 13)}${i % 3 === 0 ? '\r' : ''}`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return `${lines.join('\n')}😀`;
}

/** Where two texts first differ (in UTF-16 units), or undefined when they are the same. */
function firstDifference(a: string, b: string): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return a.length === b.length ? undefined : n;
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

    /** The work has stopped: the fixture's probe (work outside the process), and the process's CPU use falls to idle. */
    async function expectWorkStopped(pid: number) {
      if (fixture.workStopped) {
        let stopped = false;
        for (let i = 0; i < 30 && !stopped; i++) {
          stopped = await fixture.workStopped();
          if (!stopped) await sleep(100);
        }
        expect(stopped, 'the work of the call went on after it was stopped').toBe(true);
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

    it(
      'does not wait on a file it opens for itself that turned into a FIFO, and keeps answering',
      async (context) => {
        if (!fixture.ownFile || process.platform !== 'linux') return context.skip();
        const { path: file, call } = fixture.ownFile;
        const aside = `${file}.robustness-aside`;
        const existed = existsSync(file);
        if (existed) renameSync(file, aside);
        const fifo = makeSpecialFile(file, 'fifo');
        const connection = await connectStdio(process.execPath, [options.bin, ...fixture.args], { roots: fixture.roots });
        try {
          // More calls than Node's thread pool has threads: a read of the FIFO there held one for good.
          const answers = await Promise.all(Array.from({ length: 6 }, () => connection.client.callTool(call, undefined, { timeout: 60_000 })));
          for (const answer of answers) expect(answer.content, JSON.stringify(answer).slice(0, 300)).toBeDefined();
          // (Not the quick call: it may run a program that reads the file itself, git listing branches, say.)
          await expect(alive(connection)).resolves.toBeDefined();
          // All of it before the rescuer (a process that opens the FIFO for writing after 8 s, so a stuck server cannot hang the run).
          expect(fifo.rescued(), `the server waited on ${file}`).toBe(false);
        } finally {
          await connection.close();
          fifo.dispose();
          rmSync(file, { force: true });
          if (existed) renameSync(aside, file);
        }
      },
      60_000,
    );

    it(
      'asks before a change without holding anything meanwhile, and changes nothing the user was not shown',
      async (context) => {
        const confirmation = fixture.confirmation;
        if (!confirmation) return context.skip();
        const server = confirmation.create();
        // A person who takes a while: the answer comes when the suite gives it.
        const slow = slowPerson();
        const person = await connectInMemory(server, { roots: fixture.roots, elicit: slow.elicit });
        const other = await connectInMemory(server, { roots: fixture.roots });
        try {
          const call = person.client.callTool(confirmation.call, undefined, { timeout: 60_000 });
          await slow.asked;
          // Waiting for the answer would mean a lock held while a person thinks (up to a minute).
          const meanwhile = await unlessStillWaiting(other.client.callTool(confirmation.meanwhile, undefined, { timeout: 60_000 }));
          expect(meanwhile === undefined ? 'still waiting for the answer' : meanwhile.isError ? JSON.stringify(meanwhile.content).slice(0, 300) : 'answered').toBe('answered');
          const before = await confirmation.state();
          slow.answer();
          const result = await call;
          expect(result.isError, `${confirmation.call.name} after a change the user was not shown: ${JSON.stringify(result.content).slice(0, 300)}`).toBe(true);
          expect(await confirmation.state(), `${confirmation.call.name} changed something after it was refused`).toBe(before);
          await expect(alive(person)).resolves.toBeDefined();
        } finally {
          slow.answer();
          await other.close();
          await person.close();
          await server.close();
        }
      },
      60_000,
    );

    it(
      'answers hostile patterns at once, matching in linear time or refusing what cannot be',
      async (context) => {
        if (!fixture.hostilePatterns?.length) return context.skip();
        const server = fixture.create({});
        const connection = await connectInMemory(server, { roots: fixture.roots });
        try {
          for (const { refused, ...call } of fixture.hostilePatterns) {
            const started = performance.now();
            const [result] = await Promise.all([connection.client.callTool(call, undefined, { timeout: 120_000 }), alive(connection)]);
            const label = `${call.name} ${JSON.stringify(call.arguments).slice(0, 200)}`;
            // Generous: a backtracking engine took the whole 120 s limit; a linear one takes milliseconds.
            expect(performance.now() - started, `${label} took too long`).toBeLessThan(5_000);
            const text = JSON.stringify(result.content).slice(0, 500);
            if (refused) {
              expect(result.isError, `${label} should be refused: ${text}`).toBe(true);
              expect(text, label).toMatch(refused);
            } else expect(result.isError, `${label}: ${text}`).toBeFalsy();
          }
        } finally {
          await connection.close();
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
        `reads every text it cuts back whole, following the continuation each piece names${suffix}`,
        async (context) => {
          if (!fixture.continuations?.length) return context.skip();
          for (const text of fixture.continuations) {
            const server = text.create();
            const connection = await connectInMemory(server, { roots: fixture.roots, era });
            try {
              const pieces: string[] = [];
              for (let call: ToolCall | undefined = text.first; call; ) {
                const answer = (await connection.client.callTool(call, undefined, { timeout: 60_000 })) as CallAnswer;
                expect(answer.isError, `${text.label}, piece ${pieces.length + 1}: ${JSON.stringify(answer.content).slice(0, 300)}`).toBeFalsy();
                const piece = text.piece(answer);
                expect(isWellFormedText(piece), `${text.label}, piece ${pieces.length + 1} splits a character`).toBe(true);
                pieces.push(piece);
                call = text.next(answer, call);
                if (call) expect(piece.length, `${text.label}: an empty piece that is not the last would never end`).toBeGreaterThan(0);
                expect(pieces.length, `${text.label}: pieces do not end`).toBeLessThan(10_000);
              }
              expect(pieces.length, `${text.label}: pieces`).toBeGreaterThanOrEqual(text.minPieces ?? 3);
              const whole = await text.whole();
              const rebuilt = pieces.join('');
              // Compared by length and first difference: a diff of two long texts would drown the message.
              const differs = firstDifference(rebuilt, whole);
              expect(differs === undefined ? 'same' : `differ at ${differs} of ${whole.length} (got ${rebuilt.length})`, text.label).toBe('same');
            } finally {
              await connection.close();
              await server.close();
            }
          }
        },
        120_000,
      );

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
      'exits by itself when stdin closes, even while its slowest call runs, and says why',
      async () => {
        const peer = spawnRawStdio(options.bin, fixture.args);
        try {
          await peer.initialize();
          const call = fixture.slowCall ?? fixture.quickCall;
          peer.sendJson({ jsonrpc: '2.0', id: 'work', method: 'tools/call', params: call });
          await sleep(300);
          peer.child.stdin.end();
          const guard = setTimeout(() => peer.kill(), 15_000);
          const { code, signal } = await peer.exited;
          clearTimeout(guard);
          expect({ code, signal }).toEqual({ code: 0, signal: null });
          // Without a clock: it ended itself (not the guard's kill), for that reason. Within
          // 3 s by construction: the exit timer fires 2.5 s after the end of input whatever
          // still runs (shared/src/transports/stdio-robustness.test.ts makes it fire).
          expect(peer.stderr()).toMatch(/stopping: the client closed stdin/);
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
