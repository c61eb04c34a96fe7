/** A bounded least-recently-used map whose bound is a total size, not only a count. */
export interface SizedCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V, size: number): void;
  delete(key: string): void;
  readonly size: number;
  readonly bytes: number;
}

export function createSizedCache<V>(limits: { maxEntries: number; maxBytes: number }): SizedCache<V> {
  const entries = new Map<string, { value: V; size: number }>();
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.size;
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key); // most recently used goes last
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, size) {
      remove(key);
      if (size > limits.maxBytes) return;
      entries.set(key, { value, size });
      bytes += size;
      while (entries.size > limits.maxEntries || bytes > limits.maxBytes) remove(entries.keys().next().value!);
    },
    delete: remove,
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
