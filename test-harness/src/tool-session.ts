// A factory-built server with a real in-memory client and the three calls every server's
// tests make: call a tool, call one that must succeed, call one that must be refused.
import { expect } from 'vitest';
import type { McpServer } from '@mcp-reference/shared';
import { connectInMemory, type ClientOptions, type Connection } from '@mcp-reference/shared/client';

export interface ToolResult {
  content: Array<{ type: string; text?: string; uri?: string; mimeType?: string; data?: string; resource?: Record<string, unknown> }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: unknown) => void;
  timeout?: number;
}

export interface ToolSession<S extends McpServer = McpServer> extends Connection {
  server: S;
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  /** Calls a tool that must succeed and returns its structuredContent. */
  ok<T = Record<string, any>>(name: string, args: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must be refused (an isError result) and returns its text. */
  refused(name: string, args: Record<string, unknown>): Promise<string>;
}

/** Connects a client to `server`; closing the session closes both. */
export async function openToolSession<S extends McpServer>(server: S, client: ClientOptions = {}): Promise<ToolSession<S>> {
  const connection = await connectInMemory(server, client);
  const close = connection.close;
  const call: ToolSession['call'] = async (name, args, options = {}) =>
    (await connection.client.callTool({ name, arguments: args }, undefined, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onprogress ? { onprogress: options.onprogress as never } : {}),
      ...(options.timeout ? { timeout: options.timeout } : {}),
    })) as ToolResult;
  return Object.assign(connection, {
    server,
    call,
    async ok<T>(name: string, args: Record<string, unknown>): Promise<T> {
      const result = await call(name, args);
      expect(result.isError, `${name} failed: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as T;
    },
    async refused(name: string, args: Record<string, unknown>): Promise<string> {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)} was not refused: ${textOf(result)}`).toBe(true);
      return textOf(result);
    },
    async close() {
      await close().catch(() => undefined);
      await server.close();
    },
  });
}

/** The text blocks of a result, joined. */
export function textOf(result: ToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** Whether `text` is valid Unicode: no half of a surrogate pair alone (String.isWellFormed, before ES2024's lib). */
export function isWellFormedText(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** The URIs of a result's resource links. */
export function linksOf(result: ToolResult): string[] {
  return result.content.filter((block) => block.type === 'resource_link').map((block) => block.uri!);
}

/**
 * The refusal message of a call that must be refused: an isError result (with no
 * structured content) or a JSON-RPC error. Fails the test if the call succeeded.
 */
export async function refusal(session: ToolSession, name: string, args: Record<string, unknown>): Promise<string> {
  let result: ToolResult;
  try {
    result = await session.call(name, args);
  } catch (error) {
    return (error as Error).message;
  }
  expect(result.isError, `${name} ${JSON.stringify(args)} was not refused: ${textOf(result)}`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return textOf(result);
}
