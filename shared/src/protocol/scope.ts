import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import type { BaseContext } from '../definitions.js';
import type { ServerConfig } from '../server.js';
import type { SubscriptionHub } from '../subscriptions.js';
import type { Logger } from '../logging.js';
import type { Registry } from '../registry.js';
import { ErrorCodes, ProtocolError, ToolError, errorMessage, invalidParams } from '../errors.js';
import { describeBytes, oversize } from '../result-budget.js';
import type { RequestStateSeal } from './input-required.js';
import type { ViewHandles } from '../views.js';

/** Which protocol revision family an instance serves: 2025 (`initialize`) or 2026-07-28 (per-request `_meta`). */
export type Era = 'legacy' | 'modern';

/** What every protocol area of one server instance shares. */
export interface Scope<Ext> {
  readonly id: string;
  readonly era: Era;
  readonly sdk: Server;
  readonly config: ServerConfig<Ext>;
  readonly logger: Logger;
  readonly pageSize: number;
  readonly maxResultBytes: number;
  readonly hub: SubscriptionHub;
  readonly registry: () => Promise<Registry<Ext>>;
  readonly seal: RequestStateSeal;
  /** The server's view handles (MCP Apps), keyed like `seal` so any instance opens them. */
  readonly viewHandles: () => ViewHandles;
  /** Aborted when the connection (legacy, stdio) or the request (modern HTTP) ends. */
  readonly closed: AbortSignal;
  /** Tells every session of the server, not only this one. */
  notifyResourceListChanged(): void;
  /**
   * The handler context of one request (a fresh server context on modern requests), with
   * `extra`'s members (a tool's `result` and `error`) in the same object.
   */
  contextFor<T extends object = Record<never, never>>(ctx: ServerContext, extra?: T): BaseContext & Ext & T;
  /** An unsolicited notification to this connection (legacy only; dropped once closed). */
  send(method: string, params: Record<string, unknown>): void;
  on(method: string, handler: (request: never, ctx: ServerContext) => Promise<unknown>): void;
  /** A resource or prompt answer over the result budget is refused, not sent for the client to drop. */
  withinBudget<T>(what: string, answer: T): T;
  /** The message of a failure the caller can act on (ToolError or a server's domain error). */
  describeFailure(error: unknown): string | undefined;
}

/**
 * The SDK's low-level `Server`, with one difference: params that fail the SDK's own
 * schema are -32602 (the spec's "invalid params"), where the SDK would answer -32603.
 * The base's handlers only ever throw errors that carry a JSON-RPC code, so an error
 * without one comes from the SDK's parse before the handler ran.
 */
export class BaseServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const checked = (request: JSONRPCRequest, ctx: ServerContext): Promise<Result> => {
      let running: Promise<Result>;
      try {
        running = handler(request, ctx);
      } catch (error) {
        return Promise.reject(asInvalidParams(method, error));
      }
      return running.catch((error: unknown) => {
        throw asInvalidParams(method, error);
      });
    };
    return super._wrapHandler(method, checked);
  }
}

function asInvalidParams(method: string, error: unknown): unknown {
  if (typeof (error as { code?: unknown } | null)?.code === 'number') return error;
  // The SDK's message is a multi-line zod dump; one line reads better in a log or a UI.
  return invalidParams(`Invalid params for ${method}: ${errorMessage(error).replace(/\s*\n\s*/g, ' ')}`);
}

/**
 * What a request handler's failure becomes on the wire: a protocol error as it is, a domain
 * error the server recognises -32602 with its message, anything else -32603 with the
 * error's message (and logged).
 */
export function protocolFailure<Ext>(scope: Pick<Scope<Ext>, 'logger' | 'describeFailure'>, method: string, error: unknown): unknown {
  if (error instanceof ProtocolError || typeof (error as { code?: unknown } | null)?.code === 'number') return error;
  const described = scope.describeFailure(error);
  if (described !== undefined) return invalidParams(described);
  scope.logger.log('error', `${method} failed`, errorMessage(error));
  return new ProtocolError(ErrorCodes.InternalError, errorMessage(error));
}

export function budgetCheck(maxResultBytes: number) {
  return <T>(what: string, answer: T): T => {
    const shown = oversize(answer, maxResultBytes);
    if (shown === undefined) return answer;
    throw new ProtocolError(
      ErrorCodes.InternalError,
      `${what} is ${shown}, over the ${describeBytes(maxResultBytes)} a response may carry; use a tool that reads part of it.`,
    );
  };
}

export function failureDescriber(config: ServerConfig<never>) {
  return (error: unknown): string | undefined => (error instanceof ToolError ? error.message : config.describeError?.(error));
}
