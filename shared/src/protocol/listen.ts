import type { BaseContext, WatchFunction } from '../definitions.js';
import type { SubscriptionHub } from '../subscriptions.js';

/**
 * `subscriptions/listen` (2026-07-28). The SDK's serving entry holds each listen stream
 * and filters change notifications per subscription; the base starts a watcher for each
 * URI a listen names and stops it when the last listen naming it ends. One channel is
 * one place notifications go (a stdio connection, an HTTP handler's bus): a URI named
 * by two listens is watched, and announced, once.
 */
export interface ListenChannel {
  /** Starts watching the URIs of one listen; the function returned stops it. */
  open(uris: readonly string[]): Promise<() => void>;
  close(): Promise<void>;
}

export function createListenChannel<Ext>(options: {
  id: string;
  hub: SubscriptionHub;
  context: () => BaseContext & Ext;
  watch?: WatchFunction<Ext>;
  canWatch?: (uri: string, ctx: BaseContext & Ext) => boolean | Promise<boolean>;
  notify: (uri: string) => void;
}): ListenChannel {
  const { id, hub } = options;
  const counts = new Map<string, number>();
  return {
    async open(uris) {
      const ctx = options.context();
      const opened: string[] = [];
      for (const uri of new Set(uris)) {
        if (typeof uri !== 'string') continue;
        const allowed = await Promise.resolve(options.canWatch?.(uri, ctx) ?? true).catch(() => false);
        if (!allowed) continue;
        const count = counts.get(uri) ?? 0;
        counts.set(uri, count + 1);
        opened.push(uri);
        if (count === 0) {
          const watch = options.watch;
          await hub.subscribe(id, uri, options.notify, watch && ((watched, changed) => watch(watched, changed, ctx))).catch(() => {
            counts.delete(uri);
          });
        }
      }
      let closed = false;
      return () => {
        if (closed) return;
        closed = true;
        for (const uri of opened) {
          const count = (counts.get(uri) ?? 1) - 1;
          if (count > 0) {
            counts.set(uri, count);
            continue;
          }
          counts.delete(uri);
          void hub.unsubscribe(id, uri);
        }
      };
    },
    async close() {
      counts.clear();
      await hub.dropSession(id);
    },
  };
}

/** The resource URIs a `subscriptions/listen` request names (its `notifications.resourceSubscriptions`). */
export function listenedUris(message: unknown): string[] | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (m?.method !== 'subscriptions/listen' || m.id === undefined) return undefined;
  const uris = m.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}
