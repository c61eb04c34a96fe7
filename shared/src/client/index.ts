import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ModernClient,
  InMemoryTransport as ModernInMemoryTransport,
  StreamableHTTPClientTransport as ModernHttpTransport,
  type Transport as ModernTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import type { McpServer } from '../server.js';
import type { Root, SampleAnswer, SampleMessage } from '../types.js';

export { Client, ModernClient };

/** The protocol revision the client speaks: 2025 (`initialize`, SDK v1) or 2026-07-28 (SDK v2, pinned). */
export type ClientEra = 'legacy' | 'modern';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export type { McpServer };

export interface ReceivedNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** A person's answer to an elicitation. */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

export interface ClientOptions {
  name?: string;
  /**
   * Declares the roots capability and answers roots/list with these; a function is asked
   * each time (one that never resolves makes a client that declares roots but never answers).
   */
  roots?: Root[] | (() => Promise<Root[]>);
  /** Declares elicitation and answers each request with this (a promise: a person who takes a while). */
  elicit?: (message: string) => ElicitAnswer | Promise<ElicitAnswer>;
  /** Extensions the client declares (at initialize, or in every 2026-07-28 request's capabilities), e.g. `{ 'io.modelcontextprotocol/ui': { mimeTypes: [...] } }` (MCP Apps). */
  extensions?: Record<string, object>;
  /** Declares sampling and answers each `sampling/createMessage` with this. */
  sample?: (messages: SampleMessage[]) => SampleAnswer;
  /** Time limit of the initialize request (the SDK's default is 60 s; `npx` may install first). */
  connectTimeoutMs?: number;
  /**
   * `legacy` (default): the reference 2025 client, SDK v1 (`@modelcontextprotocol/sdk`),
   * which proves nothing changed for 2025 hosts. `modern`: SDK v2's client pinned to
   * 2026-07-28 (`server/discover`, per-request `_meta`, multi-round-trip results).
   */
  era?: ClientEra;
}

/** A connected SDK client plus what tests and tools need around it. */
export interface Connection {
  /**
   * The SDK client. On `modern` connections this is SDK v2's client, whose methods the
   * suites use (listTools, callTool, readResource, getPrompt, complete, listResources...)
   * have the same names and shapes; 2025-only methods (ping, setLoggingLevel,
   * subscribeResource) fail there, as the protocol removed them.
   */
  client: Client;
  readonly era: ClientEra;
  /** Requests the client sent, by method (modern connections count them; legacy ones leave this empty). */
  readonly sent: Map<string, number>;
  /** Every notification received, in order. */
  notifications: ReceivedNotification[];
  /** Resolves with the first notification (past or future) that matches. */
  waitForNotification(
    method: string,
    match?: (params: Record<string, unknown> | undefined) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedNotification>;
  /** Replaces the roots and sends notifications/roots/list_changed. */
  setRoots(roots: Root[]): Promise<void>;
  close(): Promise<void>;
}

async function connectWith(transport: Transport, options: ClientOptions, onClose?: () => Promise<void>): Promise<Connection> {
  if (options.era === 'modern') return connectModern(transport as unknown as ModernTransport, options, onClose);
  let roots: Root[] | (() => Promise<Root[]>) = options.roots ?? [];
  const client = new Client(
    { name: options.name ?? 'mcp-reference-test-client', version: '0.0.0' },
    {
      capabilities: {
        ...(options.roots ? { roots: { listChanged: true } } : {}),
        ...(options.elicit ? { elicitation: { form: {} } } : {}),
        ...(options.extensions ? { extensions: options.extensions } : {}),
        ...(options.sample ? { sampling: {} } : {}),
      },
    },
  );
  const notifications: ReceivedNotification[] = [];
  const waiters = new Set<() => void>();
  client.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification as ReceivedNotification);
    for (const wake of waiters) wake();
  };
  if (options.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: typeof roots === 'function' ? await roots() : roots }));
  }
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params.message) as never);
  }
  if (options.sample) {
    const sample = options.sample;
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => sample(request.params.messages as SampleMessage[]) as never);
  }
  await client.connect(transport, options.connectTimeoutMs ? { timeout: options.connectTimeoutMs } : undefined);
  return {
    client,
    era: 'legacy',
    sent: new Map(),
    notifications,
    waitForNotification: notificationWaiter(notifications, waiters),
    async setRoots(next) {
      roots = next;
      await client.sendRootsListChanged();
    },
    async close() {
      await client.close();
      await onClose?.();
    },
  };
}

function notificationWaiter(notifications: ReceivedNotification[], waiters: Set<() => void>): Connection['waitForNotification'] {
  return (method, match = () => true, timeoutMs = 5_000) => {
    const find = () => notifications.find((n) => n.method === method && match(n.params));
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const wake = () => {
        const hit = find();
        if (!hit) return;
        cleanup();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${method} notification within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
    });
  };
}

/**
 * A 2026-07-28 client (SDK v2, pinned). Roots and elicitation are declared per request
 * and answered when a result asks for them (`input_required`); the client retries the
 * call with the answers by itself. Each request it sends is counted in `sent`.
 */
async function connectModern(transport: ModernTransport, options: ClientOptions, onClose?: () => Promise<void>): Promise<Connection> {
  let roots: Root[] | (() => Promise<Root[]>) = options.roots ?? [];
  const client = new ModernClient(
    { name: options.name ?? 'mcp-reference-test-client', version: '0.0.0' },
    {
      capabilities: {
        ...(options.roots ? { roots: {} } : {}),
        ...(options.elicit ? { elicitation: { form: {} } } : {}),
        ...(options.extensions ? { extensions: options.extensions as never } : {}),
        ...(options.sample ? { sampling: {} } : {}),
      },
      versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } },
    },
  );
  const notifications: ReceivedNotification[] = [];
  const waiters = new Set<() => void>();
  client.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification as ReceivedNotification);
    for (const wake of waiters) wake();
  };
  if (options.roots) {
    client.setRequestHandler('roots/list', async () => ({ roots: typeof roots === 'function' ? await roots() : roots }));
  }
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler('elicitation/create', async (request) => elicit((request.params as { message: string }).message) as never);
  }
  if (options.sample) {
    const sample = options.sample;
    client.setRequestHandler('sampling/createMessage', async (request) => sample((request.params as { messages: SampleMessage[] }).messages) as never);
  }
  const sent = new Map<string, number>();
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    const method = (message as { method?: unknown; id?: unknown }).method;
    if (typeof method === 'string' && (message as { id?: unknown }).id !== undefined) sent.set(method, (sent.get(method) ?? 0) + 1);
    return send(message, sendOptions);
  };
  await client.connect(transport, options.connectTimeoutMs ? { timeout: options.connectTimeoutMs } : undefined);
  // SDK v1's callTool(params, resultSchema, options) is v2's callTool(params, options): the
  // suites call it the v1 way, so request options (a cancel signal, a timeout) reach v2 too.
  const callTool = client.callTool.bind(client);
  Object.assign(client, {
    callTool: (params: never, second?: unknown, third?: unknown) =>
      callTool(params, (third ?? (second && typeof second === 'object' && !('parse' in second) ? second : undefined)) as never),
  });
  return {
    client: client as unknown as Client,
    era: 'modern',
    sent,
    notifications,
    waitForNotification: notificationWaiter(notifications, waiters),
    async setRoots(next) {
      // 2026-07-28 has no roots/list_changed: the next call that needs roots asks again.
      roots = next;
    },
    async close() {
      await client.close();
      await onClose?.();
    },
  };
}

/**
 * Client and server in one process, joined by an in-memory transport pair. The server
 * side reads the era from the opening message, as on stdio, so both eras work here.
 */
export async function connectInMemory(server: McpServer, options: ClientOptions = {}): Promise<Connection> {
  const [clientSide, serverSide] =
    options.era === 'modern' ? ModernInMemoryTransport.createLinkedPair() : InMemoryTransport.createLinkedPair();
  await server.connect(serverSide as never);
  return connectWith(clientSide as Transport, options);
}

/** Spawns a server process and talks to it over stdio. */
export async function connectStdio(
  command: string,
  args: string[],
  options: ClientOptions & { env?: Record<string, string>; cwd?: string; stderr?: 'inherit' | 'ignore' | 'pipe' } = {},
): Promise<Connection & { transport: StdioClientTransport }> {
  const parameters = {
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...options.env },
    cwd: options.cwd,
    stderr: options.stderr ?? 'ignore',
  } as const;
  const transport = options.era === 'modern' ? (new ModernStdioTransport(parameters) as unknown as StdioClientTransport) : new StdioClientTransport(parameters);
  const connection = await connectWith(transport, options);
  return Object.assign(connection, { transport });
}

/** Talks to a Streamable HTTP endpoint (`http://127.0.0.1:PORT/mcp`). */
export async function connectHttp(
  url: string,
  options: ClientOptions & { token?: string; headers?: Record<string, string> } = {},
): Promise<Connection> {
  const headers = { ...options.headers, ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) };
  const transport =
    options.era === 'modern'
      ? (new ModernHttpTransport(new URL(url), { requestInit: { headers } }) as unknown as StreamableHTTPClientTransport)
      : new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const connection = await connectWith(transport, options);
  const close = connection.close;
  connection.close = async () => {
    await transport.terminateSession().catch(() => undefined);
    await close();
  };
  return connection;
}
