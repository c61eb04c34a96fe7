/**
 * The pages this server knows as resources: those configured with --page, then those
 * fetched, in the order first seen (a stable order for paging), oldest dropped past `max`.
 */
export interface PageIndex {
  /** Adds a URL; true when it was new (the resource list changed). */
  add(url: string): boolean;
  has(url: string): boolean;
  /** URLs strictly after `after` (or from the start). */
  after(after: string | undefined): Iterable<string>;
  /** URLs starting with `prefix`. */
  complete(prefix: string): string[];
  readonly size: number;
}

export function createPageIndex(initial: readonly string[], max = 10_000): PageIndex {
  const urls = new Set<string>();
  const index: PageIndex = {
    add(url) {
      if (urls.has(url)) return false;
      urls.add(url);
      if (urls.size > max) urls.delete(urls.values().next().value!);
      return true;
    },
    has: (url) => urls.has(url),
    *after(after) {
      let started = after === undefined || !urls.has(after);
      // A cursor whose URL was dropped restarts from the beginning rather than failing.
      for (const url of [...urls]) {
        if (started) yield url;
        else if (url === after) started = true;
      }
    },
    complete(prefix) {
      const found: string[] = [];
      for (const url of urls) if (url.startsWith(prefix)) found.push(url);
      return found;
    },
    get size() {
      return urls.size;
    },
  };
  for (const url of initial) index.add(url);
  return index;
}
