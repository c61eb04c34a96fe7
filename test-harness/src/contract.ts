import { existsSync } from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { McpServer, Root } from '@mcp-reference/shared';
import { connectInMemory, connectStdio, connectSpawnedHttp, type Connection } from './clients.js';

/** The two protocol eras every suite runs in: the v1 client (2025) and the v2 client pinned to 2026-07-28. */
export const ERAS = ['legacy', 'modern'] as const;
export type Era = (typeof ERAS)[number];

type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** What a server gives the contract suite: a fixture and how to exercise it. */
export interface ContractFixture {
  /** CLI arguments for the built bin (stdio and HTTP). `--page-size` is added by the suite. */
  args: string[];
  /** The same server from the factory, for the in-memory transport. */
  create(options: { pageSize: number }): McpServer;
  /** Client roots to present (for servers that take access from roots). */
  roots?: Root[];
  /** resources/list must page past this size: the fixture holds more resources than this. */
  pageSize: number;
  /** A tool call that succeeds and returns resource links. */
  linkingCall: { name: string; arguments: Record<string, unknown> };
  /** A completion whose values must include `expect`. */
  completion: {
    ref: CompletionRef;
    argument: { name: string; value: string };
    context?: Record<string, string>;
    expect: string;
  };
  /** A resource to subscribe to, and a change to it made outside the server. */
  subscription: { uri: string; change(): Promise<void> };
  cleanup(): Promise<void>;
}

export interface ContractOptions {
  /** Path of the built bin (`servers/NAME/dist/cli.js`). */
  bin: string;
  /** Makes a fresh fixture per transport. */
  setup(): Promise<ContractFixture>;
}

type Transport = 'in-memory' | 'stdio' | 'http';

async function connect(transport: Transport, bin: string, fixture: ContractFixture, era: Era): Promise<Connection> {
  const options = { roots: fixture.roots, era };
  const args = [...fixture.args, '--page-size', String(fixture.pageSize)];
  switch (transport) {
    case 'in-memory':
      return connectInMemory(fixture.create({ pageSize: fixture.pageSize }), options);
    case 'stdio':
      return connectStdio(process.execPath, [bin, ...args], options);
    case 'http':
      return connectSpawnedHttp(bin, args, options);
  }
}

/** The JSON-RPC error code of a rejected request. */
async function rpcErrorCode(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: number }).code;
  }
  return undefined;
}

/**
 * The behaviour every server must show on every transport (ARCHITECTURE.md section 3,
 * first paragraph). Each server's `contract.test.ts` calls this with its fixture.
 */
export function describeServerContract(name: string, options: ContractOptions): void {
  for (const [era, transport] of ERAS.flatMap((era) => (['in-memory', 'stdio', 'http'] as const).map((transport) => [era, transport] as const))) {
    // The 2025 suites keep their names, so their results compare with earlier runs.
    describe(`${name} contract over ${transport}${era === 'modern' ? ' (2026-07-28)' : ''}`, () => {
      let fixture: ContractFixture;
      let connection: Connection;

      beforeAll(async () => {
        if (transport !== 'in-memory' && !existsSync(options.bin)) {
          throw new Error(`${options.bin} is missing: build first (pnpm build)`);
        }
        fixture = await options.setup();
        connection = await connect(transport, options.bin, fixture, era);
      });

      afterAll(async () => {
        await connection?.close();
        await fixture?.cleanup();
      });

      it('declares tools, resources with subscribe and listChanged, prompts, logging and completions', () => {
        const capabilities = connection.client.getServerCapabilities();
        expect(capabilities?.tools).toBeDefined();
        expect(capabilities?.resources).toMatchObject({ subscribe: true, listChanged: true });
        expect(capabilities?.prompts).toBeDefined();
        expect(capabilities?.logging).toBeDefined();
        expect(capabilities?.completions).toBeDefined();
      });

      it('describes every tool with an input and an output schema', async () => {
        const tools = await listAll(connection, 'tools');
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          expect(tool.description, tool.name).toMatch(/\S{3}/);
          expect(tool.name, tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
          expect(tool.inputSchema.type, tool.name).toBe('object');
          expect(tool.outputSchema?.type, `${tool.name} outputSchema`).toBe('object');
        }
      });

      it('describes every prompt', async () => {
        const prompts = await listAll(connection, 'prompts');
        expect(prompts.length).toBeGreaterThan(0);
        for (const prompt of prompts) expect(prompt.description, prompt.name).toMatch(/\S{3}/);
      });

      it('has resource templates', async () => {
        const { resourceTemplates } = await connection.client.listResourceTemplates();
        expect(resourceTemplates.length).toBeGreaterThan(0);
        for (const template of resourceTemplates) expect(template.uriTemplate).toMatch(/\{/);
      });

      it('pages resources/list past the page size without duplicates', async () => {
        if (era === 'modern') {
          // SDK v2's client walks every page itself when called without a cursor.
          const before = connection.sent.get('resources/list') ?? 0;
          const { resources } = await connection.client.listResources();
          const uris = resources.map((r) => r.uri);
          expect(new Set(uris).size).toBe(uris.length);
          expect(uris.length).toBeGreaterThan(fixture.pageSize);
          expect((connection.sent.get('resources/list') ?? 0) - before).toBeGreaterThan(1);
          return;
        }
        const seen = new Set<string>();
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await connection.client.listResources(cursor ? { cursor } : undefined);
          expect(page.resources.length).toBeLessThanOrEqual(fixture.pageSize);
          for (const resource of page.resources) {
            expect(seen.has(resource.uri), `duplicate ${resource.uri}`).toBe(false);
            seen.add(resource.uri);
          }
          cursor = page.nextCursor;
          pages++;
        } while (cursor && pages < 1_000);
        expect(pages).toBeGreaterThan(1);
        expect(seen.size).toBeGreaterThan(fixture.pageSize);
      });

      it('rejects a bad cursor with -32602', async () => {
        expect(await rpcErrorCode(connection.client.listResources({ cursor: 'not-a-cursor' }))).toBe(-32602);
        expect(await rpcErrorCode(connection.client.listTools({ cursor: 'bm90LWEtY3Vyc29y' }))).toBe(-32602);
      });

      it('returns valid structured content and resource links that resources/read resolves', async () => {
        await connection.client.listTools(); // the SDK client validates structuredContent against cached outputSchemas
        const result = await connection.client.callTool(fixture.linkingCall);
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect(result.structuredContent).toBeTypeOf('object');
        const content = result.content as { type: string; text?: string; uri?: string }[];
        expect(content.some((block) => block.type === 'text' && block.text)).toBe(true);
        const links = content.filter((block) => block.type === 'resource_link');
        expect(links.length).toBeGreaterThan(0);
        for (const link of links) {
          const read = await connection.client.readResource({ uri: link.uri! });
          expect(read.contents.length).toBeGreaterThan(0);
          expect(read.contents[0].uri).toBe(link.uri);
        }
      });

      it('completes from the fixture', async () => {
        const { ref, argument, context, expect: expected } = fixture.completion;
        const answer = await connection.client.complete({ ref, argument, ...(context ? { context: { arguments: context } } : {}) });
        expect(answer.completion.values).toContain(expected);
        expect(answer.completion.values.length).toBeLessThanOrEqual(100);
      });

      it('notifies a subscriber when the resource changes outside the server', async () => {
        const { uri, change } = fixture.subscription;
        const stop = await subscribe(connection, uri);
        const since = connection.notifications.length;
        await change();
        const updated = await connection.waitForNotification(
          'notifications/resources/updated',
          (params) => params?.uri === uri && connection.notifications.length > since,
          10_000,
        );
        expect(updated.params?.uri).toBe(uri);
        await stop();
      });

      it('accepts a subscription to a URI it does not serve', async () => {
        const stop = await subscribe(connection, 'unknown://nothing/here');
        await stop();
      });

      it(era === 'legacy' ? 'accepts logging/setLevel and refuses an unknown level' : 'has no logging/setLevel on 2026-07-28 (the level travels in each request)', async () => {
        if (era === 'modern') {
          await expect(connection.client.setLoggingLevel('error')).rejects.toThrow();
          return;
        }
        await expect(connection.client.setLoggingLevel('error')).resolves.toBeDefined();
        expect(await rpcErrorCode(connection.client.setLoggingLevel('loud' as never))).toBe(-32602);
        await connection.client.setLoggingLevel('info');
      });

      it('answers bad arguments with an isError result and keeps serving', async () => {
        const tools = await listAll(connection, 'tools');
        for (const tool of tools) {
          const result = await connection.client.callTool({ name: tool.name, arguments: { __unexpected: { deeply: [1] }, path: 42, name: 42 } });
          const required = (tool.inputSchema.required as string[] | undefined) ?? [];
          if (required.length === 0) continue; // a tool without required arguments may accept this
          expect(result.isError, tool.name).toBe(true);
          expect((result.content as { text?: string }[])[0].text, tool.name).toMatch(/\S/);
        }
        expect(await rpcErrorCode(connection.client.callTool({ name: 'no_such_tool', arguments: {} }))).toBe(-32602);
        await expect(era === 'legacy' ? connection.client.ping() : connection.client.listTools()).resolves.toBeDefined();
      });
    });
  }
}

/**
 * Subscribes to `uri` the way the connection's era does: `resources/subscribe` on 2025,
 * a `subscriptions/listen` stream on 2026-07-28. Returns how to stop.
 */
async function subscribe(connection: Connection, uri: string): Promise<() => Promise<void>> {
  if (connection.era === 'legacy') {
    await connection.client.subscribeResource({ uri });
    return async () => void (await connection.client.unsubscribeResource({ uri }));
  }
  const client = connection.client as unknown as { listen(filter: object): Promise<{ close(): Promise<void> }> };
  const subscription = await client.listen({ resourceSubscriptions: [uri] });
  return () => subscription.close();
}

async function listAll(connection: Connection, kind: 'tools'): Promise<Awaited<ReturnType<Connection['client']['listTools']>>['tools']>;
async function listAll(connection: Connection, kind: 'prompts'): Promise<Awaited<ReturnType<Connection['client']['listPrompts']>>['prompts']>;
async function listAll(connection: Connection, kind: 'tools' | 'prompts'): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page =
      kind === 'tools'
        ? await connection.client.listTools(cursor ? { cursor } : undefined)
        : await connection.client.listPrompts(cursor ? { cursor } : undefined);
    items.push(...((page as Record<string, unknown[]>)[kind] ?? []));
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
