import type { ServerContext } from '@modelcontextprotocol/server';
import type { BaseContext } from './definitions.js';
import type { ServerConfig, SessionInfo } from './server.js';
import type { SubscriptionHub } from './subscriptions.js';
import type { Logger } from './logging.js';
import type { Registry } from './registry.js';
import { decodeCursor, encodeCursor, paginateStream } from './pagination.js';
import { ToolError, errorMessage } from './errors.js';
import { embeddedResource, resourceLink } from './results.js';
import { BaseServer, budgetCheck, failureDescriber, protocolFailure, type Era, type Scope } from './protocol/scope.js';
import { CACHE_HINTS, capabilitiesOf } from './protocol/discovery.js';
import { legacyRoots } from './protocol/roots.js';
import { registerLogging } from './protocol/logging.js';
import { registerTools } from './protocol/tools.js';
import { registerPrompts } from './protocol/prompts.js';
import { registerResources } from './protocol/resources.js';
import { registerCompletions } from './protocol/completions.js';
import { askFor, confirmFor, elicitFor, sampleFor } from './protocol/confirmations.js';
import { elicitationValidator } from './elicitation-validator.js';
import type { RequestStateSeal } from './protocol/input-required.js';
import type { ModernRequests } from './protocol/modern-requests.js';
import type { ViewHandles } from './views.js';

export type { Era } from './protocol/scope.js';

export interface ServerSession {
  readonly id: string;
  readonly era: Era;
  readonly sdk: BaseServer;
  /** A handler context outside any request (subscription watchers). */
  contextFor(ctx: undefined): BaseContext;
  sendResourceListChanged(): void;
  close(): Promise<void>;
}

export interface SessionOptions<Ext> {
  id: string;
  era: Era;
  config: ServerConfig<Ext>;
  logger: Logger;
  pageSize: number;
  maxResultBytes: number;
  hub: SubscriptionHub;
  seal: RequestStateSeal;
  /** Seals and opens the handles that views hand back to app-only tools (MCP Apps). */
  viewHandles: () => ViewHandles;
  /** The server's 2026-07-28 requests: their shared context and the request in flight. */
  modern: ModernRequests<Ext>;
  /** Told when a request starts and when it has been answered (the server's drain() waits for none in flight). */
  requests: { started(method: string): void; finished(): void };
  registry: () => Promise<Registry<Ext>>;
  /** Tells every session of the server, not only this one. */
  notifyResourceListChanged: () => void;
  onClosed: () => void;
}

/** Cursors that tools hand out, kept apart from those of the protocol's own lists. */
const TOOL_CURSORS = 'tool-page';
const toolCursors = {
  encode: (key: string) => encodeCursor(TOOL_CURSORS, { k: key }),
  // A bad cursor is a bad argument like any other: an isError result, not a protocol error.
  decode(cursor: string): string {
    let k: string | undefined;
    try {
      k = decodeCursor(TOOL_CURSORS, cursor).k;
    } catch {
      k = undefined;
    }
    if (k === undefined) {
      throw new ToolError(`Invalid cursor "${cursor.slice(0, 40)}": use the nextCursor of the previous call, or omit cursor to start over.`);
    }
    return k;
  },
};


/**
 * One SDK `Server` instance with every protocol area wired to the definitions: a 2025
 * connection (stdio, in-memory, an HTTP session), a 2026-07-28 stdio connection, or one
 * 2026-07-28 HTTP request. Building one has no side effect beyond the object itself: the
 * stdio entry builds one for a `server/discover` probe and may discard it. Each area
 * lives in its own module under `protocol/`.
 */
export function openSession<Ext>(options: SessionOptions<Ext>): ServerSession {
  const { id, era, config, logger } = options;
  const capabilities = capabilitiesOf(config as unknown as ServerConfig<never>);
  const sdk = new BaseServer(
    { name: config.name, version: config.version, ...(config.title ? { title: config.title } : {}) },
    {
      capabilities,
      ...(config.instructions ? { instructions: config.instructions } : {}),
      cacheHints: CACHE_HINTS,
      // The SDK would otherwise load Ajv to check elicitation answers.
      jsonSchemaValidator: elicitationValidator,
      requestState: { verify: (state) => options.seal.verify(state) },
    },
  );
  let closed = false;
  const sessionAbort = new AbortController();
  const inflight = new Set<ServerContext>();
  const rounds = options.modern.rounds;
  const roots = legacyRoots({ sdk, enabled: config.useRoots !== false, timeoutMs: config.rootsTimeoutMs, logger, inflight });

  const sessionInfo: SessionInfo = {
    id,
    era,
    roots: roots.roots,
    get rootsVersion() {
      return roots.version;
    },
    get rootsError() {
      return roots.error;
    },
    get clientName() {
      return sdk.getClientVersion()?.name;
    },
  };
  const sessionExt = era === 'legacy' && config.context ? config.context(sessionInfo) : undefined;
  const logFor = (ctx: ServerContext | undefined) => log(ctx);
  let log: ReturnType<typeof registerLogging>;

  // The members of a handler context that are the same for every request of the session,
  // made once: a context is built on every call, and most calls are small.
  const page: BaseContext['page'] = (source, { cursor, keyOf, limit }) => paginateStream(TOOL_CURSORS, source, keyOf, cursor, limit ?? options.pageSize);
  const openViewHandle: BaseContext['openViewHandle'] = async (handle, tool) => options.viewHandles().open(handle, tool);

  /**
   * The context of one request, with the server's own members (`ext`) and the caller's
   * (`extra`: a tool's `result`) written into the same object: one object per call, not
   * a copy of a copy.
   */
  function requestContext<T extends object>(ctx: ServerContext | undefined, info: SessionInfo, ext: object | undefined, extra?: T): BaseContext & T {
    const progressToken = ctx?.mcpReq._meta?.progressToken;
    // A request's own signal is enough: when the connection closes, the SDK aborts every
    // request in flight in the same step that tells us (Protocol._onclose), so there is no
    // need to combine it with the session's (AbortSignal.any costs a signal and a listener
    // per call).
    const signal = ctx ? ctx.mcpReq.signal : sessionAbort.signal;
    const round = ctx ? rounds.get(ctx) : undefined;
    const ask = askFor(scope, ctx, round);
    const context: BaseContext = {
      signal,
      sessionId: id,
      pageSize: options.pageSize,
      async progress(progress, total, message) {
        if (!ctx || progressToken === undefined || signal.aborted) return;
        await ctx.mcpReq
          .notify({
            method: 'notifications/progress',
            params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
          })
          .catch(() => undefined);
      },
      log: logFor(ctx),
      confirm: confirmFor(scope, ctx, round),
      elicit: elicitFor(scope, ctx, round),
      ask,
      sample: sampleFor(ask),
      roots: info.roots,
      link: resourceLink,
      embed: embeddedResource,
      page,
      cursor: toolCursors,
      notifyUpdated: options.hub.changed,
      notifyResourceListChanged: options.notifyResourceListChanged,
      // --- views (MCP Apps) ---
      openViewHandle,
      ...ext,
      ...extra,
    };
    return context as BaseContext & T;
  }

  const scope: Scope<Ext> = {
    id,
    era,
    sdk,
    config,
    logger,
    pageSize: options.pageSize,
    maxResultBytes: options.maxResultBytes,
    hub: options.hub,
    registry: options.registry,
    seal: options.seal,
    viewHandles: options.viewHandles,
    closed: sessionAbort.signal,
    notifyResourceListChanged: options.notifyResourceListChanged,
    contextFor(ctx, extra) {
      if (era === 'legacy') return requestContext(ctx, sessionInfo, sessionExt as object | undefined, extra) as never;
      const { info, ext } = options.modern.forRequest(ctx);
      return requestContext(ctx, info, ext as object, extra) as never;
    },
    send(method, params) {
      if (closed) return;
      sdk.notification({ method, params } as never).catch((error) => {
        logger.log('debug', `could not send ${method}: ${errorMessage(error)}`);
      });
    },
    on(method, handler) {
      // One async function per request: counting it in flight, the handler, and turning a
      // failure into a protocol error (protocolFailure) take no wrapper promises of their own.
      sdk.setRequestHandler(
        method as never,
        (async (request: never, ctx: ServerContext) => {
          options.requests.started(method);
          inflight.add(ctx);
          try {
            return await handler(request, ctx);
          } catch (error) {
            throw protocolFailure(scope, method, error);
          } finally {
            inflight.delete(ctx);
            options.requests.finished();
          }
        }) as never,
      );
    },
    withinBudget: budgetCheck(options.maxResultBytes),
    describeFailure: failureDescriber(config as unknown as ServerConfig<never>),
  };

  log = registerLogging(scope);
  if (capabilities.tools) registerTools(scope, rounds);
  if (capabilities.prompts) registerPrompts(scope, rounds);
  if (capabilities.resources) registerResources(scope, rounds);
  if (capabilities.completions) registerCompletions(scope);

  if (era === 'legacy') {
    let initialized!: () => void;
    const whenInitialized = new Promise<void>((resolve) => (initialized = resolve));
    sdk.oninitialized = () => initialized();
    sdk.setNotificationHandler('notifications/roots/list_changed', async () => {
      await whenInitialized;
      if (config.useRoots === false || !sdk.getClientCapabilities()?.roots) return;
      // The new roots are asked when a handler next needs them.
      roots.invalidate();
      log(undefined)('info', 'client roots changed');
      if (capabilities.resources) scope.send('notifications/resources/list_changed', {});
      // Subscriptions the new roots no longer allow stop reporting changes.
      if (config.canWatch) {
        const ctx = scope.contextFor(undefined as never);
        for (const uri of options.hub.subscriptionsOf(id)) {
          const allowed = await Promise.resolve(config.canWatch(uri, ctx)).catch(() => false);
          if (!allowed) await options.hub.unsubscribe(id, uri);
        }
      }
      config.onRootsChanged?.(sessionInfo);
    });
  }

  sdk.onclose = () => {
    if (closed) return;
    closed = true;
    sessionAbort.abort(new Error('session closed'));
    options.onClosed();
  };
  sdk.onerror = (error) => logger.log('debug', `transport error: ${errorMessage(error)}`);

  return {
    id,
    era,
    sdk,
    contextFor: () => scope.contextFor(undefined as never),
    sendResourceListChanged: () => scope.send('notifications/resources/list_changed', {}),
    async close() {
      await sdk.close();
    },
  };
}
