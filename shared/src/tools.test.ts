import { describe, it, expect, afterEach } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { createServer, type McpServer } from './server.js';
import { defineTool } from './definitions.js';
import { ToolError, ErrorCodes } from './errors.js';
import { silentLogger } from './logging.js';
import { connectInMemory, type ClientOptions, type Connection } from './client/index.js';

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void };
function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const textOf = (result: unknown) =>
  ((result as { content: unknown }).content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

describe('tools/call', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const started = { current: deferred() };
  const sawAbort = { current: deferred<unknown>() };

  function toolServer(): McpServer {
    return createServer({
      name: 'tools',
      version: '1.0.0',
      logger: silentLogger,
      tools: [
        defineTool({
          name: 'add',
          description: 'Adds two integers',
          input: z.object({ a: z.number().int(), b: z.number().int().describe('second addend') }),
          output: z.object({ sum: z.number() }),
          handler: ({ a, b }, ctx) => ctx.result({ sum: a + b }),
        }),
        defineTool({
          name: 'describe_file',
          description: 'Structured output, custom rendering and links',
          input: z.object({ uri: z.string() }),
          output: z.object({ uri: z.string(), lines: z.number().int() }),
          render: (out) => `${out.uri} has ${out.lines} lines`,
          handler: ({ uri }, ctx) =>
            ctx.result({ uri, lines: 3 }, [
              ctx.link(uri, { mimeType: 'text/plain' }),
              ctx.embed({ uri, mimeType: 'text/plain', text: 'a\nb\nc' }),
            ]),
        }),
        defineTool({
          name: 'refuse',
          description: 'Fails the way a tool should',
          input: z.object({}),
          output: z.object({}),
          handler() {
            throw new ToolError('No such branch "x". Call git_branch to list branches.');
          },
        }),
        defineTool({
          name: 'crash',
          description: 'Fails unexpectedly',
          input: z.object({}),
          output: z.object({}),
          handler() {
            throw new Error('disk on fire');
          },
        }),
        defineTool({
          name: 'count',
          description: 'Reports progress',
          input: z.object({ steps: z.number().int() }),
          output: z.object({ done: z.number() }),
          async handler({ steps }, ctx) {
            for (let i = 1; i <= steps; i++) await ctx.progress(i, steps, `step ${i}`);
            return ctx.result({ done: steps });
          },
        }),
        defineTool({
          name: 'paged',
          description: 'Pages by itself with tool cursors',
          input: z.object({ cursor: z.string().optional() }),
          output: z.object({ after: z.string() }),
          handler: ({ cursor }, ctx) => ctx.result({ after: cursor === undefined ? '' : ctx.cursor.decode(cursor) }),
        }),
        defineTool({
          name: 'streamed',
          description: 'Pages a stream with ctx.page',
          input: z.object({ cursor: z.string().optional() }),
          output: z.object({ items: z.array(z.string()), nextCursor: z.string().optional() }),
          async handler({ cursor }, ctx) {
            const page = await ctx.page((after) => ['a', 'b', 'c'].filter((x) => after === undefined || x > after), {
              cursor,
              keyOf: (x) => x,
              limit: 2,
            });
            return ctx.result({ items: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
          },
        }),
        defineTool({
          name: 'wait_for_cancel',
          description: 'Runs until cancelled',
          input: z.object({}),
          output: z.object({}),
          async handler(_args, ctx) {
            started.current.resolve();
            await new Promise<void>((resolve) => {
              if (ctx.signal.aborted) resolve();
              ctx.signal.addEventListener('abort', () => resolve(), { once: true });
            });
            sawAbort.current.resolve(ctx.signal.reason);
            return ctx.result({});
          },
        }),
      ],
    });
  }

  async function connect(server = toolServer(), options: ClientOptions = {}): Promise<Connection> {
    const connection = await connectInMemory(server, options);
    cleanups.push(async () => {
      await connection.close();
      await server.close();
    });
    return connection;
  }

  it('lists each tool with input and output JSON Schemas', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const add = tools.find((t) => t.name === 'add')!;
    expect(add.description).toBe('Adds two integers');
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer', description: 'second addend' } },
      required: ['a', 'b'],
    });
    expect(add.inputSchema).not.toHaveProperty('$schema');
    expect(add.outputSchema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } } });
  });

  it('answers invalid arguments with an isError result that names the field', async () => {
    const { client } = await connect();
    const wrongType = await client.callTool({ name: 'add', arguments: { a: 1, b: 'two' } });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toMatch(/^Invalid arguments for add: b: /);
    const missing = await client.callTool({ name: 'add', arguments: { a: 1 } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/\bb: /);
    // ...and keeps answering.
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
  });

  it('answers an unknown tool with JSON-RPC -32602', async () => {
    const { client } = await connect();
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: ErrorCodes.InvalidParams,
      message: expect.stringMatching(/Unknown tool: nope/),
    });
  });

  it('answers a bad tool cursor with an isError result, like any other bad argument', async () => {
    const { client } = await connect();
    const good = await client.callTool({ name: 'streamed', arguments: {} });
    const { nextCursor } = good.structuredContent as { nextCursor: string };
    expect((await client.callTool({ name: 'streamed', arguments: { cursor: nextCursor } })).structuredContent).toEqual({ items: ['c'] });
    for (const name of ['paged', 'streamed']) {
      for (const cursor of ['not-a-cursor', 'bm90LWEtY3Vyc29y', '!!!']) {
        const result = await client.callTool({ name, arguments: { cursor } });
        expect(result.isError, `${name} ${cursor}`).toBe(true);
        expect(textOf(result)).toMatch(/[Ii]nvalid cursor/);
      }
    }
  });

  it('turns a ToolError into an isError result with its message', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'refuse', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('No such branch "x". Call git_branch to list branches.');
  });

  it('turns an unexpected Error into an isError result and keeps serving', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'crash', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('crash failed: disk on fire');
    expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } })).structuredContent).toEqual({ sum: 4 });
  });

  it('returns structuredContent, its text rendering, a resource_link and an embedded resource', async () => {
    const { client } = await connect();
    await client.listTools(); // the SDK client then checks structuredContent against outputSchema
    const result = await client.callTool({ name: 'describe_file', arguments: { uri: 'file:///tmp/notes%20one.txt' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ uri: 'file:///tmp/notes%20one.txt', lines: 3 });
    expect(result.content).toEqual([
      { type: 'text', text: 'file:///tmp/notes%20one.txt has 3 lines' },
      { type: 'resource_link', uri: 'file:///tmp/notes%20one.txt', name: 'notes one.txt', mimeType: 'text/plain' },
      { type: 'resource', resource: { uri: 'file:///tmp/notes%20one.txt', mimeType: 'text/plain', text: 'a\nb\nc' } },
    ]);
    // Without a render function the text is the JSON of the structured result.
    const sum = await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
    expect(JSON.parse(textOf(sum))).toEqual(sum.structuredContent);
  });

  it('sends progress notifications to a client that asked for them', async () => {
    const connection = await connect();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await connection.client.callTool({ name: 'count', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(result.structuredContent).toEqual({ done: 3 });
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    // A client that did not ask (no progress token) gets none.
    await connection.client.callTool({ name: 'count', arguments: { steps: 2 } });
    await connection.client.ping();
    expect(connection.notifications.filter((n) => n.method === 'notifications/progress')).toEqual([]);
  });

  it('aborts ctx.signal when the client cancels, and keeps serving', async () => {
    started.current = deferred();
    sawAbort.current = deferred<unknown>();
    const { client } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, { signal: controller.signal });
    const outcome = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    await started.current.promise;
    controller.abort('user pressed stop');
    expect(await sawAbort.current.promise).toBe('user pressed stop');
    expect(await outcome).toBe('rejected');
    expect((await client.callTool({ name: 'add', arguments: { a: 5, b: 5 } })).structuredContent).toEqual({ sum: 10 });
  });

  it('aborts ctx.signal of running calls when the session closes', async () => {
    started.current = deferred();
    sawAbort.current = deferred<unknown>();
    const connection = await connect();
    void connection.client.callTool({ name: 'wait_for_cancel', arguments: {} }).catch(() => undefined);
    await started.current.promise;
    await connection.close();
    await expect(sawAbort.current.promise).resolves.toBeDefined();
  });
});

describe('ctx.confirm', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A tool that overwrites a real file only when the user confirms. */
  async function setup(options: ClientOptions) {
    const dir = await mkdtemp(path.join(tmpdir(), 'confirm-test-'));
    const file = path.join(dir, 'precious.txt');
    await writeFile(file, 'original');
    const server = createServer({
      name: 'confirming',
      version: '1.0.0',
      logger: silentLogger,
      tools: [
        defineTool({
          name: 'overwrite',
          description: 'Overwrites the file after asking',
          input: z.object({ text: z.string() }),
          output: z.object({ confirmed: z.boolean() }),
          annotations: { destructiveHint: true },
          async handler({ text }, ctx) {
            const confirmed = await ctx.confirm(`Overwrite ${path.basename(file)}?`);
            if (confirmed) await writeFile(file, text);
            return ctx.result({ confirmed });
          },
        }),
      ],
    });
    const connection = await connectInMemory(server, options);
    cleanups.push(async () => {
      await connection.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });
    const overwrite = async () => {
      const result = await connection.client.callTool({ name: 'overwrite', arguments: { text: 'replaced' } });
      return { confirmed: (result.structuredContent as { confirmed: boolean }).confirmed, content: await readFile(file, 'utf8') };
    };
    return { overwrite };
  }

  it('asks through elicitation and goes ahead when the user accepts', async () => {
    const questions: string[] = [];
    const { overwrite } = await setup({
      elicit: (message) => {
        questions.push(message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    expect(await overwrite()).toEqual({ confirmed: true, content: 'replaced' });
    expect(questions).toEqual(['Overwrite precious.txt?']);
  });

  it('does nothing when the user declines, cancels or accepts with confirm=false', async () => {
    for (const answer of [
      { action: 'decline' as const },
      { action: 'cancel' as const },
      { action: 'accept' as const, content: { confirm: false } },
    ]) {
      const { overwrite } = await setup({ elicit: () => answer });
      expect(await overwrite()).toEqual({ confirmed: false, content: 'original' });
    }
  });

  it('goes ahead without asking when the client has no elicitation', async () => {
    const { overwrite } = await setup({});
    expect(await overwrite()).toEqual({ confirmed: true, content: 'replaced' });
  });
});
