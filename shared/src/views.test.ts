import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { createServer, type McpServer } from './server.js';
import { defineTool, defineResource } from './definitions.js';
import { silentLogger } from './logging.js';
import { connectHttp, connectInMemory, type Connection } from './client/index.js';
import { serveHttp } from './transports/http.js';
import { createViewHandles, defineView, rendersViews, UI_EXTENSION_ID, VIEW_HANDLE_META, VIEW_MIME_TYPE } from './views.js';

const APPS = { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } };
const HTML = '<!doctype html><title>rows</title><p>rows';

function viewServer(counter = { htmlLoads: 0 }, withViews = true, viewScope?: string): McpServer {
  return createServer({
    name: 'views',
    version: '1.0.0',
    ...(viewScope === undefined ? {} : { viewScope }),
    logger: silentLogger,
    tools: [
      defineTool({
        name: 'rows',
        description: 'Rows, shown in a view by hosts that render views',
        input: z.object({ n: z.number().int() }),
        output: z.object({ rows: z.array(z.number()) }),
        ...(withViews ? { view: 'ui://views/rows' as const } : {}),
        handler: ({ n }, ctx) => ctx.result({ rows: Array.from({ length: n }, (_, i) => i) }),
      }),
      ...(withViews
        ? [
            defineTool({
              name: 'rows_page',
              description: 'The page of a rows call, for the view',
              input: z.object({ handle: z.string(), offset: z.number().int() }),
              output: z.object({ rows: z.array(z.number()) }),
              visibility: ['app'],
              async handler({ handle, offset }, ctx) {
                const { n } = (await ctx.openViewHandle(handle, 'rows')) as { n: number };
                return ctx.result({ rows: Array.from({ length: n }, (_, i) => i).slice(offset) });
              },
            }),
          ]
        : []),
      defineTool({
        name: 'echo',
        description: 'No view at all',
        input: z.object({ text: z.string() }),
        output: z.object({ text: z.string() }),
        handler: ({ text }, ctx) => ctx.result({ text }),
      }),
    ],
    resources: [defineResource({ uri: 'memo://one', name: 'one', read: () => [{ uri: 'memo://one', text: '1' }] })],
    ...(withViews
      ? {
          views: [
            defineView({
              uri: 'ui://views/rows',
              title: 'Rows',
              html: async () => {
                counter.htmlLoads++;
                return HTML;
              },
              permissions: { clipboardWrite: {} },
              prefersBorder: true,
            }),
          ],
        }
      : {}),
  });
}

describe('views (MCP Apps)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function connect(server: McpServer, apps: boolean, era: 'legacy' | 'modern' = 'legacy'): Promise<Connection> {
    const connection = await connectInMemory(server, { era, ...(apps ? { extensions: APPS } : {}) });
    cleanups.push(() => server.close(), () => connection.close());
    return connection;
  }

  it('a client without the UI extension gets exactly the tools/list and tools/call of a server without views', async () => {
    const plain = await connect(viewServer(), false);
    const before = await connect(viewServer(undefined, false), false);
    const listed = await plain.client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['rows', 'echo']);
    expect(JSON.stringify(listed)).toBe(JSON.stringify(await before.client.listTools()));
    const call = await plain.client.callTool({ name: 'rows', arguments: { n: 3 } });
    expect(JSON.stringify(call)).toBe(JSON.stringify(await before.client.callTool({ name: 'rows', arguments: { n: 3 } })));
    expect(call._meta).toBeUndefined();
  });

  it('a client with the extension sees app-only tools and _meta.ui, never the deprecated flat key', async () => {
    const apps = await connect(viewServer(), true);
    const { tools } = await apps.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['rows', 'rows_page', 'echo']);
    expect(tools[0]._meta).toEqual({ ui: { resourceUri: 'ui://views/rows' } });
    expect(tools[1]._meta).toEqual({ ui: { visibility: ['app'] } });
    expect(tools[2]._meta).toBeUndefined();
    expect(JSON.stringify(tools)).not.toContain('ui/resourceUri');
  });

  it('declaring the extension without our MIME type is not rendering views', () => {
    expect(rendersViews({ extensions: { [UI_EXTENSION_ID]: {} } })).toBe(false);
    expect(rendersViews({ extensions: { [UI_EXTENSION_ID]: { mimeTypes: ['text/html'] } } })).toBe(false);
    expect(rendersViews({ extensions: APPS })).toBe(true);
    expect(rendersViews(undefined)).toBe(false);
  });

  it('resources/read of a view is one HTML item with _meta.ui, loaded lazily; views are not listed', async () => {
    const counter = { htmlLoads: 0 };
    const apps = await connect(viewServer(counter), true);
    await apps.client.listTools();
    expect(counter.htmlLoads).toBe(0);
    const read = await apps.client.readResource({ uri: 'ui://views/rows' });
    expect(read.contents).toEqual([
      { uri: 'ui://views/rows', mimeType: VIEW_MIME_TYPE, text: HTML, _meta: { ui: { permissions: { clipboardWrite: {} }, prefersBorder: true } } },
    ]);
    expect(counter.htmlLoads).toBe(1);
    const listed = await apps.client.listResources();
    expect(listed.resources.map((r) => r.uri)).toEqual(['memo://one']);
    await expect(apps.client.readResource({ uri: 'ui://views/none' })).rejects.toThrow(/ui:\/\/views\/rows/);
  });

  it('the view gets a sealed handle of the call, which only the app-only tool of that call accepts', async () => {
    const apps = await connect(viewServer(), true);
    const call = await apps.client.callTool({ name: 'rows', arguments: { n: 5 } });
    const handle = (call._meta as Record<string, string>)[VIEW_HANDLE_META];
    expect(handle).toMatch(/\./);
    const page = await apps.client.callTool({ name: 'rows_page', arguments: { handle, offset: 3 } });
    expect(page.structuredContent).toEqual({ rows: [3, 4] });

    // A handle with its arguments changed, or minted by another server, is refused.
    const [body, mac] = handle.split('.');
    const forged = Buffer.from(Buffer.from(body, 'base64url').toString().replace(':5}', ':50}')).toString('base64url');
    expect(forged).not.toBe(body);
    for (const bad of [`${forged}.${mac}`, createViewHandles().seal({ tool: 'rows', args: { n: 5 } }), 'nonsense']) {
      const refused = await apps.client.callTool({ name: 'rows_page', arguments: { handle: bad, offset: 0 } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/not minted by this server/);
    }
    // Also a handle for another tool.
    const handles = createViewHandles(Buffer.alloc(32, 1));
    expect(() => handles.open(handles.seal({ tool: 'echo', args: {} }), 'rows')).toThrow(/belongs to echo/);
  });

  it('app-only tools stay callable by clients without views (they are as safe as any tool)', async () => {
    const plain = await connect(viewServer(), false);
    const refused = await plain.client.callTool({ name: 'rows_page', arguments: { handle: 'x.y', offset: 0 } });
    expect(refused.isError).toBe(true);
  });

  it('refuses a view uri that is not ui://<server>/<name>', () => {
    expect(() => defineView({ uri: 'ui://Bad Name', title: 'x', html: async () => '' })).toThrow(/ui:\/\/<server>\/<name>/);
  });

  describe('2026-07-28: each request says whether its client renders views', () => {
    it('a modern client with the UI extension in its request capabilities sees app-only tools and _meta.ui.resourceUri', async () => {
      const apps = await connect(viewServer(), true, 'modern');
      const { tools } = await apps.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['rows', 'rows_page', 'echo']);
      expect(tools[0]._meta).toEqual({ ui: { resourceUri: 'ui://views/rows' } });
      expect(tools[1]._meta).toEqual({ ui: { visibility: ['app'] } });
      const call = await apps.client.callTool({ name: 'rows', arguments: { n: 4 } });
      const handle = (call._meta as Record<string, string>)[VIEW_HANDLE_META];
      const page = await apps.client.callTool({ name: 'rows_page', arguments: { handle, offset: 2 } });
      expect(page.structuredContent).toEqual({ rows: [2, 3] });
      const read = await apps.client.readResource({ uri: 'ui://views/rows' });
      expect(read.contents[0]).toMatchObject({ uri: 'ui://views/rows', mimeType: VIEW_MIME_TYPE, text: HTML });
    });

    it('a modern client without it sees exactly the tools/list and tools/call of a server without views', async () => {
      const plain = await connect(viewServer(), false, 'modern');
      const before = await connect(viewServer(undefined, false), false, 'modern');
      const listed = await plain.client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual(['rows', 'echo']);
      expect(JSON.stringify(listed)).toBe(JSON.stringify(await before.client.listTools()));
      const call = await plain.client.callTool({ name: 'rows', arguments: { n: 3 } });
      expect(JSON.stringify(call)).toBe(JSON.stringify(await before.client.callTool({ name: 'rows', arguments: { n: 3 } })));
      expect(call._meta?.[VIEW_HANDLE_META]).toBeUndefined();
    });

    it('the tools/list of a client with views is private (no shared cache hands it to others); the plain one stays public', async () => {
      const apps = await connect(viewServer(), true, 'modern');
      const plain = await connect(viewServer(), false, 'modern');
      expect(await apps.client.listTools()).toMatchObject({ cacheScope: 'private', ttlMs: expect.any(Number) });
      expect(await plain.client.listTools()).toMatchObject({ cacheScope: 'public' });
      // 2025 answers carry no cache hint at all.
      const legacy = await connect(viewServer(), false);
      expect(await legacy.client.listTools()).not.toHaveProperty('cacheScope');
    });

    it('one server, clients of both eras with and without views at once: each gets its own answer', async () => {
      const server = viewServer();
      const clients = await Promise.all(
        (['legacy', 'modern'] as const).flatMap((era) => [true, false].map(async (apps) => ({ era, apps, c: await connect(server, apps, era) }))),
      );
      for (let round = 0; round < 2; round++) {
        const lists = await Promise.all(clients.map(async ({ c }) => (await c.client.listTools()).tools.map((t) => t.name)));
        clients.forEach(({ apps }, i) => expect(lists[i]).toEqual(apps ? ['rows', 'rows_page', 'echo'] : ['rows', 'echo']));
      }
    });
  });

  describe('view handles across HTTP instances', () => {
    const KEY = 'v'.repeat(48);
    async function instance(key: string | undefined, viewScope?: string) {
      const server = viewServer(undefined, true, viewScope);
      const handle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger, ...(key ? { requestStateKey: key } : {}) });
      cleanups.push(() => server.close(), () => handle.close());
      const connection = await connectHttp(handle.url, { era: 'modern', extensions: APPS });
      cleanups.push(() => connection.close());
      return connection;
    }
    const mint = async (c: Connection) =>
      ((await c.client.callTool({ name: 'rows', arguments: { n: 3 } }))._meta as Record<string, string>)[VIEW_HANDLE_META];
    const page = (c: Connection, handle: string) => c.client.callTool({ name: 'rows_page', arguments: { handle, offset: 1 } });

    it('a handle minted on one instance opens on another that shares MCP_REQUEST_STATE_KEY and the scope', async () => {
      const [a, b] = await Promise.all([instance(KEY, '/data/shop.db'), instance(KEY, '/data/shop.db')]);
      expect((await page(b, await mint(a))).structuredContent).toEqual({ rows: [1, 2] });
    });

    it('is refused by an instance of another scope (database) or key, and by one with a random key', async () => {
      const a = await instance(KEY, '/data/shop.db');
      const handle = await mint(a);
      for (const other of await Promise.all([instance(KEY, '/data/other.db'), instance('w'.repeat(48), '/data/shop.db'), instance(undefined)])) {
        const refused = await page(other, handle);
        expect(refused.isError).toBe(true);
        expect(JSON.stringify(refused.content)).toMatch(/not minted by this server/);
      }
    });
  });
});
