import type { Page } from '../pagination.js';
import { paginateArray } from '../pagination.js';
import type { Registry } from '../registry.js';
import type { Scope } from './scope.js';

/** A page of a list as the protocol answers it: `nextCursor` only when more follow. */
export function listResult<K extends string, T>(key: K, page: Page<T>): Record<K, T[]> & { nextCursor?: string } {
  return { [key]: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } as Record<K, T[]> & { nextCursor?: string };
}

/** A list answered from the registry's descriptors, a page at a time. */
export function onList<Ext>(
  scope: Scope<Ext>,
  method: 'tools/list' | 'prompts/list' | 'resources/templates/list',
  key: string,
  items: (description: Registry<Ext>['description']) => readonly unknown[],
) {
  scope.on(method, async (request: { params?: { cursor?: string } }) => {
    const { description } = await scope.registry();
    return listResult(key, paginateArray(method, items(description), request.params?.cursor, scope.pageSize));
  });
}
