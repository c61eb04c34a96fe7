import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { ErrorCodes, errorMessage } from '../errors.js';
import { messageParts, serializeMessage } from '../raw-json.js';

/** A line longer than this is refused (and skipped up to its newline). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Bytes kept at each end of an oversized line to find its id. */
const ID_WINDOW = 64 * 1024;

/**
 * The top-level "id" of a JSON-RPC request too large to parse, from its first and last
 * bytes, so the client hears about its own request instead of waiting for an answer that
 * never comes: first among the top-level keys at the start, else the last key before the
 * final brace (where SDK clients put it). Null when neither end shows it.
 */
export function oversizeId(head: string, tail: string): string | number | null {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      let j = i + 1;
      while (j < head.length && head[j] !== '"') j += head[j] === '\\' ? 2 : 1;
      if (j >= head.length) break;
      if (depth === 1 && head.slice(i, j + 1) === '"id"') {
        const value = /^\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(head.slice(j + 1, j + 200));
        if (value) return JSON.parse(value[1]) as string | number;
      }
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  const last = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*}\s*$/.exec(tail);
  return last ? (JSON.parse(last[1]) as string | number) : null;
}

interface Pending {
  message: JSONRPCMessage;
  done: () => void;
}

/**
 * Newline-delimited JSON-RPC over a pair of streams (stdin/stdout), replacing the SDK's
 * StdioServerTransport, which answers nothing to a line that is not JSON, buffers
 * without bound and adds a `drain` listener per blocked write. Here:
 * - a line that is not JSON gets -32700 (id null), one that is not a JSON-RPC message
 *   -32600, one over `maxLineBytes` -32600, and reading goes on;
 * - writes go through one queue: a message is serialized only when its turn comes, and
 *   a full pipe is waited for with a single `drain` listener, so 60 answers of 9 MB do
 *   not all sit serialized in memory at once;
 * - both streams have error listeners: a client that goes away (EPIPE) closes the
 *   transport instead of crashing the process.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;
  /** Called once the transport closed, whoever owns `onclose` (the SDK's stdio entry does). */
  whenClosed?: () => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  private discarding = false;
  /** The start and (rolling) end of an oversized line being skipped: where its id is. */
  private oversizeHead = '';
  private oversizeTail = Buffer.alloc(0);
  private queue: Pending[] = [];
  private waitingForDrain = false;
  private closed = false;
  private readonly maxLineBytes: number;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: { maxLineBytes?: number } = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let newline: number;
    while ((newline = data.indexOf(0x0a)) !== -1) {
      const head = data.subarray(0, newline);
      data = data.subarray(newline + 1);
      if (this.discarding) {
        this.discarding = false;
        this.chunks = [];
        this.buffered = 0;
        this.refuseOversize(oversizeId(this.oversizeHead, Buffer.concat([this.oversizeTail, head]).subarray(-ID_WINDOW).toString('utf8')));
        this.oversizeHead = '';
        this.oversizeTail = Buffer.alloc(0);
        if (this.closed) return;
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, head]) : head;
      this.chunks = [];
      this.buffered = 0;
      if (line.length > this.maxLineBytes) this.refuseOversize(oversizeId(line.subarray(0, ID_WINDOW).toString('utf8'), line.subarray(-ID_WINDOW).toString('utf8')));
      else this.handleLine(line.toString('utf8'));
      if (this.closed) return;
    }
    if (data.length === 0) return;
    if (this.discarding) {
      this.oversizeTail = Buffer.concat([this.oversizeTail, data]).subarray(-ID_WINDOW);
      return;
    }
    this.buffered += data.length;
    if (this.buffered > this.maxLineBytes) {
      // Keep only the ends of a line that is already too long (its id is at one of them);
      // skip to its end, then answer its id once.
      const all = Buffer.concat([...this.chunks, data]);
      this.oversizeHead = all.subarray(0, ID_WINDOW).toString('utf8');
      this.oversizeTail = all.subarray(-ID_WINDOW);
      this.chunks = [];
      this.buffered = 0;
      this.discarding = true;
      return;
    }
    this.chunks.push(data);
  };

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
  }

  private refuseOversize(id: string | number | null) {
    this.reply(id, ErrorCodes.InvalidRequest, `Invalid Request: a message exceeds ${this.maxLineBytes} bytes (the limit of one message); send less in one request`);
  }

  private handleLine(raw: string) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reply(null, ErrorCodes.ParseError, `Parse error: ${errorMessage(error)}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown } | null)?.id;
      const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
      // A malformed notification or response gets no answer to a real request id.
      this.reply(usableId, ErrorCodes.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private reply(id: string | number | null, code: number, message: string) {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.queue.push({ message, done: resolve });
      this.pump();
    });
  }

  private pump() {
    while (!this.waitingForDrain && this.queue.length > 0) {
      const next = this.queue.shift()!;
      let ok = true;
      try {
        ok = this.write(next.message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
      next.done();
      if (!ok) {
        this.waitingForDrain = true;
        this.output.once('drain', () => {
          this.waitingForDrain = false;
          this.pump();
        });
      }
    }
  }

  /** One message and its newline; a result carrying RawJson goes out in parts (raw-json.ts), corked into one write. */
  private write(message: JSONRPCMessage): boolean {
    const parts = messageParts(message);
    if (parts.length === 1) return this.output.write(`${parts[0]}\n`);
    this.output.cork();
    for (const part of parts) this.output.write(part);
    const ok = this.output.write('\n');
    this.output.uncork();
    return ok;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.pause();
    this.chunks = [];
    // What is still queued is written if the pipe takes it; nobody waits for it.
    for (const pending of this.queue.splice(0)) {
      try {
        this.output.write(`${serializeMessage(pending.message)}\n`);
      } catch {
        // The client is gone.
      }
      pending.done();
    }
    this.onclose?.();
    this.whenClosed?.();
  }
}
