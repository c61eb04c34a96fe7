import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { createServer } from './server.js';
import { defineTool } from './definitions.js';
import { silentLogger } from './logging.js';
import { defineResourceTemplate } from './definitions.js';
import { connectInMemory, connectHttp, type Connection } from './client/index.js';
import { serveHttp, type HttpHandle } from './transports/http.js';
import { textContents } from './results.js';

const connections: Connection[] = [];
const handles: HttpHandle[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

type Via = 'in-memory' | 'http';
async function connect(server: ReturnType<typeof fixture>['server'], via: Via, options: Parameters<typeof connectInMemory>[1]) {
  if (via === 'in-memory') return connectInMemory(server, options);
  const handle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger });
  handles.push(handle);
  return connectHttp(handle.url, options);
}

function fixture() {
  const effects: string[] = [];
  const cancelled: string[] = [];
  const watching = new Set<string>();
  const server = createServer({
    name: 'eras',
    templates: [
      defineResourceTemplate({
        uriTemplate: 'note://{name}',
        name: 'note',
        read: (uri) => [textContents(uri, 'a note')],
      }),
    ],
    watch: (uri, changed) => {
      watching.add(uri);
      const timer = setInterval(() => changed(), 50);
      return () => {
        clearInterval(timer);
        watching.delete(uri);
      };
    },
    version: '1.0.0',
    logger: silentLogger,
    tools: [
      defineTool({
        name: 'echo',
        description: 'Echoes its text',
        input: z.object({ text: z.string() }),
        output: z.object({ text: z.string() }),
        handler: ({ text }, ctx) => ctx.result({ text }),
      }),
      defineTool({
        name: 'whoami',
        description: 'The roots and the era',
        input: z.object({}),
        output: z.object({ roots: z.array(z.string()).nullable() }),
        async handler(_args, ctx) {
          const roots = await ctx.roots();
          return ctx.result({ roots: roots ? roots.map((r) => r.uri) : null });
        },
      }),
      defineTool({
        name: 'ask_name',
        description: 'Asks for a name with a form',
        input: z.object({}),
        output: z.object({ answer: z.string() }),
        async handler(_args, ctx) {
          const answer = await ctx.elicit({
            key: 'name',
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          });
          return ctx.result({ answer: answer ? `${answer.action}:${String(answer.content?.name ?? '')}` : 'unavailable' });
        },
      }),
      defineTool({
        name: 'survey',
        description: 'Asks a form, a completion and the roots at once',
        input: z.object({}),
        output: z.object({ name: z.string(), completion: z.string(), roots: z.string() }),
        async handler(_args, ctx) {
          const answers = await ctx.ask({
            name: { elicit: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } },
            completion: { sample: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 } },
            places: { roots: true },
          });
          const completion = answers.completion;
          return ctx.result({
            name: answers.name ? String(answers.name.content?.name) : '-',
            completion: completion ? `${completion.model}:${completion.content.type === 'text' ? completion.content.text : ''}` : '-',
            roots: answers.places ? answers.places.map((r) => r.uri).join(',') : '-',
          });
        },
      }),
      defineTool({
        name: 'needs_sampling',
        description: 'Refuses a client without sampling',
        input: z.object({}),
        output: z.object({ completion: z.string() }),
        async handler(_args, ctx) {
          const { completion } = await ctx.ask({ completion: { sample: { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 5 } } }, { required: true });
          return ctx.result({ completion: completion?.model ?? '-' });
        },
      }),
      defineTool({
        name: 'slow',
        description: 'Waits until cancelled (or 10 s)',
        input: z.object({}),
        output: z.object({}),
        async handler(_args, ctx) {
          await ctx.roots();
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 10_000);
            ctx.signal.addEventListener('abort', () => {
              cancelled.push('slow');
              clearTimeout(timer);
              resolve();
            });
          });
          return ctx.result({});
        },
      }),
      defineTool({
        name: 'destroy',
        description: 'Asks, then records a side effect',
        input: z.object({ what: z.string() }),
        output: z.object({ done: z.boolean() }),
        async handler({ what }, ctx) {
          await ctx.roots();
          if (!(await ctx.confirm(`Destroy ${what}?`))) return ctx.result({ done: false });
          effects.push(what);
          return ctx.result({ done: true });
        },
      }),
    ],
  });
  return { server, effects, watching, cancelled };
}

describe.each([
  ['legacy', 'in-memory'],
  ['modern', 'in-memory'],
  ['legacy', 'http'],
  ['modern', 'http'],
] as const)('both eras: %s over %s', (era, via) => {
  it('lists and calls tools', async () => {
    const { server } = fixture();
    const connection = await connect(server, via, { era });
    connections.push(connection);
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const result = await connection.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.structuredContent).toEqual({ text: 'hi' });
    // A 2026-07-28 HTTP request has its own server instance, gone with the request.
    if (era === 'modern' && via === 'http') expect(server.sessionCount).toBe(0);
  });

  it('asks a roots-capable client for its roots', async () => {
    const { server } = fixture();
    const connection = await connect(server, via, { era, roots: [{ uri: 'file:///tmp/a' }] });
    connections.push(connection);
    const result = await connection.client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toEqual({ roots: ['file:///tmp/a'] });
    if (era === 'modern') expect(connection.sent.get('tools/call')).toBe(2);
  });

  it('confirms through elicitation, and a decline changes nothing', async () => {
    const { server, effects } = fixture();
    let answer = false;
    const connection = await connect(server, via, {
      era,
      roots: [{ uri: 'file:///tmp/a' }],
      elicit: () => ({ action: 'accept', content: { confirm: answer } }),
    });
    connections.push(connection);
    const declined = await connection.client.callTool({ name: 'destroy', arguments: { what: 'x' } });
    expect(declined.structuredContent).toEqual({ done: false });
    expect(effects).toEqual([]);
    answer = true;
    const accepted = await connection.client.callTool({ name: 'destroy', arguments: { what: 'y' } });
    expect(accepted.structuredContent).toEqual({ done: true });
    expect(effects).toEqual(['y']);
  });

  it('asks a form through ctx.elicit, and reports a client without elicitation', async () => {
    const { server } = fixture();
    const asking = await connect(server, via, { era, elicit: () => ({ action: 'accept', content: { confirm: true, name: 'Ada' } }) });
    connections.push(asking);
    expect((await asking.client.callTool({ name: 'ask_name', arguments: {} })).structuredContent).toEqual({ answer: 'accept:Ada' });
    const silent = await connect(server, via, { era });
    connections.push(silent);
    expect((await silent.client.callTool({ name: 'ask_name', arguments: {} })).structuredContent).toEqual({ answer: 'unavailable' });
  });

  it('asks a form, a completion and the roots through ctx.ask (one round on 2026-07-28), only what the client declared', async () => {
    const { server } = fixture();
    const prompts: string[] = [];
    const all = await connect(server, via, {
      era,
      roots: [{ uri: 'file:///tmp/a' }],
      elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      sample: (messages) => {
        prompts.push(messages[0].content.type === 'text' ? messages[0].content.text : '?');
        return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm1' };
      },
    });
    connections.push(all);
    const result = await all.client.callTool({ name: 'survey', arguments: {} });
    expect(result.structuredContent).toEqual({ name: 'Ada', completion: 'm1:hi', roots: 'file:///tmp/a' });
    expect(prompts).toEqual(['Say hi']);
    // All three questions went out in one round: the call was sent twice, not four times.
    if (era === 'modern') expect(all.sent.get('tools/call')).toBe(2);
    const samplingOnly = await connect(server, via, { era, sample: () => ({ role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm2' }) });
    connections.push(samplingOnly);
    expect((await samplingOnly.client.callTool({ name: 'survey', arguments: {} })).structuredContent).toEqual({ name: '-', completion: 'm2:yo', roots: '-' });
    const none = await connect(server, via, { era });
    connections.push(none);
    expect((await none.client.callTool({ name: 'survey', arguments: {} })).structuredContent).toEqual({ name: '-', completion: '-', roots: '-' });
  });

  it('ends a call that needs an undeclared capability with -32021 naming it (ctx.ask required)', async () => {
    const { server } = fixture();
    const without = await connect(server, via, { era, elicit: () => ({ action: 'accept' }) });
    connections.push(without);
    const refused = await without.client.callTool({ name: 'needs_sampling', arguments: {} }).then(
      () => undefined,
      (error: { code?: number; data?: unknown }) => error,
    );
    expect(refused?.code).toBe(-32021);
    expect(refused?.data).toMatchObject({ requiredCapabilities: { sampling: {} } });
    const withSampling = await connect(server, via, { era, sample: () => ({ role: 'assistant', content: { type: 'text', text: '.' }, model: 'm3' }) });
    connections.push(withSampling);
    expect((await withSampling.client.callTool({ name: 'needs_sampling', arguments: {} })).structuredContent).toEqual({ completion: 'm3' });
  });

  it('cancels a call: the client gives up and the handler is told', async () => {
    const { server, cancelled } = fixture();
    const connection = await connect(server, via, { era, roots: [{ uri: 'file:///tmp/a' }] });
    connections.push(connection);
    const abort = new AbortController();
    const call = connection.client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: abort.signal }).then(
      () => 'answered',
      () => 'cancelled',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    abort.abort('stop');
    expect(await call).toBe('cancelled');
    for (let i = 0; i < 50 && cancelled.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled).toEqual(['slow']);
  });

  it('notifies a subscriber, and stops watching when it leaves', async () => {
    const { server, watching } = fixture();
    const connection = await connect(server, via, { era });
    connections.push(connection);
    const uri = 'note://a';
    let stop: () => Promise<void>;
    if (era === 'legacy') {
      await connection.client.subscribeResource({ uri });
      stop = async () => void (await connection.client.unsubscribeResource({ uri }));
    } else {
      const client = connection.client as unknown as { listen(filter: object): Promise<{ close(): Promise<void> }> };
      const subscription = await client.listen({ resourceSubscriptions: [uri] });
      stop = () => subscription.close();
    }
    const updated = await connection.waitForNotification('notifications/resources/updated', (p) => p?.uri === uri, 5_000);
    expect(updated.params?.uri).toBe(uri);
    expect(watching.has(uri)).toBe(true);
    await stop();
    for (let i = 0; i < 50 && watching.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(watching.size).toBe(0);
  });
});
