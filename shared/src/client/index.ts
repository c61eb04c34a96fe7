import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '../server.js';
import type { Root } from '../types.js';

export { Client };
export type { McpServer };

export interface ReceivedNotification {
  method: string;
  params?: Record<string, unknown>;
}

export interface ClientOptions {
  name?: string;
  /**
   * Declares the roots capability and answers roots/list with these; a function is asked
   * each time (one that never resolves makes a client that declares roots but never answers).
   */
  roots?: Root[] | (() => Promise<Root[]>);
  /** Declares elicitation and answers each request with this. */
  elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  /** Extensions declared at initialize, e.g. `{ 'io.modelcontextprotocol/ui': { mimeTypes: [...] } }` (MCP Apps). */
  extensions?: Record<string, object>;
  /** Time limit of the initialize request (the SDK's default is 60 s; `npx` may install first). */
  connectTimeoutMs?: number;
}

/** A connected SDK client plus what tests and tools need around it. */
export interface Connection {
  client: Client;
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
  let roots: Root[] | (() => Promise<Root[]>) = options.roots ?? [];
  const client = new Client(
    { name: options.name ?? 'mcp-reference-test-client', version: '0.0.0' },
    {
      capabilities: {
        ...(options.roots ? { roots: { listChanged: true } } : {}),
        ...(options.elicit ? { elicitation: { form: {} } } : {}),
        ...(options.extensions ? { extensions: options.extensions } : {}),
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
  await client.connect(transport, options.connectTimeoutMs ? { timeout: options.connectTimeoutMs } : undefined);
  return {
    client,
    notifications,
    waitForNotification(method, match = () => true, timeoutMs = 5_000) {
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
    },
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

/** Client and server in one process, joined by the SDK's in-memory transport pair. */
export async function connectInMemory(server: McpServer, options: ClientOptions = {}): Promise<Connection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return connectWith(clientSide, options);
}

/** Spawns a server process and talks to it over stdio. */
export async function connectStdio(
  command: string,
  args: string[],
  options: ClientOptions & { env?: Record<string, string>; cwd?: string; stderr?: 'inherit' | 'ignore' | 'pipe' } = {},
): Promise<Connection & { transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...options.env },
    cwd: options.cwd,
    stderr: options.stderr ?? 'ignore',
  });
  const connection = await connectWith(transport, options);
  return Object.assign(connection, { transport });
}

/** Talks to a Streamable HTTP endpoint (`http://127.0.0.1:PORT/mcp`). */
export async function connectHttp(
  url: string,
  options: ClientOptions & { token?: string; headers?: Record<string, string> } = {},
): Promise<Connection> {
  const headers = { ...options.headers, ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const connection = await connectWith(transport, options);
  const close = connection.close;
  connection.close = async () => {
    await transport.terminateSession().catch(() => undefined);
    await close();
  };
  return connection;
}
