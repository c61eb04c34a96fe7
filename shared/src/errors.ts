/**
 * A tool failure the model can act on: it becomes an `isError` result whose text is the
 * message, so say what went wrong and what to do instead.
 */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** JSON-RPC error codes used by the base (see the MCP spec, "Error Handling"). */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
} as const;

/**
 * A protocol misuse (bad cursor, unknown resource, unknown prompt): it becomes a JSON-RPC
 * error, not a tool result.
 */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidParams, message, data);
}

export function resourceNotFound(uri: string, hint?: string): ProtocolError {
  return new ProtocolError(ErrorCodes.ResourceNotFound, `Resource not found: ${uri}${hint ? `. ${hint}` : ''}`, {
    uri,
  });
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
