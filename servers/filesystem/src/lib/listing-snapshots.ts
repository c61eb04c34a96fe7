import { nodeCrypto } from '@mcp-reference/shared/core';

/**
 * Listings kept between the pages of one paging session, so that a page after the first
 * costs its own size instead of the whole directory again (list_directory_with_sizes
 * stats every entry to sort and total them: 1.4 s a page on 100k files).
 *
 * A snapshot is found by its random id and only by the owner that made it (the session:
 * sizes of symlink targets depend on what that session may see). Bounded: at most
 * `maxSnapshots`, at most `maxItems` items over all of them (a listing larger than that
 * is not kept), each for `ttlMs` after its last use; the oldest go first.
 */
export interface ListingSnapshots<T> {
  /** Keeps `items` (unless too many), returning its id; undefined when it was not kept. */
  put(owner: string, items: readonly T[], extra: unknown): string | undefined;
  /** The snapshot `id` of `owner`, refreshing its time to live. */
  get(owner: string, id: string): { items: readonly T[]; extra: unknown } | undefined;
  delete(id: string): void;
  /** Snapshots and items held (for tests: the bound holds). */
  size(): { snapshots: number; items: number };
}

export function createListingSnapshots<T>(options: { maxSnapshots?: number; maxItems?: number; ttlMs?: number; now?: () => number } = {}): ListingSnapshots<T> {
  const { maxSnapshots = 8, maxItems = 250_000, ttlMs = 10 * 60_000, now = Date.now } = options;
  // Map order is insertion order: a used snapshot is moved to the end, so the first is the oldest.
  const snapshots = new Map<string, { owner: string; items: readonly T[]; extra: unknown; expires: number }>();
  let items = 0;
  const remove = (id: string) => {
    const snapshot = snapshots.get(id);
    if (snapshot === undefined) return;
    snapshots.delete(id);
    items -= snapshot.items.length;
  };
  const expire = () => {
    const time = now();
    for (const [id, snapshot] of snapshots) if (snapshot.expires <= time) remove(id);
  };
  return {
    put(owner, list, extra) {
      expire();
      if (list.length > maxItems) return undefined;
      while (snapshots.size >= maxSnapshots || (snapshots.size > 0 && items + list.length > maxItems)) remove(snapshots.keys().next().value!);
      const id = nodeCrypto().randomBytes(9).toString('base64url');
      snapshots.set(id, { owner, items: list, extra, expires: now() + ttlMs });
      items += list.length;
      return id;
    },
    get(owner, id) {
      expire();
      const snapshot = snapshots.get(id);
      if (snapshot === undefined || snapshot.owner !== owner) return undefined;
      snapshots.delete(id);
      snapshot.expires = now() + ttlMs;
      snapshots.set(id, snapshot);
      return { items: snapshot.items, extra: snapshot.extra };
    },
    delete: remove,
    size: () => ({ snapshots: snapshots.size, items }),
  };
}
