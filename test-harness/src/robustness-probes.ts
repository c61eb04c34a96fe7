import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

/** A JSON-RPC message as a raw peer sees it. */
export interface RawMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** Why `message` is not a well-formed JSON-RPC 2.0 response, or undefined when it is one. */
export function malformedResponse(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'not an object';
  const m = message as RawMessage;
  if (m.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if ('method' in m) return undefined; // a request or notification from the server
  if (!(typeof m.id === 'string' || typeof m.id === 'number' || m.id === null)) return 'bad id';
  if (('result' in m) === ('error' in m)) return 'needs exactly one of result and error';
  if ('error' in m) {
    if (!Number.isInteger(m.error?.code)) return 'error.code is not an integer';
    if (typeof m.error?.message !== 'string') return 'error.message is not a string';
  }
  return undefined;
}

/** CPU time (user + system, all threads) of a process, in ms; undefined off Linux. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of the whole line (utime, stime), in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in bytes; undefined off Linux. */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How much CPU a process burns over `windowMs` (ms of CPU per ms of wall time). */
export async function cpuLoad(pid: number, windowMs = 1_000): Promise<number | undefined> {
  const before = cpuTimeMs(pid);
  await sleep(windowMs);
  const after = cpuTimeMs(pid);
  return before === undefined || after === undefined ? undefined : (after - before) / windowMs;
}

/** A raw newline-delimited JSON-RPC peer of a server process over stdio. */
export interface RawStdioPeer {
  child: ChildProcessWithoutNullStreams;
  messages: RawMessage[];
  /** Lines the server wrote that are not JSON at all. */
  garbage: string[];
  send(line: string): void;
  sendJson(message: unknown): void;
  waitFor(match: (message: RawMessage) => boolean, timeoutMs?: number): Promise<RawMessage>;
  initialize(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  stderr(): string;
  kill(): void;
}

export function spawnRawStdio(bin: string, args: string[]): RawStdioPeer {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams;
  // A server that went away shows up as a failed assertion, not as EPIPE in the runner.
  child.stdin.on('error', () => undefined);
  const messages: RawMessage[] = [];
  const garbage: string[] = [];
  const waiters = new Set<() => void>();
  let pending: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    let rest = chunk;
    let newline: number;
    while ((newline = rest.indexOf(0x0a)) !== -1) {
      const line = Buffer.concat([...pending, rest.subarray(0, newline)]).toString('utf8');
      pending = [];
      rest = rest.subarray(newline + 1);
      try {
        messages.push(JSON.parse(line));
      } catch {
        garbage.push(line.slice(0, 200));
      }
    }
    if (rest.length) pending.push(rest);
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 1_000_000) stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const peer: RawStdioPeer = {
    child,
    messages,
    garbage,
    send: (line) => void child.stdin.write(`${line}\n`),
    sendJson: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    waitFor(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = messages.find(match);
          if (!hit) return;
          done();
          resolve(hit);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no matching message within ${timeoutMs} ms (stderr: ${stderr.slice(-500)})`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async initialize() {
      peer.sendJson({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'robustness', version: '0' } },
      });
      await peer.waitFor((m) => m.id === 'init');
      peer.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
    },
    exited,
    stderr: () => stderr,
    kill: () => void child.kill('SIGKILL'),
  };
  return peer;
}

/** Reads JSON-RPC messages out of an HTTP response (JSON or SSE). */
export async function httpMessages(response: Response): Promise<unknown[]> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) return [JSON.parse(text)].flat();
  if (type.includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)));
  }
  return [];
}

/** Runs `tasks` with at most `limit` at a time. */
/** The headers a Streamable HTTP client sends with every POST. */
export const POST_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } as const;

/** POSTs a raw `initialize` (no SDK), as a client opening a session does. */
export function postInitialize(url: string, options: { id?: number; clientName?: string; capabilities?: Record<string, unknown> } = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: POST_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: options.capabilities ?? {}, clientInfo: { name: options.clientName ?? 'robustness', version: '0' } },
    }),
  });
}

export async function inBatches<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

/**
 * POSTs `body` and resolves with the response status, even when the server answers
 * before the upload is finished and closes the connection (an early 413).
 */
export function postStatus(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    const req = request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => resolve(status!));
      res.on('error', () => resolve(status!));
    });
    req.on('error', (error) => (status === undefined ? reject(error) : resolve(status)));
    req.end(body);
  });
}
