import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import type {
  AnyObject,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
  WatchFunction,
  BaseContext,
} from './definitions.js';
import { createSubscriptionHub } from './subscriptions.js';
import { createStderrLogger, type Logger } from './logging.js';
import { DEFAULT_PAGE_SIZE } from './pagination.js';
import { openSession, type Era, type ServerSession } from './session.js';
import { createRequestStateSeal, type RequestStateSeal } from './protocol/input-required.js';
import { createListenChannel, listenedUris, type ListenChannel } from './protocol/listen.js';
import { createModernRequests } from './protocol/modern-requests.js';
import type { ServerDescription } from './describe.js';
import { createRegistry, type Registered } from './registry.js';
import type { LogLevel, Root } from './types.js';
import { createViewHandles, viewHandleKey, type ViewDefinition, type ViewHandles } from './views.js';
import { DEFAULT_MAX_RESULT_BYTES } from './result-budget.js';
import { errorMessage } from './errors.js';
import { parseRawJsonOnSend } from './raw-json.js';
import { LineTransport } from './transports/stdio-transport.js';
import { nodeCrypto } from './lazy-builtins.js';
import { endLeanStart, isWorkRequest } from './lean-start.js';

/** What a server's `context(session)` factory sees: one per connected client. */
export interface SessionInfo {
  readonly id: string;
  /**
   * `legacy` for a 2025 session (`initialize`); `modern` for a 2026-07-28 request, which
   * has no session: identity, capabilities and roots belong to that one request.
   */
  readonly era: Era;
  /**
   * The client's roots: undefined when it does not support roots (or the server turned
   * roots off), so the command-line ceiling applies. Asked lazily, on the stream of the
   * request in flight, and again after `roots/list_changed`. A client that declared roots
   * but does not answer (or answers with an error) never gets the ceiling instead: the
   * promise rejects with a ToolError that says so, which a tool call turns into an
   * isError result; the next call asks again.
   */
  roots(): Promise<readonly Root[] | undefined>;
  /** Grows each time the roots change (or a failed request is to be retried), so per-session caches know when to recompute. */
  readonly rootsVersion: number;
  /** Why the last roots/list failed, while no answer has replaced it. */
  readonly rootsError: string | undefined;
  readonly clientName: string | undefined;
}

export interface ServerConfig<Ext = unknown> {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
  /** Lists, or loaders that import them on first use (see `Registered`). */
  tools?: Registered<ToolDefinition<AnyObject, AnyObject, Ext>>;
  resources?: Registered<ResourceDefinition<Ext>>;
  templates?: Registered<ResourceTemplateDefinition<Ext>>;
  prompts?: Registered<PromptDefinition<AnyObject, Ext>>;
  /** MCP Apps views (`defineView`), read by hosts that render them; loaders like the tools'. */
  views?: Registered<ViewDefinition>;
  /**
   * What a view's handles are bound to besides this server (a database file, say). With a
   * shared `MCP_REQUEST_STATE_KEY` every instance opens a handle, so one minted for another
   * database is told apart by this. Random keys (the default) are per server anyway.
   */
  viewScope?: string;
  /** Builds the server's own handler context for a session (path policy, repositories...). */
  context?: (session: SessionInfo) => Ext;
  /** Starts watching a subscribed URI; see `createSubscriptionHub`. */
  watch?: WatchFunction<Ext>;
  /**
   * Whether a session may hear about changes to `uri`. Asked for every subscribing
   * session, because a watcher is shared: a session that may not see the resource still
   * gets a successful subscribe (the spec allows ones that never fire) and no updates.
   */
  canWatch?: (uri: string, ctx: BaseContext & Ext) => boolean | Promise<boolean>;
  /** Called after a session's roots changed (the base already sent resources/list_changed). */
  onRootsChanged?: (session: SessionInfo) => void;
  /**
   * Recognises the server's own domain errors: returns the message a model should see
   * (the call becomes an isError result with it), or undefined for unexpected errors.
   */
  describeError?: (error: unknown) => string | undefined;
  /** Page size of every list (`--page-size`). */
  pageSize?: number;
  /** The session log level before the client sets one, and the stderr threshold. */
  logLevel?: LogLevel;
  logger?: Logger;
  /** Debounce of `notifications/resources/updated` per URI. */
  debounceMs?: number;
  /** Whether to ask clients for roots (servers that do not use roots turn it off). */
  useRoots?: boolean;
  /** How long a roots/list may take before the session gets no access (default 10 s). */
  rootsTimeoutMs?: number;
  /**
   * The largest serialized tool result, in bytes (default 8 MiB, safely below the SDK
   * client's 10 MiB message limit). A larger one becomes an isError result that says how
   * to ask for less.
   */
  maxResultBytes?: number;
  /** How many URIs may be watched at once for subscriptions (default 1,000); more are refused. */
  maxWatched?: number;
  /** Called when the last session closes and the server is closed. */
  onClose?: () => void | Promise<void>;
}

/**
 * A server built from definitions. It can serve many sessions at once (one per stdio
 * connection, many over HTTP); definitions, watchers and the server's own state are
 * shared, while log level, roots and subscriptions belong to each session.
 */
export interface McpServer {
  readonly name: string;
  readonly version: string;
  /**
   * Serves one client over a message transport (stdio, in-memory). The opening message
   * picks the era for the connection: `initialize` a 2025 session, a request carrying the
   * 2026-07-28 `_meta` a modern one. `era: 'legacy'` skips that and serves a 2025 session
   * directly (an HTTP session, whose transport has already seen the `initialize`).
   */
  connect(transport: Transport, options?: { sessionId?: string; era?: 'legacy' }): Promise<{ close(): Promise<void> }>;
  /** A server instance for one 2026-07-28 HTTP request or one 2025 HTTP session (the HTTP entry's factory). */
  instance(era: Era, sessionId?: string): ServerSession;
  /**
   * The key that seals multi-round-trip state (`MCP_REQUEST_STATE_KEY`): several
   * instances behind a load balancer share it. Random per process when not set.
   */
  useRequestStateKey(key: string): void;
  /** Also calls `listener` on `notifyResourceListChanged` (the HTTP entry's listen streams); returns a remover. */
  onResourceListChanged(listener: () => void): () => void;
  /** Where `subscriptions/listen` streams get their resource updates (see `createListenChannel`). */
  openListenChannel(notify: (uri: string) => void): ListenChannel;
  notifyUpdated(uri: string): void;
  notifyResourceListChanged(): void;
  readonly sessionCount: number;
  /** Stops every watcher and closes every session. */
  close(): Promise<void>;
  /** Names, descriptions and schemas of everything registered (docs tables, tests). */
  describe(): Promise<ServerDescription>;
  /** How many URIs are being watched for subscriptions right now. */
  watchedCount(): number;
  /** Resolves when no request is in flight (or after `timeoutMs`): answer before exiting. */
  drain(timeoutMs: number): Promise<void>;
}

/**
 * Starts watchers for the URIs each `subscriptions/listen` on a connection names, and
 * stops them when the client cancels it or the connection ends. The SDK's entry answers
 * the listen itself and routes the notifications; it only needs them sent.
 */
function watchListens(transport: Transport, channel: ListenChannel) {
  const open = new Map<unknown, () => void>();
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const deliver = transport.onmessage;
    const closed = transport.onclose;
    transport.onmessage = ((message: unknown, extra?: unknown) => {
      const uris = listenedUris(message);
      const { id, method, params } = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
      const pass = () => (deliver as ((m: unknown, e?: unknown) => void) | undefined)?.(message, extra);
      if (method === 'notifications/cancelled') {
        open.get(params?.requestId)?.();
        open.delete(params?.requestId);
      }
      if (!uris) return pass();
      // The SDK acknowledges the listen at once; watchers start first, so no change made
      // after the acknowledgement is missed.
      void channel.open(uris).then((stop) => {
        open.set(id, stop);
        pass();
      });
    }) as never;
    transport.onclose = () => {
      void channel.close();
      closed?.();
    };
    return start();
  };
}

export function createServer<Ext = unknown>(config: ServerConfig<Ext>): McpServer {
  const logger = config.logger ?? createStderrLogger(config.name, config.logLevel ?? 'info');
  const sessions = new Map<string, ServerSession>();
  const pageSize = config.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`pageSize must be a positive integer, got ${pageSize}`);
  const registry = createRegistry<Ext>(config);
  const maxResultBytes = config.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  if (!Number.isInteger(maxResultBytes) || maxResultBytes < 1024) throw new Error(`maxResultBytes must be an integer of at least 1024, got ${maxResultBytes}`);
  const hub = createSubscriptionHub({ debounceMs: config.debounceMs ?? 100, logger, maxWatched: config.maxWatched });
  let seal: RequestStateSeal | undefined;
  let listenContext: ServerSession | undefined;
  const modern = createModernRequests<Ext>(config);
  const listChanged = new Set<() => void>();
  const sealOf = () => (seal ??= createRequestStateSeal());
  // View handles are sealed with the request-state key when one is set, so that a handle
  // minted on one HTTP instance opens on any other; random per server otherwise.
  let viewHandles: ViewHandles | undefined;
  const viewHandlesOf = () => (viewHandles ??= createViewHandles());
  let inflight = 0;
  const drained = new Set<() => void>();
  let listenChannels = 0;
  // Requests in flight, counted for drain(): a session calls `started` when one starts and
  // `finished` when it has answered. The first that does work ends the bin's lean start.
  const requests = {
    started: (method: string) => {
      inflight++;
      if (isWorkRequest(method)) endLeanStart();
    },
    finished: () => {
      if (--inflight === 0) for (const wake of drained) wake();
    },
  };

  const server: McpServer = {
    name: config.name,
    version: config.version,
    instance(era, sessionId) {
      const id = sessionId ?? nodeCrypto().randomUUID();
      const session: ServerSession = openSession<Ext>({
        id,
        era,
        config,
        logger,
        pageSize,
        maxResultBytes,
        hub,
        seal: sealOf(),
        viewHandles: viewHandlesOf,
        modern,
        requests,
        registry,
        notifyResourceListChanged: () => server.notifyResourceListChanged(),
        onClosed: () => {
          // A discarded server/discover probe shares its id with the instance that replaced it.
          if (sessions.get(id) !== session) return;
          sessions.delete(id);
          void hub.dropSession(id);
        },
      });
      sessions.set(id, session);
      return session;
    },
    async connect(transport, options = {}) {
      const id = options.sessionId ?? nodeCrypto().randomUUID();
      // Results may carry RawJson (raw-json.ts): the stdio transport writes it in as text,
      // any other transport is handed values.
      if (!(transport instanceof LineTransport)) parseRawJsonOnSend(transport);
      if (options.era === 'legacy') {
        const session = server.instance('legacy', id);
        await session.sdk.connect(transport);
        return session;
      }
      // The SDK's stdio entry reads the opening message and pins the era; it calls the
      // factory once more for a server/discover probe that a client may follow with
      // initialize, so building an instance must have no side effects.
      let pinned: ServerSession | undefined;
      const channel = server.openListenChannel((uri) => {
        pinned?.sdk.notification({ method: 'notifications/resources/updated', params: { uri } }).catch(() => undefined);
      });
      watchListens(transport, channel);
      const handle = serveSdkStdio(({ era }) => (pinned = server.instance(era, id)).sdk, {
        transport,
        onerror: (error) => logger.log('debug', `transport error: ${errorMessage(error)}`),
      });
      return {
        async close() {
          await channel.close();
          await handle.close();
        },
      };
    },
    openListenChannel(notify) {
      return createListenChannel<Ext>({
        // Unique in this process, which is all a hub key needs (and no crypto at start-up).
        id: `listen:${++listenChannels}`,
        hub,
        context: () => (listenContext ??= server.instance('modern', 'listen')).contextFor(undefined) as never,
        watch: config.watch,
        canWatch: config.canWatch,
        notify,
      });
    },
    useRequestStateKey(key) {
      seal = createRequestStateSeal(key);
      viewHandles = createViewHandles(viewHandleKey(key, config.viewScope));
    },
    notifyUpdated(uri) {
      hub.changed(uri);
    },
    notifyResourceListChanged() {
      for (const session of sessions.values()) session.sendResourceListChanged();
      for (const listener of listChanged) listener();
    },
    onResourceListChanged(listener) {
      listChanged.add(listener);
      return () => listChanged.delete(listener);
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.allSettled([...sessions.values()].map((session) => session.close()));
      sessions.clear();
      await hub.close();
      await config.onClose?.();
    },
    async describe() {
      return (await registry()).description;
    },
    watchedCount() {
      return hub.watchedCount();
    },
    async drain(timeoutMs) {
      if (inflight === 0) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          drained.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        drained.add(done);
      });
    },
  };
  return server;
}

