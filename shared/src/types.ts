// Protocol shapes the servers see. They mirror the MCP schema (2025-06-18 and later) so
// that no server imports the SDK; only this package does.

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export const LOG_LEVELS: readonly LogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}

/** A link to a resource inside a result: the same fields as a listed resource. */
export interface ResourceLink extends ResourceInfo {
  type: 'resource_link';
}

export type TextResourceContents = { uri: string; mimeType?: string; text: string };
export type BlobResourceContents = { uri: string; mimeType?: string; blob: string };
export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** A concrete resource, as listed by `resources/list`. */
export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
}

export interface Root {
  uri: string;
  name?: string;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
}

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Undo whatever a `watch` set up. */
export type Disposer = () => void | Promise<void>;

/** A client's answer to a form (elicitation). */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/** One message of a completion request (sampling): text, image or audio content. */
export interface SampleMessage {
  role: 'user' | 'assistant';
  content: { type: 'text'; text: string } | { type: 'image' | 'audio'; data: string; mimeType: string };
}

/** A completion asked of the client's model (`sampling/createMessage`). */
export interface SampleRequest {
  messages: SampleMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
}

/** The client's completion: what its model answered. */
export interface SampleAnswer {
  role: 'user' | 'assistant';
  content: SampleMessage['content'];
  model: string;
  stopReason?: string;
}

/**
 * One question of `ctx.ask`: a form (elicitation), a completion (sampling), or the
 * client's roots (`roots/list`).
 */
export type Question =
  | { elicit: { message: string; requestedSchema: Record<string, unknown> } }
  | { sample: SampleRequest }
  | { roots: true };

/** The answer type of one question. */
export type AnswerOf<Q extends Question> = Q extends { elicit: unknown }
  ? ElicitAnswer
  : Q extends { sample: unknown }
    ? SampleAnswer
    : Root[];

/** The answers of `ctx.ask`, by key; undefined where the client declared no such capability (it was not asked). */
export type Answers<Qs extends Record<string, Question>> = { [K in keyof Qs]: AnswerOf<Qs[K]> | undefined };
