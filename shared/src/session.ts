import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { elicitationValidator } from './elicitation-validator.js';
import type { BaseContext, Completer, ToolContext } from './definitions.js';
import type { ServerConfig, SessionInfo } from './server.js';
import type { SubscriptionHub } from './subscriptions.js';
import type { Logger } from './logging.js';
import { levelAtLeast } from './logging.js';
import { registeredKinds, type Definitions, type Registry } from './registry.js';
import { decodeCursor, encodeCursor, paginateArray, paginateStream, paginateStreams, type Page } from './pagination.js';
import { capCompletions } from './completions.js';
import { describeZodError } from './json-schema.js';
import { ErrorCodes, ProtocolError, ToolError, errorMessage, invalidParams, resourceNotFound } from './errors.js';
import { embeddedResource, errorResult, renderJson, resourceLink, structuredResult } from './results.js';
import { describeBytes, fitResult, jsonBytes } from './result-budget.js';
import type { LogLevel, ResourceInfo, Root, ToolResult } from './types.js';
import { isViewUri, readView, rendersViews, withViewHandle } from './views.js';

export interface ServerSession {
  readonly id: string;
  readonly sdk: Server;
  sendResourceListChanged(): void;
  close(): Promise<void>;
}

interface SessionOptions<Ext> {
  id: string;
  config: ServerConfig<Ext>;
  logger: Logger;
  pageSize: number;
  maxResultBytes: number;
  hub: SubscriptionHub;
  track: <T>(work: () => Promise<T>) => Promise<T>;
  registry: () => Promise<Registry<Ext>>;
  /** Tells every session of the server, not only this one. */
  notifyResourceListChanged: () => void;
  onClosed: () => void;
}

const ROOTS_TIMEOUT_MS = 10_000;

/** Where a session's roots stand; `asking` is shared by every call that needs them meanwhile. */
type RootsState =
  | { kind: 'unasked' }
  | { kind: 'asking'; answer: Promise<readonly Root[]> }
  | { kind: 'known'; roots: readonly Root[] }
  | { kind: 'failed'; reason: string };
const LooseRootsResult = z.looseObject({
  roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })),
});

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

/** Capabilities follow from what the server registers (SDK v1 wants them up front). */
function capabilitiesOf(config: ServerConfig<never>): ServerCapabilities {
  const kinds = registeredKinds(config as Definitions<unknown>);
  return {
    logging: {},
    ...(kinds.tools ? { tools: { listChanged: false } } : {}),
    ...(kinds.prompts ? { prompts: { listChanged: false } } : {}),
    ...(kinds.resources ? { resources: { subscribe: true, listChanged: true } } : {}),
    ...(kinds.completions ? { completions: {} } : {}),
  };
}

/**
 * One client connection: an SDK `Server` with every handler wired to the definitions.
 * The SDK (v1) does not page, subscribe, complete optional prompt arguments or keep a
 * log level per session; all of that is done here.
 */
export function openSession<Ext>(options: SessionOptions<Ext>): ServerSession {
  const { id, config, logger, pageSize, hub } = options;
  const capabilities = capabilitiesOf(config as unknown as ServerConfig<never>);
  const sdk = new Server(
    { name: config.name, version: config.version, ...(config.title ? { title: config.title } : {}) },
    {
      capabilities,
      ...(config.instructions ? { instructions: config.instructions } : {}),
      // SDK v1 would build an Ajv instance per session to check elicitation answers.
      jsonSchemaValidator: elicitationValidator,
    },
  );

  type RequestExtra = {
    signal: AbortSignal;
    _meta?: { progressToken?: string | number };
    sendNotification: (n: never) => Promise<void>;
    sendRequest?: (request: never, schema: never, options?: never) => Promise<unknown>;
  };
  let level: LogLevel = config.logLevel ?? 'info';
  let closed = false;
  const sessionAbort = new AbortController();

  // Roots are asked lazily, when a handler first needs them, on the stream of the request
  // in flight (a related request): over HTTP the standalone GET stream may not be open, and
  // a request sent there would never be seen. Asked again after roots/list_changed.
  // Requests of this session in flight: a roots request rides on the newest one. (An
  // AsyncLocalStorage per session would cost every promise of the process a lookup per
  // session: 1,000 HTTP sessions made everything four times slower.)
  const inflight = new Set<RequestExtra>();
  const rootsTimeoutMs = config.rootsTimeoutMs ?? ROOTS_TIMEOUT_MS;
  let rootsVersion = 0;
  let rootsState: RootsState = { kind: 'unasked' };
  let initialized!: () => void;
  const whenInitialized = new Promise<void>((resolve) => (initialized = resolve));
  const clientSupportsRoots = () => Boolean(sdk.getClientCapabilities()?.roots);

  // The SDK's own listRoots() rejects the whole answer if one root is not file://, which
  // would drop every root; each root is judged by the server instead.
  function askRoots(): Promise<readonly Root[]> {
    let extra: RequestExtra | undefined;
    for (const candidate of inflight) if (!candidate.signal.aborted && candidate.sendRequest) extra = candidate;
    const request = { method: 'roots/list' } as const;
    const asking = extra?.sendRequest
      ? extra.sendRequest(request as never, LooseRootsResult as never, { timeout: rootsTimeoutMs, signal: extra.signal } as never)
      : sdk.request(request, LooseRootsResult, { timeout: rootsTimeoutMs, signal: sessionAbort.signal });
    const answer: Promise<readonly Root[]> = (asking as Promise<z.output<typeof LooseRootsResult>>).then(
      (result) => {
        const roots = result.roots.map(({ uri, name }) => (name === undefined ? { uri } : { uri, name }));
        if (rootsState.kind === 'asking' && rootsState.answer === answer) rootsState = { kind: 'known', roots };
        return roots;
      },
      (error) => {
        const reason = errorMessage(error);
        if (rootsState.kind === 'asking' && rootsState.answer === answer) {
          rootsState = { kind: 'failed', reason };
          // Caches keyed on the version recompute, so the next call asks again.
          rootsVersion++;
        }
        logger.log('warning', `roots/list failed; this session gets no access until the client answers: ${reason}`);
        throw new ToolError(
          `The client did not answer roots/list (${reason}), so this session has no access: a client that declares roots ` +
            'gets at most its roots, never the whole configured ceiling. Call again (roots are asked again), ' +
            'or check that the client answers roots/list.',
        );
      },
    );
    return answer;
  }

  const info: SessionInfo = {
    id,
    async roots() {
      if (config.useRoots === false) return undefined;
      // Capabilities are known from the initialize request on.
      if (!clientSupportsRoots()) return undefined;
      if (rootsState.kind === 'known') return rootsState.roots;
      if (rootsState.kind !== 'asking') rootsState = { kind: 'asking', answer: askRoots() };
      return rootsState.answer;
    },
    get rootsVersion() {
      return rootsVersion;
    },
    get rootsError() {
      return rootsState.kind === 'failed' ? rootsState.reason : undefined;
    },
    get clientName() {
      return sdk.getClientVersion()?.name;
    },
  };
  const ext = config.context ? config.context(info) : ({} as Ext);

  const send = (method: string, params: Record<string, unknown>) => {
    if (closed) return;
    sdk.notification({ method, params } as never).catch((error) => {
      logger.log('debug', `could not send ${method}: ${errorMessage(error)}`);
    });
  };

  function log(messageLevel: LogLevel, message: string, data?: unknown) {
    logger.log(messageLevel, message, data);
    if (!levelAtLeast(messageLevel, level)) return;
    send('notifications/message', {
      level: messageLevel,
      logger: config.name,
      data: data === undefined ? message : { message, data },
    });
  }

  function baseContext(extra: RequestExtra): BaseContext {
    const progressToken = extra._meta?.progressToken;
    const signal = AbortSignal.any([extra.signal, sessionAbort.signal]);
    return {
      signal,
      sessionId: id,
      pageSize,
      async progress(progress, total, message) {
        if (progressToken === undefined || signal.aborted) return;
        await extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
          } as never)
          .catch(() => undefined);
      },
      log,
      async confirm(question, confirmOptions) {
        if (!sdk.getClientCapabilities()?.elicitation?.form) return confirmOptions?.whenUnavailable ?? true;
        const answer = await sdk.elicitInput(
          {
            message: question,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean', title: 'Go ahead', description: question } },
              required: ['confirm'],
            },
          },
          { signal },
        );
        return answer.action === 'accept' && answer.content?.confirm === true;
      },
      roots: info.roots,
      link: resourceLink,
      embed: embeddedResource,
      page(source, { cursor, keyOf, limit }) {
        return paginateStream(TOOL_CURSORS, source, keyOf, cursor, limit ?? pageSize);
      },
      cursor: toolCursors,
      notifyUpdated: hub.changed,
      notifyResourceListChanged: options.notifyResourceListChanged,
      // --- views (MCP Apps) ---
      openViewHandle: async (handle, tool) => (await options.registry()).viewHandles.open(handle, tool),
    };
  }

  /** A resource or prompt answer over the result budget is refused, not sent for the client to drop. */
  function withinBudget<T>(what: string, answer: T): T {
    const size = jsonBytes(answer, options.maxResultBytes * 4);
    if (size <= options.maxResultBytes) return answer;
    const shown = size > options.maxResultBytes * 4 ? `more than ${describeBytes(options.maxResultBytes * 4)}` : describeBytes(size);
    throw new ProtocolError(
      ErrorCodes.InternalError,
      `${what} is ${shown}, over the ${describeBytes(options.maxResultBytes)} a response may carry; use a tool that reads part of it.`,
    );
  }

  /** The message of a failure the caller can act on (ToolError or a server's domain error). */
  const describeFailure = (error: unknown): string | undefined =>
    error instanceof ToolError ? error.message : config.describeError?.(error);

  /** A list answered from the registry's descriptors, a page at a time. */
  function onList<K extends 'tools' | 'prompts' | 'resourceTemplates'>(
    schema: typeof ListToolsRequestSchema | typeof ListPromptsRequestSchema | typeof ListResourceTemplatesRequestSchema,
    key: K,
    items: (registry: Registry<Ext>) => readonly unknown[],
  ) {
    const method = methodOf(schema);
    on(schema, async (request) => {
      return listResult(key, paginateArray(method, items(await options.registry()), request.params?.cursor, pageSize));
    });
  }

  const contextFor = (extra: RequestExtra) => ({ ...baseContext(extra), ...ext }) as BaseContext & Ext;

  /**
   * Registers a handler. The SDK parses params with its schema before calling a handler
   * and reports a mismatch as -32603 (internal error); here malformed params are -32602,
   * as the spec asks, and every other failure becomes a JSON-RPC error the client can read.
   */
  function on<S extends z.ZodType<{ method: string }>>(
    schema: S,
    handler: (request: z.output<S>, extra: RequestExtra) => Promise<unknown>,
  ) {
    const method = methodOf(schema);
    const loose = z.object({ method: z.literal(method), params: z.optional(z.unknown()) }).passthrough();
    const run = async (request: unknown, extra: RequestExtra) => {
      const parsed = schema.safeParse(request);
      if (!parsed.success) throw invalidParams(`Invalid params for ${method}: ${describeZodError(parsed.error as never)}`);
      try {
        return await handler(parsed.data, extra);
      } catch (error) {
        // The SDK answers with error.code/message/data; McpError would prefix the message.
        if (error instanceof ProtocolError || error instanceof McpError) throw error;
        // A domain error (a missing file for a prompt, say) is the caller's to fix.
        const described = describeFailure(error);
        if (described !== undefined) throw invalidParams(described);
        logger.log('error', `${method} failed`, errorMessage(error));
        throw new ProtocolError(ErrorCodes.InternalError, errorMessage(error));
      }
    };
    sdk.setRequestHandler(
      loose,
      ((request: unknown, extra: RequestExtra) =>
        options.track(async () => {
          inflight.add(extra);
          try {
            return await run(request, extra);
          } finally {
            inflight.delete(extra);
          }
        })) as never,
    );
  }

  // The SDK answers an initialize with bad params -32603 and a multi-line zod dump; the
  // spec asks for -32602 (the SDK's own handler still negotiates the version).
  const sdkInitialize = (sdk as unknown as { _oninitialize(request: unknown): Promise<unknown> })._oninitialize.bind(sdk);
  on(InitializeRequestSchema, (request) => sdkInitialize(request));

  on(
    SetLevelRequestSchema,
    async (request) => {
      level = request.params.level;
      return {};
    },
  );

  if (capabilities.tools) {
    // --- views (MCP Apps): clients that render views also see app-only tools and `_meta.ui` ---
    onList(ListToolsRequestSchema, 'tools', (r) => (rendersViews(sdk.getClientCapabilities()) ? r.appTools : r.description.tools));
    on(
      CallToolRequestSchema,
      async (request, extra): Promise<ToolResult> => {
        const tool = (await options.registry()).tools.get(request.params.name);
        if (!tool) throw invalidParams(`Unknown tool: ${request.params.name}. Call tools/list to see the tools.`);
        const parsed = tool.input.safeParse(request.params.arguments ?? {});
        if (!parsed.success) {
          return errorResult(
            `Invalid arguments for ${tool.name}: ${describeZodError(parsed.error)}. Fix the arguments and call again.`,
          );
        }
        const render = tool.render ?? renderJson;
        const ctx: ToolContext<unknown> & Ext = {
          ...contextFor(extra),
          result: (structured, content) =>
            structuredResult(structured as Record<string, unknown>, render(structured as never), content),
          error: errorResult,
        };
        const started = performance.now();
        try {
          const result = await tool.handler(parsed.data, ctx as never);
          log('debug', `${tool.name} ${result.isError ? 'failed' : 'done'} in ${Math.round(performance.now() - started)} ms`);
          // Every result is held to the budget, so no client is sent more than it accepts.
          const fitted = fitResult(result, options.maxResultBytes, tool.name, tool.whenTooLarge);
          // --- views (MCP Apps): the view gets a sealed handle of this call, other clients nothing new ---
          if (!tool.view || !rendersViews(sdk.getClientCapabilities())) return fitted;
          const { viewHandles } = await options.registry();
          return withViewHandle(fitted, () => viewHandles.seal({ tool: tool.name, args: parsed.data }));
        } catch (error) {
          if (ctx.signal.aborted) return errorResult(`${tool.name} was cancelled.`);
          // A bad cursor or argument found by the handler is the caller's to fix, like any bad argument.
          if (error instanceof ProtocolError && error.code === ErrorCodes.InvalidParams) return errorResult(error.message);
          if (error instanceof ProtocolError) throw error;
          const described = describeFailure(error);
          if (described !== undefined) return errorResult(described);
          logger.log('error', `${tool.name} failed`, errorMessage(error));
          return errorResult(`${tool.name} failed: ${errorMessage(error)}`);
        }
      },
    );
  }

  if (capabilities.prompts) {
    onList(ListPromptsRequestSchema, 'prompts', (r) => r.description.prompts);
    on(
      GetPromptRequestSchema,
      async (request, extra) => {
        const prompt = (await options.registry()).prompts.get(request.params.name);
        if (!prompt) throw invalidParams(`Unknown prompt: ${request.params.name}`);
        const parsed = prompt.args.safeParse(request.params.arguments ?? {});
        if (!parsed.success) throw invalidParams(`Invalid arguments for prompt ${prompt.name}: ${describeZodError(parsed.error)}`);
        return withinBudget(`prompt ${prompt.name}`, await prompt.handler(parsed.data, contextFor(extra))) as never;
      },
    );
  }

  if (capabilities.resources) {
    on(
      ListResourcesRequestSchema,
      async (request, extra) => {
        const ctx = contextFor(extra);
        const { description, templates } = await options.registry();
        const fixed: ResourceInfo[] = description.resources;
        const sources = [
          (after: string | undefined) => (after === undefined ? fixed : fixed.slice(fixed.findIndex((r) => r.uri === after) + 1)),
          ...templates
            .filter(({ definition }) => definition.list)
            .map(({ definition }) => (after: string | undefined) => definition.list!(after, ctx)),
        ];
        const page = await paginateStreams('resources/list', sources, (r) => r.uri, request.params?.cursor, pageSize);
        return listResult('resources', page);
      },
    );
    onList(ListResourceTemplatesRequestSchema, 'resourceTemplates', (r) => r.description.templates);
    on(
      ReadResourceRequestSchema,
      async (request, extra) => {
        const { uri } = request.params;
        const ctx = contextFor(extra);
        const { resources, templates, views } = await options.registry();
        // --- views (MCP Apps) ---
        if (isViewUri(uri)) return readView(views, uri);
        const fixed = resources.find((resource) => resource.uri === uri);
        if (fixed) return withinBudget(uri, { contents: await fixed.read(ctx) });
        for (const { definition, matcher } of templates) {
          const variables = matchTemplate(matcher, uri);
          if (variables) return withinBudget(uri, { contents: await definition.read(uri, variables, ctx) });
        }
        throw resourceNotFound(uri, 'Call resources/list or resources/templates/list to see what this server serves.');
      },
    );
    on(
      SubscribeRequestSchema,
      async (request, extra) => {
        const { uri } = request.params;
        if (!hub.isSubscribed(id, uri)) {
          const watch = config.watch;
          const ctx = contextFor(extra);
          const allowed = await Promise.resolve(config.canWatch?.(uri, ctx) ?? true).catch(() => false);
          if (!allowed) return {};
          await hub.subscribe(
            id,
            uri,
            (changed) => send('notifications/resources/updated', { uri: changed }),
            watch && ((watched, changed) => watch(watched, changed, ctx)),
          );
        }
        return {};
      },
    );
    on(
      UnsubscribeRequestSchema,
      async (request) => {
        await hub.unsubscribe(id, request.params.uri);
        return {};
      },
    );
  }

  if (capabilities.completions) {
    on(
      CompleteRequestSchema,
      async (request, extra) => {
        const { ref, argument, context } = request.params;
        let completer: Completer<Ext> | undefined;
        if (ref.type === 'ref/prompt') {
          const prompt = (await options.registry()).prompts.get(ref.name);
          if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}`);
          completer = (prompt.complete as Record<string, Completer<Ext>> | undefined)?.[argument.name];
        } else if (ref.type === 'ref/resource') {
          const template = (await options.registry()).templates.find((t) => t.definition.uriTemplate === ref.uri)?.definition;
          if (!template) throw invalidParams(`Unknown resource template: ${ref.uri}`);
          completer = template.complete?.[argument.name];
        }
        if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
        const values = await completer(argument.value, contextFor(extra), {
          arguments: context?.arguments ?? {},
        });
        return { completion: capCompletions(values) };
      },
    );
  }

  sdk.oninitialized = () => initialized();
  sdk.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await whenInitialized;
    if (config.useRoots === false || !clientSupportsRoots()) return;
    // The new roots are asked when a handler next needs them.
    rootsState = { kind: 'unasked' };
    rootsVersion++;
    log('info', 'client roots changed');
    if (capabilities.resources) send('notifications/resources/list_changed', {});
    // Subscriptions the new roots no longer allow stop reporting changes.
    if (config.canWatch) {
      const ctx = contextFor({ signal: sessionAbort.signal, sendNotification: async () => undefined });
      for (const uri of hub.subscriptionsOf(id)) {
        const allowed = await Promise.resolve(config.canWatch(uri, ctx)).catch(() => false);
        if (!allowed) await hub.unsubscribe(id, uri);
      }
    }
    config.onRootsChanged?.(info);
  });

  sdk.onclose = () => {
    if (closed) return;
    closed = true;
    sessionAbort.abort(new Error('session closed'));
    options.onClosed();
  };
  sdk.onerror = (error) => logger.log('debug', `transport error: ${errorMessage(error)}`);

  return {
    id,
    sdk,
    sendResourceListChanged: () => send('notifications/resources/list_changed', {}),
    async close() {
      await sdk.close();
    },
  };
}

/** The method name an SDK request schema stands for (its `method` literal). */
function methodOf(schema: unknown): string {
  return (schema as { shape: { method: { value: string } } }).shape.method.value;
}

/** A page of a list as the protocol answers it: `nextCursor` only when more follow. */
function listResult<K extends string, T>(key: K, page: Page<T>): Record<K, T[]> & { nextCursor?: string } {
  return { [key]: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } as Record<K, T[]> & { nextCursor?: string };
}

/** Template variables, percent-decoded; undefined when the URI does not match. */
function matchTemplate(matcher: UriTemplate, uri: string): Record<string, string> | undefined {
  let match: Record<string, string | string[]> | null;
  try {
    match = matcher.match(uri);
  } catch {
    return undefined;
  }
  if (!match) return undefined;
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(match)) {
    const raw = Array.isArray(value) ? value.join(',') : value;
    try {
      variables[name] = decodeURIComponent(raw);
    } catch {
      throw invalidParams(`Malformed percent-encoding in ${uri}`);
    }
  }
  return variables;
}

