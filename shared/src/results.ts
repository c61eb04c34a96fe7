import { boundedJson } from './result-budget.js';
import type { ContentBlock, EmbeddedResource, ResourceContents, ResourceLink, ToolResult, Annotations } from './types.js';

/** `structuredContent` first, with a text rendering of it for clients that show text. */
export function structuredResult(structured: Record<string, unknown>, text: string, content: ContentBlock[] = []): ToolResult {
  return { content: [{ type: 'text', text }, ...content], structuredContent: structured };
}

export function errorResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function resourceLink(uri: string, meta: Partial<Omit<ResourceLink, 'type' | 'uri'>> = {}): ResourceLink {
  return { type: 'resource_link', uri, name: meta.name ?? nameFromUri(uri), ...meta };
}

export function embeddedResource(contents: ResourceContents, annotations?: Annotations): EmbeddedResource {
  return annotations ? { type: 'resource', resource: contents, annotations } : { type: 'resource', resource: contents };
}

export function textContents(uri: string, text: string, mimeType = 'text/plain'): ResourceContents {
  return { uri, mimeType, text };
}

export function blobContents(uri: string, data: Buffer | Uint8Array, mimeType = 'application/octet-stream'): ResourceContents {
  return { uri, mimeType, blob: Buffer.from(data).toString('base64') };
}

/** How long the default text rendering of a structured result may get. */
export const RENDER_JSON_MAX_CHARS = 512 * 1024;

/**
 * The default text rendering of a structured result: pretty JSON, cut (with a note)
 * past `maxChars`, so a large payload is not sent twice in full.
 */
export function renderJson(value: unknown, maxChars = RENDER_JSON_MAX_CHARS): string {
  return boundedJson(value, maxChars);
}

function nameFromUri(uri: string): string {
  const trimmed = uri.replace(/\/+$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || uri;
  } catch {
    return last || uri;
  }
}
