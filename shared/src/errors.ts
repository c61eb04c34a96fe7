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
  /** The 2025 code for a missing resource; the base sends -32602 with `data.uri` instead. */
  ResourceNotFound: -32002,
  /** 2026-07-28: the call needs a client capability the request did not declare (HTTP 400). */
  MissingRequiredClientCapability: -32021,
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

/**
 * The call needs client capabilities the client did not declare: -32021 with
 * `data.requiredCapabilities` (a ClientCapabilities object, e.g. `{ sampling: {} }`).
 */
export function missingClientCapabilities(requiredCapabilities: Record<string, object>): ProtocolError {
  const names = Object.keys(requiredCapabilities).join(', ');
  return new ProtocolError(
    ErrorCodes.MissingRequiredClientCapability,
    `This call needs the client capabilities ${names}; declare them (and answer their requests) to use it.`,
    { requiredCapabilities },
  );
}

export function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidParams, message, data);
}

/**
 * A resource the server does not have: -32602 with `data.uri`, in every protocol era
 * (2026-07-28 requires it; clients of 2025 accept it as well as the older -32002).
 */
export function resourceNotFound(uri: string, hint?: string): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidParams, `Resource not found: ${uri}${hint ? `. ${hint}` : ''}`, {
    uri,
  });
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
