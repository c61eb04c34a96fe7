import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from './server.js';
import { defineTool } from './definitions.js';
import { isLogLevel, levelAtLeast, silentLogger } from './logging.js';
import { connectInMemory, type Connection } from './client/index.js';
import { ErrorCodes } from './errors.js';

describe('log levels', () => {
  it('orders levels from debug to emergency', () => {
    expect(levelAtLeast('error', 'warning')).toBe(true);
    expect(levelAtLeast('warning', 'warning')).toBe(true);
    expect(levelAtLeast('info', 'warning')).toBe(false);
    expect(levelAtLeast('emergency', 'debug')).toBe(true);
    expect(isLogLevel('notice')).toBe(true);
    expect(isLogLevel('verbose')).toBe(false);
  });
});

describe('logging/setLevel and notifications/message', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const serverLogs: string[] = [];
  function setup() {
    const server = createServer({
      name: 'chatty-server',
      version: '1.0.0',
      logger: { log: (level, message) => serverLogs.push(`${level}:${message}`) },
      tools: [
        defineTool({
          name: 'chatty',
          description: 'Logs at debug and error',
          input: z.object({ tag: z.string() }),
          output: z.object({ ok: z.boolean() }),
          handler({ tag }, ctx) {
            ctx.log('debug', `debug ${tag}`);
            ctx.log('error', `error ${tag}`, { detail: 42 });
            return ctx.result({ ok: true });
          },
        }),
      ],
    });
    cleanups.push(() => server.close());
    return server;
  }
  async function connect(server: ReturnType<typeof setup>) {
    const connection = await connectInMemory(server);
    cleanups.push(() => connection.close());
    return connection;
  }

  /** Calls the tool, then a ping, so every message the call sent has arrived. */
  async function messagesFrom(connection: Connection, tag: string) {
    await connection.client.callTool({ name: 'chatty', arguments: { tag } });
    await connection.client.ping();
    return connection.notifications
      .filter((n) => n.method === 'notifications/message')
      .map((n) => n.params as { level: string; logger: string; data: unknown })
      .filter((p) => JSON.stringify(p.data).includes(tag));
  }

  it('declares logging and filters by the default level (info) before the client sets one', async () => {
    const connection = await connect(setup());
    expect(connection.client.getServerCapabilities()?.logging).toBeDefined();
    const messages = await messagesFrom(connection, 'default');
    expect(messages).toEqual([
      { level: 'error', logger: 'chatty-server', data: { message: 'error default', data: { detail: 42 } } },
    ]);
  });

  it('reports each tool call and its duration at debug level', async () => {
    const connection = await connect(setup());
    await connection.client.setLoggingLevel('debug');
    await connection.client.callTool({ name: 'chatty', arguments: { tag: 'timed' } });
    await connection.client.ping();
    const done = connection.notifications
      .filter((n) => n.method === 'notifications/message')
      .map((n) => (n.params as { data: unknown }).data)
      .filter((data) => typeof data === 'string' && /^chatty done in \d+ ms$/.test(data));
    expect(done).toHaveLength(1);
  });

  it("sends only messages at or above the session's level", async () => {
    const connection = await connect(setup());
    await connection.client.setLoggingLevel('debug');
    expect((await messagesFrom(connection, 'verbose')).map((m) => m.level)).toEqual(['debug', 'error']);
    await connection.client.setLoggingLevel('error');
    expect((await messagesFrom(connection, 'quiet')).map((m) => m.level)).toEqual(['error']);
    await connection.client.setLoggingLevel('critical');
    expect(await messagesFrom(connection, 'silent')).toEqual([]);
    // The process log (stderr) still gets everything the server logged.
    expect(serverLogs).toContain('debug:debug silent');
  });

  it('keeps an independent level per session', async () => {
    const server = setup();
    const verbose = await connect(server);
    const quiet = await connect(server);
    await verbose.client.setLoggingLevel('debug');
    await quiet.client.setLoggingLevel('error');
    expect((await messagesFrom(verbose, 'v1')).map((m) => m.level)).toEqual(['debug', 'error']);
    expect((await messagesFrom(quiet, 'q1')).map((m) => m.level)).toEqual(['error']);
    // A session's messages go to that session only.
    expect(quiet.notifications.some((n) => JSON.stringify(n.params).includes('v1'))).toBe(false);
    expect(verbose.notifications.some((n) => JSON.stringify(n.params).includes('q1'))).toBe(false);
  });

  it('rejects an invalid level as invalid params and keeps the current one', async () => {
    const connection = await connect(setup());
    await connection.client.setLoggingLevel('error');
    await expect(
      connection.client.request({ method: 'logging/setLevel', params: { level: 'loud' } } as never, EmptyResultSchema),
    ).rejects.toMatchObject({ code: ErrorCodes.InvalidParams });
    expect((await messagesFrom(connection, 'after')).map((m) => m.level)).toEqual(['error']);
  });

  it('starts sessions at the configured logLevel', async () => {
    const server = createServer({
      name: 'debuggy',
      version: '1.0.0',
      logger: silentLogger,
      logLevel: 'debug',
      tools: [
        defineTool({
          name: 'chatty',
          description: 'Logs at debug',
          input: z.object({ tag: z.string() }),
          output: z.object({ ok: z.boolean() }),
          handler({ tag }, ctx) {
            ctx.log('debug', `debug ${tag}`);
            return ctx.result({ ok: true });
          },
        }),
      ],
    });
    cleanups.push(() => server.close());
    const connection = await connect(server as never);
    expect((await messagesFrom(connection, 'configured')).map((m) => m.level)).toEqual(['debug']);
  });
});
