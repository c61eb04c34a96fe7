import type { ServerContext } from '@modelcontextprotocol/server';
import type { Root } from '../types.js';
import type { ServerConfig, SessionInfo } from '../server.js';
import type { InputRound } from './input-required.js';

const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
/** Distinct root sets whose server context is kept before the table starts over... */
const MAX_ROOT_SETS = 1_000;
/**
 * ...or the characters of their keys (each its roots' JSON, up to a request body: 1,000 sets
 * of 4 MB would have held 4 GB, with the allowed directories each server context derives).
 */
export const MAX_ROOT_SET_CHARS = 16 * 1024 * 1024;

/**
 * The 2026-07-28 requests of one server, whatever instance serves them. There is no
 * session: each request gets a `SessionInfo` of its own (its roots, its client), handed to
 * the handler with the request's context, so nothing has to find "the request in flight"
 * (an AsyncLocalStorage would, and on Node 20 it slows every promise of the process). The
 * server's own context (`config.context`) is built once per root set and shared by the
 * requests with that set: one for the requests without roots (the ceiling; lists,
 * completions and `subscriptions/listen` cannot ask), one per set a client answered, and,
 * for a request whose roots are still to be asked, one of its own, which asks. So what a
 * server caches per `rootsVersion` is never shared across root sets.
 */
export interface ModernRequests<Ext> {
  readonly rounds: WeakMap<ServerContext, InputRound>;
  /** The identity and server context of one request (undefined: no request, e.g. a listen stream). */
  forRequest(ctx: ServerContext | undefined): { info: SessionInfo; ext: Ext };
}

export function createModernRequests<Ext>(config: ServerConfig<Ext>): ModernRequests<Ext> {
  const rounds = new WeakMap<ServerContext, InputRound>();
  // Root set (its JSON) -> its version and the server context built for it. Versions only
  // grow, so a version is never reused for another set after the table starts over.
  const bySet = new Map<string, { version: number; ext: Ext }>();
  let nextVersion = 1;
  let keyChars = 0;
  let unasked = 0;
  const useRoots = config.useRoots !== false;
  const build = (info: SessionInfo): Ext => (config.context ? config.context(info) : ({} as Ext));
  const infoOf = (version: number, roots: () => Promise<Root[] | undefined>, clientName: string | undefined): SessionInfo => ({
    id: 'modern',
    era: 'modern',
    roots,
    rootsVersion: version,
    rootsError: undefined,
    clientName,
  });
  const noRoots = async () => undefined;
  let ceiling: Ext | undefined;

  return {
    rounds,
    forRequest(ctx) {
      const round = ctx ? rounds.get(ctx) : undefined;
      const clientName = (ctx?.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] as { name?: string } | undefined)?.name;
      const key = useRoots && round ? round.rootsKey() : '';
      if (key === '') {
        // No roots (none declared, or the server does not use them): the command-line ceiling.
        const info = infoOf(0, noRoots, clientName);
        return { info, ext: (ceiling ??= build(infoOf(0, noRoots, undefined))) };
      }
      if (key === undefined) {
        // Roots still to be asked: this request's own context, which asks through its round.
        const info = infoOf(--unasked, async () => round!.listRoots(), clientName);
        return { info, ext: build(info) };
      }
      // Roots answered: known now, the same set for every request with this key.
      const roots = round!.listRoots();
      const known = async () => roots;
      let entry = bySet.get(key);
      if (!entry) {
        if (bySet.size >= MAX_ROOT_SETS || keyChars + key.length > MAX_ROOT_SET_CHARS) {
          bySet.clear();
          keyChars = 0;
        }
        keyChars += key.length;
        const version = nextVersion++;
        entry = { version, ext: build(infoOf(version, known, undefined)) };
        bySet.set(key, entry);
      }
      return { info: infoOf(entry.version, known, clientName), ext: entry.ext };
    },
  };
}
