import type { CacheHint, ServerCapabilities } from '@modelcontextprotocol/server';
import type { ServerConfig } from '../server.js';
import { registeredKinds, type Definitions } from '../registry.js';

/**
 * Capabilities follow from what the server registers; the low-level SDK `Server` wants
 * them up front. They are the same for both eras: `server/discover` (2026-07-28) and
 * `initialize` (2025) advertise one set.
 */
export function capabilitiesOf(config: ServerConfig<never>): ServerCapabilities {
  const kinds = registeredKinds(config as Definitions<unknown>);
  return {
    logging: {},
    ...(kinds.tools ? { tools: { listChanged: false } } : {}),
    ...(kinds.prompts ? { prompts: { listChanged: false } } : {}),
    ...(kinds.resources ? { resources: { subscribe: true, listChanged: true } } : {}),
    ...(kinds.completions ? { completions: {} } : {}),
  };
}

/** A definition list is fixed for the life of a process: clients may keep it this long. */
const FIXED_LIST_TTL_MS = 60 * 60_000;

/**
 * Cache hints (2026-07-28 requires `ttlMs` and `cacheScope` on lists and reads). Tool,
 * prompt and template lists never change while the process runs, and are the same for
 * everyone. Resource lists and reads depend on the caller's roots and on the data, so
 * they are private and not kept.
 */
export const CACHE_HINTS: Record<string, CacheHint> = {
  'tools/list': { ttlMs: FIXED_LIST_TTL_MS, cacheScope: 'public' },
  'prompts/list': { ttlMs: FIXED_LIST_TTL_MS, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: FIXED_LIST_TTL_MS, cacheScope: 'public' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
  'server/discover': { ttlMs: FIXED_LIST_TTL_MS, cacheScope: 'public' },
};
