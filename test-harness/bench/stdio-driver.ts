// A deliberately minimal JSON-RPC-over-stdio client for the benchmark. It does not use the
// SDK (only `shared/` may import it), and it has no buffer limit: a 20 MB response is
// one line like any other, and its byte size is recorded.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export const PROTOCOL_VERSION = '2025-06-18';
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface Reply {
  result?: unknown;
  error?: RpcError;
  /** Bytes of the response line, newline excluded. */
  bytes: number;
  /** From writing the request to parsing the response. */
  ms: number;
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
  sentAt: number;
  timer: NodeJS.Timeout;
}

export interface ToolCallResult {
  content?: Array<{ type: string; text?: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export class StdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  /** performance.now() just before spawn(). */
  readonly spawnedAt: number;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private chunks: Buffer[] = [];
  private stderrTail = '';
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitPromise: Promise<void>;

  /** 2026-07-28: no initialize; every request carries the protocol version and capabilities in `_meta`. */
  private readonly modernMeta: Record<string, unknown> | undefined;

  constructor(command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string>; era?: 'legacy' | 'modern' } = {}) {
    this.spawnedAt = performance.now();
    this.modernMeta =
      options.era === 'modern'
        ? {
            'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'mcp-reference-bench', version: '0' },
          }
        : undefined;
    this.child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], env: options.env && { ...process.env, ...options.env } });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    // A server that exits early closes stdin under us; the exit handler reports it.
    this.child.stdin.on('error', () => {});
    this.exitPromise = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null) => {
        this.exited ??= { code, signal };
        const why = new Error(`server exited (code ${code}, signal ${signal}): ${this.stderrTail.trim()}`);
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.reject(why);
        }
        this.pending.clear();
        resolve();
      };
      this.child.on('exit', done);
      this.child.on('error', (err) => {
        this.stderrTail += String(err);
        done(null, null);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get stderr(): string {
    return this.stderrTail;
  }

  // Only the new chunk is scanned for a newline, so a response of many chunks costs
  // linear time, not quadratic.
  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.chunks.push(chunk.subarray(start, nl));
      const line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [];
      start = nl + 1;
      if (line.length > 0) this.onLine(line);
    }
    if (start < chunk.length) this.chunks.push(chunk.subarray(start));
  }

  private onLine(line: Buffer): void {
    const now = performance.now();
    let message: { id?: number | string; result?: unknown; error?: RpcError; method?: string };
    try {
      message = JSON.parse(line.toString('utf8'));
    } catch {
      return; // Not JSON-RPC; a well-behaved server never does this on stdout.
    }
    if (message.method !== undefined) {
      // A request from the server (e.g. roots/list): we declared no capabilities, so
      // answer "method not found" to keep it from waiting.
      if (message.id !== undefined) {
        this.write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not supported' } });
      }
      return;
    }
    if (typeof message.id !== 'number') return;
    const p = this.pending.get(message.id);
    if (!p) return;
    this.pending.delete(message.id);
    clearTimeout(p.timer);
    p.resolve({ result: message.result, error: message.error, bytes: line.length, ms: now - p.sentAt });
  }

  private write(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(method: string, params: unknown = {}, timeoutMs = 120_000): Promise<Reply> {
    if (this.exited) {
      return Promise.reject(new Error(`server exited (code ${this.exited.code}): ${this.stderrTail.trim()}`));
    }
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, sentAt: performance.now(), timer });
      const withMeta = this.modernMeta ? { ...(params as object), _meta: { ...(params as { _meta?: object })._meta, ...this.modernMeta } } : params;
      this.write({ jsonrpc: '2.0', id, method, params: withMeta });
    });
  }

  notify(method: string, params: unknown = {}): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /**
   * Sends initialize and notifications/initialized (on 2026-07-28: server/discover); returns
   * ms from spawn to the response.
   */
  async initialize(timeoutMs = 30_000): Promise<number> {
    if (this.modernMeta) {
      const discovered = await this.request('server/discover', {}, timeoutMs);
      if (discovered.error) throw new Error(`server/discover failed: ${discovered.error.message}`);
      return performance.now() - this.spawnedAt;
    }
    const reply = await this.request(
      'initialize',
      { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'mcp-reference-bench', version: '0' } },
      timeoutMs,
    );
    const at = performance.now();
    if (reply.error) throw new Error(`initialize failed: ${reply.error.message}`);
    this.notify('notifications/initialized');
    return at - this.spawnedAt;
  }

  async listTools(): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const reply = await this.request('tools/list', cursor ? { cursor } : {});
      if (reply.error) throw new Error(`tools/list failed: ${reply.error.message}`);
      const result = reply.result as { tools: Array<{ name: string }>; nextCursor?: string };
      names.push(...result.tools.map((t) => t.name));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return names;
  }

  /** A tool call; a JSON-RPC error or an isError result is thrown with its message. */
  async callTool(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<Reply & { tool: ToolCallResult }> {
    const reply = await this.request('tools/call', { name, arguments: args }, timeoutMs);
    if (reply.error) throw new Error(`${name}: JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
    const tool = reply.result as ToolCallResult;
    if (tool.isError) {
      const text = tool.content?.find((c) => c.type === 'text')?.text ?? '';
      throw new Error(`${name}: tool error: ${text.slice(0, 300)}`);
    }
    return { ...reply, tool };
  }

  /** Closes stdin (the polite shutdown), then signals if the server lingers. */
  async close(graceMs = 2000): Promise<void> {
    if (this.exited) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), graceMs);
    const hard = setTimeout(() => this.child.kill('SIGKILL'), graceMs * 2);
    await this.exitPromise;
    clearTimeout(timer);
    clearTimeout(hard);
  }
}
