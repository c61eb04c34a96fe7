import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { createServer, type SessionInfo } from './server.js';
import { definitionsFor } from './definitions.js';
import { silentLogger } from './logging.js';
import { connectHttp, type ClientOptions } from './client/index.js';
import { serveHttp, type HttpHandle } from './transports/http.js';

/**
 * Roots over Streamable HTTP with the SDK's own HTTP client, which does not open the
 * standalone GET stream before its first call: the roots request must travel on the
 * stream of the call that needs it, and a client that declared roots but does not answer
 * gets no access, never the command-line ceiling.
 */
describe('client roots over HTTP', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(rootsTimeoutMs?: number): Promise<HttpHandle> {
    interface Ext {
      session: SessionInfo;
    }
    const { defineTool } = definitionsFor<Ext>();
    const server = createServer<Ext>({
      name: 'roots-http',
      version: '1.0.0',
      logger: silentLogger,
      rootsTimeoutMs,
      context: (session) => ({ session }),
      tools: [
        defineTool({
          name: 'where',
          description: 'The roots the server sees',
          input: z.object({}),
          output: z.object({ roots: z.array(z.string()).nullable() }),
          async handler(_args, ctx) {
            const roots = await ctx.session.roots();
            return ctx.result({ roots: roots ? roots.map((r) => r.uri) : null });
          },
        }),
      ],
    });
    const handle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger });
    cleanups.push(() => handle.close());
    return handle;
  }

  async function connect(handle: HttpHandle, options: ClientOptions) {
    const connection = await connectHttp(handle.url, options);
    cleanups.push(() => connection.close());
    return connection;
  }

  it('asks for roots on the stream of the call that needs them: the first call gets them', async () => {
    const handle = await start();
    const connection = await connect(handle, { roots: [{ uri: 'file:///srv/project', name: 'project' }] });
    const result = await connection.client.callTool({ name: 'where', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ roots: ['file:///srv/project'] });
  });

  it('asks again after roots/list_changed', async () => {
    const handle = await start();
    const connection = await connect(handle, { roots: [{ uri: 'file:///srv/a' }] });
    expect((await connection.client.callTool({ name: 'where', arguments: {} })).structuredContent).toEqual({ roots: ['file:///srv/a'] });
    await connection.setRoots([{ uri: 'file:///srv/b' }]);
    // The notification is handled before the next request on the same session.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await connection.client.callTool({ name: 'where', arguments: {} })).structuredContent).toEqual({ roots: ['file:///srv/b'] });
  });

  it('gives a client that declares roots but never answers no access, with a message that says why', async () => {
    const handle = await start(300);
    const connection = await connect(handle, { roots: () => new Promise<never>(() => undefined) });
    const result = await connection.client.callTool({ name: 'where', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(/did not answer roots\/list.*no access/);
    // It is asked again on the next call (and still gets nothing).
    const again = await connection.client.callTool({ name: 'where', arguments: {} });
    expect(again.isError).toBe(true);
  });

  it('gives a client that declares roots and answers with an error no access either', async () => {
    const handle = await start(2_000);
    const connection = await connect(handle, { roots: () => Promise.reject(new Error('roots are broken')) });
    const result = await connection.client.callTool({ name: 'where', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(/did not answer roots\/list/);
  });

  it('still reports no roots (the ceiling applies) for a client without the capability', async () => {
    const handle = await start();
    const connection = await connect(handle, {});
    expect((await connection.client.callTool({ name: 'where', arguments: {} })).structuredContent).toEqual({ roots: null });
  });
});
