import type { Disposer } from './types.js';
import type { Logger } from './logging.js';
import { ErrorCodes, ProtocolError, errorMessage } from './errors.js';

/** How many URIs may be watched at once unless the server says otherwise. */
export const DEFAULT_MAX_WATCHED = 1_000;

export type StartWatch = (uri: string, changed: () => void) => Disposer | undefined | Promise<Disposer | undefined>;

interface Watched {
  subscribers: Map<string, (uri: string) => void>;
  disposer?: Promise<Disposer | undefined>;
  timer?: NodeJS.Timeout;
}

/**
 * Subscription bookkeeping for one server (all its sessions). A URI has a watcher only
 * while at least one session is subscribed to it, so the cost grows with subscriptions,
 * not with the size of the data. Changes are debounced per URI: a burst of writes to a
 * file becomes one `notifications/resources/updated`.
 */
export function createSubscriptionHub(options: { debounceMs: number; logger: Logger; maxWatched?: number }) {
  const watched = new Map<string, Watched>();
  const maxWatched = options.maxWatched ?? DEFAULT_MAX_WATCHED;

  function fire(uri: string) {
    const entry = watched.get(uri);
    if (!entry) return;
    entry.timer = undefined;
    for (const send of entry.subscribers.values()) send(uri);
  }

  function changed(uri: string) {
    const entry = watched.get(uri);
    if (!entry || entry.timer) return;
    entry.timer = setTimeout(fire, options.debounceMs, uri);
    entry.timer.unref?.();
  }

  async function stop(entry: Watched) {
    if (entry.timer) clearTimeout(entry.timer);
    const dispose = await entry.disposer?.catch(() => undefined);
    await dispose?.();
  }

  return {
    /**
     * Subscribes a session; `send` delivers the notification to it. Idempotent. `watch`
     * starts the watcher when this is the URI's first subscription (it runs with the
     * context of that session; later subscribers share the watcher).
     */
    async subscribe(sessionId: string, uri: string, send: (uri: string) => void, watch?: StartWatch): Promise<void> {
      let entry = watched.get(uri);
      if (entry) {
        entry.subscribers.set(sessionId, send);
        return;
      }
      // Each watched URI costs OS watches (inotify); past the bound a subscribe is refused
      // with a reason instead of exhausting them for every process of the user.
      if (watched.size >= maxWatched) {
        throw new ProtocolError(
          ErrorCodes.InternalError,
          `Too many subscriptions: ${maxWatched} resources are watched already. Unsubscribe from some first.`,
        );
      }
      entry = { subscribers: new Map([[sessionId, send]]) };
      watched.set(uri, entry);
      const started = Promise.resolve()
        .then(() => watch?.(uri, () => changed(uri)))
        .catch((error) => {
          // Subscribing to something that cannot be watched (yet) still succeeds; it
          // simply never fires, which the spec allows.
          options.logger.log('warning', `cannot watch ${uri}: ${errorMessage(error)}`);
          return undefined;
        });
      entry.disposer = started;
      await started;
    },

    async unsubscribe(sessionId: string, uri: string): Promise<void> {
      const entry = watched.get(uri);
      if (!entry || !entry.subscribers.delete(sessionId) || entry.subscribers.size > 0) return;
      watched.delete(uri);
      await stop(entry);
    },

    async dropSession(sessionId: string): Promise<void> {
      await Promise.all(this.subscriptionsOf(sessionId).map((uri) => this.unsubscribe(sessionId, uri)));
    },

    /** For changes the server makes itself (or learns of without a watcher). */
    changed,

    /** How many URIs are watched right now (tests and diagnostics). */
    watchedCount(): number {
      return watched.size;
    },

    /** The URIs a session is subscribed to. */
    subscriptionsOf(sessionId: string): string[] {
      return [...watched].filter(([, entry]) => entry.subscribers.has(sessionId)).map(([uri]) => uri);
    },

    isSubscribed(sessionId: string, uri: string): boolean {
      return watched.get(uri)?.subscribers.has(sessionId) ?? false;
    },

    async close(): Promise<void> {
      const entries = [...watched.values()];
      watched.clear();
      await Promise.all(entries.map(stop));
    },
  };
}

export type SubscriptionHub = ReturnType<typeof createSubscriptionHub>;
