import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ServerConfig, SessionInfo } from '../server.js';
import type { InputRound } from './input-required.js';

const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
/** Distinct root sets remembered for `rootsVersion` before the table starts over. */
const MAX_ROOT_SETS = 1_000;

/**
 * The 2026-07-28 requests of one server, whatever instance serves them. There is no
 * session, so the server's own context (`config.context`) is built once and shared; the
 * `SessionInfo` it gets answers for the request in flight, found through one
 * AsyncLocalStorage per server (one per process, not one per instance or connection).
 * `rootsVersion` names the root set of that request: requests with the same roots (or none)
 * share what a server caches per version, and a request whose roots are not known yet gets
 * a version of its own.
 */
export interface ModernRequests<Ext> {
  run<T>(ctx: ServerContext, work: () => Promise<T>): Promise<T>;
  readonly rounds: WeakMap<ServerContext, InputRound>;
  readonly info: SessionInfo;
  ext(): Ext;
}

export function createModernRequests<Ext>(config: ServerConfig<Ext>): ModernRequests<Ext> {
  // Made on the first 2026-07-28 request: an AsyncLocalStorage costs every promise of the
  // process a little, so a 2025-only connection (and start-up) does without it.
  let current: AsyncLocalStorage<ServerContext> | undefined;
  const rounds = new WeakMap<ServerContext, InputRound>();
  const versions = new Map<string, number>();
  let unique = 0;
  let ext: Ext | undefined;
  const roundNow = () => {
    const ctx = current?.getStore();
    return ctx ? rounds.get(ctx) : undefined;
  };
  const info: SessionInfo = {
    id: 'modern',
    era: 'modern',
    // Lists, completions and subscriptions have no round and cannot ask: the ceiling.
    roots: async () => (config.useRoots === false ? undefined : roundNow()?.listRoots()),
    get rootsVersion() {
      const round = roundNow();
      if (config.useRoots === false || !round) return 0;
      const key = round.rootsKey();
      if (key === undefined) return --unique;
      if (key === '') return 0;
      let version = versions.get(key);
      if (version === undefined) {
        if (versions.size >= MAX_ROOT_SETS) versions.clear();
        version = versions.size + 1;
        versions.set(key, version);
      }
      return version;
    },
    rootsError: undefined,
    get clientName() {
      const clientInfo = current?.getStore()?.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] as { name?: string } | undefined;
      return clientInfo?.name;
    },
  };
  return {
    run: (ctx, work) => (current ??= new AsyncLocalStorage<ServerContext>()).run(ctx, work),
    rounds,
    info,
    ext: () => (ext ??= config.context ? config.context(info) : ({} as Ext)),
  };
}
