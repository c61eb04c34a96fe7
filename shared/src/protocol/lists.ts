import type { ServerContext } from '@modelcontextprotocol/server';
import type { Page } from '../pagination.js';
import { paginateArray } from '../pagination.js';
import type { Registry } from '../registry.js';
import type { Scope } from './scope.js';
import type { CacheHint } from '@modelcontextprotocol/server';

/** A page of a list as the protocol answers it: `nextCursor` only when more follow. */
export function listResult<K extends string, T>(key: K, page: Page<T>): Record<K, T[]> & { nextCursor?: string } {
  return { [key]: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } as Record<K, T[]> & { nextCursor?: string };
}

/**
 * A list answered from the registry's descriptors, a page at a time. `items` sees the
 * request too: tools/list depends on what the client renders (views, MCP Apps).
 */
export function onList<Ext>(
  scope: Scope<Ext>,
  method: 'tools/list' | 'prompts/list' | 'resources/templates/list',
  key: string,
  items: (registry: Registry<Ext>, ctx: ServerContext) => readonly unknown[],
  /** The list's own cache hint (2026-07-28), where the server-wide one does not fit. */
  cacheHint?: (registry: Registry<Ext>, ctx: ServerContext) => CacheHint | undefined,
) {
  scope.on(method, async (request: { params?: { cursor?: string } }, ctx) => {
    const registry = await scope.registry();
    const page = listResult(key, paginateArray(method, items(registry, ctx), request.params?.cursor, scope.pageSize));
    const hint = scope.era === 'modern' ? cacheHint?.(registry, ctx) : undefined;
    return hint ? { ...page, ...hint } : page;
  });
}
