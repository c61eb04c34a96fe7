import type { z } from 'zod';
import type {
  Annotations,
  Answers,
  ContentBlock,
  Disposer,
  ElicitAnswer,
  EmbeddedResource,
  LogLevel,
  PromptMessage,
  PromptResult,
  Question,
  ResourceContents,
  ResourceInfo,
  ResourceLink,
  Root,
  SampleAnswer,
  SampleRequest,
  ToolAnnotations,
  ToolResult,
} from './types.js';
import type { Page } from './pagination.js';
import type { ViewUri, Visibility } from './views.js';

/** What every handler gets, whatever it handles. */
export interface BaseContext {
  /** Aborted when the client cancels the request or the session ends. */
  readonly signal: AbortSignal;
  readonly sessionId: string | undefined;
  /** The configured page size for listings (`--page-size`, default 100). */
  readonly pageSize: number;
  /** Sends `notifications/progress` when the client asked for progress; otherwise a no-op. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** `notifications/message` to this session, filtered by its `logging/setLevel`. */
  log(level: LogLevel, message: string, data?: unknown): void;
  /**
   * Asks the user through elicitation, for calls that destroy data. Clients without
   * elicitation get the older servers' behaviour: `whenUnavailable` (default true, the
   * call goes ahead; pass false where the older server refused instead). `subject` names
   * the state the question is about (a fingerprint of the files it would discard): on
   * 2026-07-28, where the call runs again from the top with the answer, an answer counts
   * only for the same question about the same subject, so a change between the rounds
   * that leaves the question's words alike is asked about again.
   */
  confirm(question: string, options?: { whenUnavailable?: boolean; subject?: string }): Promise<boolean>;
  /**
   * Asks the user to fill a form (elicitation): a flat object of primitive fields. `key`
   * names the question (on 2026-07-28 the answer comes back under it, on the next round of
   * the call, so keep it stable). Resolves with the answer, or undefined when the client
   * declared no elicitation. On 2026-07-28 the handler stops here and runs again from the
   * top with the answer: ask before any side effect.
   */
  elicit(request: { key: string; message: string; requestedSchema: Record<string, unknown> }): Promise<ElicitAnswer | undefined>;
  /**
   * Asks several things at once, each under its key: forms, completions from the client's
   * model (sampling) and the client's roots. On 2026-07-28 they go out together in one
   * `input_required` round (the handler runs again from the top with all the answers); on
   * 2025 one request after the other on the call's stream. A question whose capability the
   * client did not declare is not asked: its answer is undefined. Keys are the handler's
   * own (stable across rounds); `roots` and `confirm-*` are the base's. With `required`, a
   * missing capability ends the call instead: a -32021 error naming it (HTTP 400).
   */
  ask<Qs extends Record<string, Question>>(questions: Qs, options?: { required?: boolean }): Promise<Answers<Qs>>;
  /** One completion from the client's model (`ctx.ask` with one `sample` question); undefined without sampling. */
  sample(request: { key: string } & SampleRequest): Promise<SampleAnswer | undefined>;
  /** The client's roots (awaiting the first answer), or undefined if it has none. */
  roots(): Promise<readonly Root[] | undefined>;
  /** A `resource_link` content block. */
  link(uri: string, meta?: Partial<Omit<ResourceLink, 'type' | 'uri'>>): ResourceLink;
  /** An embedded resource content block. */
  embed(contents: ResourceContents, annotations?: Annotations): EmbeddedResource;
  /**
   * Pages a stream that resumes after a key, with cursors private to this handler: the
   * building block for tools whose listings can be large.
   */
  page<T>(
    source: (after: string | undefined) => AsyncIterable<T> | Iterable<T>,
    options: { cursor?: string; keyOf: (item: T) => string; limit?: number },
  ): Promise<Page<T>>;
  /**
   * Opaque cursors for a handler that pages by itself (a tree, say): `encode` the key to
   * resume after, `decode` what the client sent back (a bad cursor is a -32602 error).
   */
  cursor: { encode(key: string): string; decode(cursor: string): string };
  /** Fires `notifications/resources/updated` for subscribers of `uri` (debounced). */
  notifyUpdated(uri: string): void;
  /** Fires `notifications/resources/list_changed` to every session. */
  notifyResourceListChanged(): void;
  // --- views (MCP Apps) ---
  /** The arguments of the `tool` call behind a view's handle; a ToolError for any other handle. */
  openViewHandle(handle: string, tool: string): Promise<Record<string, unknown>>;
}

export interface ToolContext<Out> extends BaseContext {
  /** The successful result: `structuredContent` plus its text rendering, then `content`. */
  result(structured: Out, content?: ContentBlock[]): ToolResult;
  /** A failed call the model can recover from: say what to do instead. */
  error(message: string): ToolResult;
}

export type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ToolDefinition<In extends AnyObject = AnyObject, Out extends AnyObject = AnyObject, Ext = unknown> {
  name: string;
  title?: string;
  description: string;
  input: In;
  output: Out;
  annotations?: ToolAnnotations;
  /**
   * The text rendering of a result (bounded JSON by default). A result that would not fit
   * the result budget keeps its structuredContent and gets a shortened text.
   */
  render?: (output: z.output<Out>) => string;
  /**
   * How to ask for less when a result is over the budget (`maxResultBytes`), e.g. "Pass
   * head or tail, or a narrower path." Appended to the isError message.
   */
  whenTooLarge?: string;
  // --- views (MCP Apps) ---
  /** The view a host renders this tool's results in (`_meta.ui.resourceUri` on tools/list). */
  view?: ViewUri;
  /** Who may call it (default both); `['app']` tools are listed only to clients with views. */
  visibility?: Visibility[];
  handler: (args: z.output<In>, ctx: ToolContext<z.input<Out>> & Ext) => Promise<ToolResult> | ToolResult;
}

export type Completer<Ext = unknown> = (
  value: string,
  ctx: BaseContext & Ext,
  context: { arguments: Record<string, string> },
) => Promise<readonly string[]> | readonly string[];

export interface ResourceDefinition<Ext = unknown> {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read: (ctx: BaseContext & Ext) => Promise<ResourceContents[]> | ResourceContents[];
}

export interface ResourceTemplateDefinition<Ext = unknown> {
  /** RFC 6570 template, e.g. `file:///{+path}`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Completers for the template's variables. */
  complete?: Record<string, Completer<Ext>>;
  /**
   * The concrete resources of this template for `resources/list`, in a stable order,
   * strictly after the resource whose URI is `after`. Generators let the base pull one
   * page at a time.
   */
  list?: (after: string | undefined, ctx: BaseContext & Ext) => AsyncIterable<ResourceInfo> | Iterable<ResourceInfo>;
  /** Reads a URI that matched the template; throw `resourceNotFound` when it does not exist. */
  read: (
    uri: string,
    variables: Record<string, string>,
    ctx: BaseContext & Ext,
  ) => Promise<ResourceContents[]> | ResourceContents[];
}

export interface PromptDefinition<Args extends AnyObject = AnyObject, Ext = unknown> {
  name: string;
  title?: string;
  description: string;
  /** Prompt arguments are strings on the wire; optional fields become optional arguments. */
  args: Args;
  complete?: { [K in keyof z.input<Args> & string]?: Completer<Ext> };
  handler: (args: z.output<Args>, ctx: BaseContext & Ext) => Promise<PromptResult> | PromptResult;
}

/** Turns text into the usual single user message. */
export function userMessage(text: string): PromptMessage {
  return { role: 'user', content: { type: 'text', text } };
}

/** A watcher for one subscribed URI: call `changed()` when it changes; return how to stop. */
export type WatchFunction<Ext = unknown> = (
  uri: string,
  changed: () => void,
  ctx: BaseContext & Ext,
) => Disposer | undefined | Promise<Disposer | undefined>;

/**
 * Definition helpers typed for a server's own context extension `Ext` (what its
 * `context(session)` returns). A server with no extension uses the plain exports below.
 */
export function definitionsFor<Ext>() {
  return {
    defineTool<In extends AnyObject, Out extends AnyObject>(
      definition: ToolDefinition<In, Out, Ext>,
    ): ToolDefinition<AnyObject, AnyObject, Ext> {
      return definition as unknown as ToolDefinition<AnyObject, AnyObject, Ext>;
    },
    defineResource(definition: ResourceDefinition<Ext>): ResourceDefinition<Ext> {
      return definition;
    },
    defineResourceTemplate(definition: ResourceTemplateDefinition<Ext>): ResourceTemplateDefinition<Ext> {
      return definition;
    },
    definePrompt<Args extends AnyObject>(definition: PromptDefinition<Args, Ext>): PromptDefinition<AnyObject, Ext> {
      return definition as unknown as PromptDefinition<AnyObject, Ext>;
    },
  };
}

export const { defineTool, defineResource, defineResourceTemplate, definePrompt } = definitionsFor<unknown>();
