import { z } from 'zod';

export type JsonSchema = Record<string, unknown> & { type?: string; properties?: Record<string, unknown> };

/**
 * The JSON Schema a client sees for a zod object. Written once as zod; the wire schema,
 * the docs table and the TypeScript types all derive from it. `$schema` is dropped:
 * some clients reject schemas that carry it.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  if (json.type !== 'object') throw new Error('MCP tool schemas must be objects');
  return json;
}

/** One line per zod issue: `path: message`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}
