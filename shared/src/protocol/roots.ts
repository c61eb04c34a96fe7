import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod/v4';
import { ToolError, errorMessage } from '../errors.js';
import type { Logger } from '../logging.js';
import type { Root } from '../types.js';

const ROOTS_TIMEOUT_MS = 10_000;

/** Where a session's roots stand; `asking` is shared by every call that needs them meanwhile. */
type RootsState =
  | { kind: 'unasked' }
  | { kind: 'asking'; answer: Promise<readonly Root[]> }
  | { kind: 'known'; roots: readonly Root[] }
  | { kind: 'failed'; reason: string };

// The SDK's own listRoots() rejects the whole answer if one root is not file://, which
// would drop every root; each root is judged by the server instead.
const LooseRootsResult = z.looseObject({
  roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })),
});

export interface LegacyRoots {
  roots(): Promise<readonly Root[] | undefined>;
  readonly version: number;
  readonly error: string | undefined;
  /** After `notifications/roots/list_changed`: forget the roots, ask again when needed. */
  invalidate(): void;
}

/**
 * Roots on a 2025-era session. They are asked lazily, when a handler first needs them, on
 * the stream of the request in flight (a related request): over HTTP the standalone GET
 * stream may not be open, and a request sent there would never be seen. Asked again after
 * roots/list_changed. `inflight` holds the requests of this session in flight; the roots
 * request rides on the newest one. (An AsyncLocalStorage per session would cost every
 * promise of the process a lookup per session: 1,000 HTTP sessions made everything four
 * times slower.)
 */
export function legacyRoots(options: {
  sdk: Server;
  enabled: boolean;
  timeoutMs?: number;
  logger: Logger;
  inflight: ReadonlySet<ServerContext>;
}): LegacyRoots {
  const { sdk, logger, inflight } = options;
  const timeout = options.timeoutMs ?? ROOTS_TIMEOUT_MS;
  let version = 0;
  let state: RootsState = { kind: 'unasked' };

  function ask(): Promise<readonly Root[]> {
    let carrier: ServerContext | undefined;
    for (const candidate of inflight) if (!candidate.mcpReq.signal.aborted) carrier = candidate;
    const request = { method: 'roots/list' as const };
    const asking = carrier
      ? carrier.mcpReq.send(request, LooseRootsResult as never, { timeout, signal: carrier.mcpReq.signal })
      : sdk.request(request, LooseRootsResult as never, { timeout });
    const answer: Promise<readonly Root[]> = (asking as Promise<z.output<typeof LooseRootsResult>>).then(
      (result) => {
        const roots = result.roots.map(({ uri, name }) => (name === undefined ? { uri } : { uri, name }));
        if (state.kind === 'asking' && state.answer === answer) state = { kind: 'known', roots };
        return roots;
      },
      (error) => {
        const reason = errorMessage(error);
        if (state.kind === 'asking' && state.answer === answer) {
          state = { kind: 'failed', reason };
          // Caches keyed on the version recompute, so the next call asks again.
          version++;
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

  return {
    async roots() {
      if (!options.enabled) return undefined;
      // Capabilities are known from the initialize request on.
      if (!sdk.getClientCapabilities()?.roots) return undefined;
      if (state.kind === 'known') return state.roots;
      if (state.kind !== 'asking') state = { kind: 'asking', answer: ask() };
      return state.answer;
    },
    get version() {
      return version;
    },
    get error() {
      return state.kind === 'failed' ? state.reason : undefined;
    },
    invalidate() {
      state = { kind: 'unasked' };
      version++;
    },
  };
}
