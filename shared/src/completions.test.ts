import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { createServer } from './server.js';
import { definePrompt, defineResourceTemplate, definitionsFor, userMessage } from './definitions.js';
import { capCompletions, filterByPrefix } from './completions.js';
import { silentLogger } from './logging.js';
import { connectInMemory, type Connection } from './client/index.js';
import { ErrorCodes } from './errors.js';

describe('capCompletions and filterByPrefix', () => {
  it('caps at 100 values, keeps the total and says there is more', () => {
    const values = Array.from({ length: 250 }, (_, i) => `v${i}`);
    const answer = capCompletions(values);
    expect(answer.values).toEqual(values.slice(0, 100));
    expect(answer.total).toBe(250);
    expect(answer.hasMore).toBe(true);
    expect(capCompletions(values.slice(0, 100))).toEqual({ values: values.slice(0, 100), total: 100, hasMore: false });
  });

  it('drops duplicates before counting', () => {
    expect(capCompletions(['a', 'b', 'a'])).toEqual({ values: ['a', 'b'], total: 2, hasMore: false });
  });

  it('filters by prefix, case-insensitively, keeping the order', () => {
    expect(filterByPrefix(['Main', 'master', 'dev', 'MAINT'], 'ma')).toEqual(['Main', 'master', 'MAINT']);
    expect(filterByPrefix(['a', 'b'], '')).toEqual(['a', 'b']);
  });
});

describe('completion/complete through a client', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const repos: Record<string, string[]> = { alice: ['api', 'app', 'web'], bob: ['apollo', 'blog'] };
  const languages = ['typescript', 'python', 'rust', 'ruby'];
  const styles = ['formal', 'friendly', 'funny'];

  async function connect(): Promise<Connection> {
    interface Ext {
      flavour: string;
    }
    const { definePrompt: defineExtPrompt } = definitionsFor<Ext>();
    const server = createServer<Ext>({
      name: 'completing',
      version: '1.0.0',
      logger: silentLogger,
      context: () => ({ flavour: 'ext-seen' }),
      templates: [
        defineResourceTemplate({
          uriTemplate: 'repo:///{owner}/{name}',
          name: 'repository',
          complete: {
            owner: (typed) => filterByPrefix(Object.keys(repos), typed),
            // The name depends on the owner already chosen (context arguments).
            name: (typed, _ctx, { arguments: args }) => filterByPrefix(repos[args.owner ?? ''] ?? [], typed),
          },
          read: (uri) => [{ uri, text: '' }],
        }),
        defineResourceTemplate({
          uriTemplate: 'many:///{n}',
          name: 'many',
          complete: { n: (typed) => Array.from({ length: 250 }, (_, i) => `${typed}${i}`) },
          read: (uri) => [{ uri, text: '' }],
        }),
      ],
      prompts: [
        defineExtPrompt({
          name: 'review',
          description: 'Review code',
          args: z.object({
            language: z.string().describe('Programming language'),
            style: z.string().optional().describe('Tone of the review'),
          }),
          complete: {
            language: (typed) => filterByPrefix(languages, typed),
            style: (typed, ctx) => [...filterByPrefix(styles, typed), ctx.flavour],
          },
          handler: ({ language, style }) => ({ messages: [userMessage(`Review ${language} ${style ?? ''}`)] }),
        }),
        definePrompt({ name: 'plain', description: 'No completers', args: z.object({ topic: z.string() }), handler: () => ({ messages: [] }) }),
      ],
    });
    const connection = await connectInMemory(server);
    cleanups.push(async () => {
      await connection.close();
      await server.close();
    });
    return connection;
  }

  it('declares completions and completes a template variable', async () => {
    const { client } = await connect();
    expect(client.getServerCapabilities()?.completions).toBeDefined();
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'repo:///{owner}/{name}' },
      argument: { name: 'owner', value: 'al' },
    });
    expect(result.completion).toEqual({ values: ['alice'], total: 1, hasMore: false });
  });

  it('passes context arguments to the completer', async () => {
    const { client } = await connect();
    const complete = (owner: string, value: string) =>
      client.complete({
        ref: { type: 'ref/resource', uri: 'repo:///{owner}/{name}' },
        argument: { name: 'name', value },
        context: { arguments: { owner } },
      });
    expect((await complete('alice', 'ap')).completion.values).toEqual(['api', 'app']);
    expect((await complete('bob', 'ap')).completion.values).toEqual(['apollo']);
  });

  it('completes a required and an OPTIONAL prompt argument, with the server context', async () => {
    const { client } = await connect();
    const language = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'ru' } });
    expect(language.completion.values).toEqual(['rust', 'ruby']);
    // SDK v1's McpServer silently drops completers of optional arguments; the base does not.
    const style = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'style', value: 'f' } });
    expect(style.completion.values).toEqual(['formal', 'friendly', 'funny', 'ext-seen']);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.find((p) => p.name === 'review')?.arguments).toEqual([
      { name: 'language', description: 'Programming language', required: true },
      { name: 'style', description: 'Tone of the review', required: false },
    ]);
  });

  it('caps an answer at 100 values with hasMore and total', async () => {
    const { client } = await connect();
    const result = await client.complete({ ref: { type: 'ref/resource', uri: 'many:///{n}' }, argument: { name: 'n', value: 'x' } });
    expect(result.completion.values).toHaveLength(100);
    expect(result.completion.values[0]).toBe('x0');
    expect(result.completion.hasMore).toBe(true);
    expect(result.completion.total).toBe(250);
  });

  it('answers an argument with no completer with nothing, and an unknown ref with -32602', async () => {
    const { client } = await connect();
    const none = await client.complete({ ref: { type: 'ref/prompt', name: 'plain' }, argument: { name: 'topic', value: '' } });
    expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'missing' }, argument: { name: 'x', value: '' } }),
    ).rejects.toMatchObject({ code: ErrorCodes.InvalidParams });
    await expect(
      client.complete({ ref: { type: 'ref/resource', uri: 'nope:///{x}' }, argument: { name: 'x', value: '' } }),
    ).rejects.toMatchObject({ code: ErrorCodes.InvalidParams });
  });

  it('does not declare completions when nothing completes', async () => {
    const server = createServer({
      name: 'plain',
      version: '1.0.0',
      logger: silentLogger,
      prompts: [definePrompt({ name: 'p', description: 'p', args: z.object({ a: z.string() }), handler: () => ({ messages: [] }) })],
    });
    const connection = await connectInMemory(server);
    cleanups.push(async () => {
      await connection.close();
      await server.close();
    });
    expect(connection.client.getServerCapabilities()?.completions).toBeUndefined();
  });
});
