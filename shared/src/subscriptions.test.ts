import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { createServer, type ServerConfig } from './server.js';
import { defineResourceTemplate, defineTool } from './definitions.js';
import { silentLogger } from './logging.js';
import { connectInMemory, type Connection } from './client/index.js';

const DEBOUNCE_MS = 25;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

const updatesOf = (connection: Connection, uri: string) =>
  connection.notifications.filter((n) => n.method === 'notifications/resources/updated' && n.params?.uri === uri).length;

/**
 * A server over `mem:///{name}` whose watch function records what it is asked to watch
 * and exposes each watcher's `changed` callback, so tests can fire changes by hand.
 */
function watchedServer(overrides: Partial<ServerConfig> = {}) {
  const watchCalls: string[] = [];
  const disposed: string[] = [];
  const changers = new Map<string, () => void>();
  const server = createServer({
    name: 'subs',
    version: '1.0.0',
    logger: silentLogger,
    debounceMs: DEBOUNCE_MS,
    templates: [
      defineResourceTemplate({
        uriTemplate: 'mem:///{name}',
        name: 'memory',
        read: (uri) => [{ uri, text: 'x' }],
        list: () => [{ uri: 'mem:///a', name: 'a' }, { uri: 'mem:///b', name: 'b' }],
      }),
    ],
    tools: [
      defineTool({
        name: 'touch',
        description: 'Marks a resource as changed',
        input: z.object({ uri: z.string() }),
        output: z.object({ ok: z.boolean() }),
        handler({ uri }, ctx) {
          ctx.notifyUpdated(uri);
          return ctx.result({ ok: true });
        },
      }),
    ],
    watch(uri, changed) {
      watchCalls.push(uri);
      changers.set(uri, changed);
      return () => {
        disposed.push(uri);
        changers.delete(uri);
      };
    },
    ...overrides,
  });
  return { server, watchCalls, disposed, changers };
}

describe('resources/subscribe', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  function setup(overrides: Partial<ServerConfig> = {}) {
    const fixture = watchedServer(overrides);
    cleanups.push(() => fixture.server.close());
    const connect = async () => {
      const connection = await connectInMemory(fixture.server);
      cleanups.push(() => connection.close());
      return connection;
    };
    return { ...fixture, connect };
  }

  it('declares subscribe support and starts a watcher only for the URI subscribed to', async () => {
    const { server, watchCalls, connect } = setup();
    const { client } = await connect();
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);

    // Listing and reading watch nothing: cost follows subscriptions, not data.
    await client.listResources();
    await client.readResource({ uri: 'mem:///a' });
    expect(watchCalls).toEqual([]);
    expect(server.watchedCount()).toBe(0);

    await client.subscribeResource({ uri: 'mem:///a' });
    expect(watchCalls).toEqual(['mem:///a']);
    expect(server.watchedCount()).toBe(1);

    // Subscribing again from the same session is idempotent.
    await client.subscribeResource({ uri: 'mem:///a' });
    expect(watchCalls).toEqual(['mem:///a']);
  });

  it('delivers notifications/resources/updated to subscribers only', async () => {
    const { changers, connect } = setup();
    const subscriber = await connect();
    const bystander = await connect();
    await subscriber.client.subscribeResource({ uri: 'mem:///a' });

    changers.get('mem:///a')!();
    await subscriber.waitForNotification('notifications/resources/updated', (p) => p?.uri === 'mem:///a');
    await sleep(DEBOUNCE_MS * 4);
    expect(updatesOf(bystander, 'mem:///a')).toBe(0);

    // A change the server reports itself (ctx.notifyUpdated) reaches the subscriber too.
    await bystander.client.callTool({ name: 'touch', arguments: { uri: 'mem:///a' } });
    await waitUntil(() => updatesOf(subscriber, 'mem:///a') === 2);
    // ...but a change to a URI nobody subscribed to goes nowhere.
    await bystander.client.callTool({ name: 'touch', arguments: { uri: 'mem:///b' } });
    await sleep(DEBOUNCE_MS * 4);
    expect(updatesOf(subscriber, 'mem:///b')).toBe(0);
    expect(updatesOf(bystander, 'mem:///b')).toBe(0);
  });

  it('shares one watcher between sessions and disposes it when the last one unsubscribes', async () => {
    const { server, watchCalls, disposed, changers, connect } = setup();
    const first = await connect();
    const second = await connect();
    await first.client.subscribeResource({ uri: 'mem:///a' });
    await second.client.subscribeResource({ uri: 'mem:///a' });
    expect(watchCalls).toEqual(['mem:///a']);

    changers.get('mem:///a')!();
    await first.waitForNotification('notifications/resources/updated');
    await second.waitForNotification('notifications/resources/updated');

    await first.client.unsubscribeResource({ uri: 'mem:///a' });
    expect(disposed).toEqual([]);
    expect(server.watchedCount()).toBe(1);

    changers.get('mem:///a')!();
    await waitUntil(() => updatesOf(second, 'mem:///a') === 2);
    await sleep(DEBOUNCE_MS * 2);
    expect(updatesOf(first, 'mem:///a')).toBe(1);

    await second.client.unsubscribeResource({ uri: 'mem:///a' });
    expect(disposed).toEqual(['mem:///a']);
    expect(server.watchedCount()).toBe(0);

    // Unsubscribing again, or from something never subscribed, is harmless.
    await second.client.unsubscribeResource({ uri: 'mem:///a' });
    await second.client.unsubscribeResource({ uri: 'mem:///never' });
    expect(disposed).toEqual(['mem:///a']);
  });

  it('debounces a burst of changes into one notification, and fires again after the window', async () => {
    const { changers, connect } = setup();
    const connection = await connect();
    await connection.client.subscribeResource({ uri: 'mem:///a' });
    const changed = changers.get('mem:///a')!;

    for (let i = 0; i < 20; i++) changed();
    await connection.waitForNotification('notifications/resources/updated');
    await sleep(DEBOUNCE_MS * 4);
    expect(updatesOf(connection, 'mem:///a')).toBe(1);

    changed();
    changed();
    await waitUntil(() => updatesOf(connection, 'mem:///a') === 2);
    await sleep(DEBOUNCE_MS * 4);
    expect(updatesOf(connection, 'mem:///a')).toBe(2);
  });

  it("drops a session's subscriptions when it closes", async () => {
    const { server, disposed, changers, connect } = setup();
    const leaving = await connect();
    const staying = await connect();
    await leaving.client.subscribeResource({ uri: 'mem:///a' });
    await leaving.client.subscribeResource({ uri: 'mem:///b' });
    await staying.client.subscribeResource({ uri: 'mem:///b' });
    expect(server.watchedCount()).toBe(2);

    await leaving.close();
    await waitUntil(() => disposed.includes('mem:///a'));
    expect(disposed).toEqual(['mem:///a']);
    expect(server.watchedCount()).toBe(1);
    expect(server.sessionCount).toBe(1);

    changers.get('mem:///b')!();
    await staying.waitForNotification('notifications/resources/updated', (p) => p?.uri === 'mem:///b');
  });

  it('accepts a subscription to a URI the server does not serve; it never fires', async () => {
    const { server, disposed, connect } = setup({
      // Only mem: URIs can be watched; another URI gets no watcher, one URI's watcher fails.
      watch(uri) {
        if (uri === 'mem:///broken') throw new Error('cannot watch this');
        return undefined;
      },
    });
    const connection = await connect();
    await expect(connection.client.subscribeResource({ uri: 'nowhere://at/all' })).resolves.toEqual({});
    await expect(connection.client.subscribeResource({ uri: 'mem:///broken' })).resolves.toEqual({});
    server.notifyUpdated('other://x');
    await sleep(DEBOUNCE_MS * 4);
    expect(connection.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
    await connection.client.unsubscribeResource({ uri: 'nowhere://at/all' });
    await connection.client.unsubscribeResource({ uri: 'mem:///broken' });
    expect(server.watchedCount()).toBe(0);
    expect(disposed).toEqual([]);
  });

  it('refuses a subscription past the watcher bound with a reason, and accepts it once one is released', async () => {
    const { server, connect } = setup({ maxWatched: 2 });
    const { client } = await connect();
    await client.subscribeResource({ uri: 'mem:///a' });
    await client.subscribeResource({ uri: 'mem:///b' });
    await expect(client.subscribeResource({ uri: 'mem:///c' })).rejects.toThrow(/Too many subscriptions: 2 resources are watched/);
    expect(server.watchedCount()).toBe(2);
    // Subscribing again to a watched URI costs nothing and is still accepted.
    await client.subscribeResource({ uri: 'mem:///a' });
    await client.unsubscribeResource({ uri: 'mem:///b' });
    await client.subscribeResource({ uri: 'mem:///c' });
    expect(server.watchedCount()).toBe(2);
  });

  it('accepts subscriptions on a server with no watch function at all', async () => {
    const { connect } = setup({ watch: undefined });
    const connection = await connect();
    await expect(connection.client.subscribeResource({ uri: 'mem:///a' })).resolves.toEqual({});
  });

  it('stops every watcher when the server closes', async () => {
    const { server, disposed, connect } = setup();
    const connection = await connect();
    await connection.client.subscribeResource({ uri: 'mem:///a' });
    await connection.client.subscribeResource({ uri: 'mem:///b' });
    await server.close();
    expect(disposed.sort()).toEqual(['mem:///a', 'mem:///b']);
    expect(server.watchedCount()).toBe(0);
  });
});
