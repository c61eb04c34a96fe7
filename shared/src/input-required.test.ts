import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { z } from 'zod';
import { createServer } from './server.js';
import { defineTool } from './definitions.js';
import { silentLogger } from './logging.js';
import { narrowScopes, rootPaths } from './roots.js';
import { serveHttp, type HttpHandle } from './transports/http.js';

// Attacks on the 2026-07-28 multi-round-trip flow, sent raw over HTTP so that every field
// is the attacker's: answers are only ever taken for questions this server asked, for
// this very call, sealed in a requestState no client can forge.

const MODERN = '2026-07-28';
const CEILING = ['/srv/allowed'];

let handle: HttpHandle;
const effects: string[] = [];

beforeAll(async () => {
  const server = createServer<{ dirs(): Promise<string[]> }>({
    name: 'attacks',
    version: '1.0.0',
    logger: silentLogger,
    // Like the filesystem and git servers: the narrowed scope is cached per rootsVersion.
    context(session) {
      let cached: { version: number; dirs: Promise<string[]> } | undefined;
      return {
        dirs() {
          if (cached?.version !== session.rootsVersion) {
            cached = { version: session.rootsVersion, dirs: session.roots().then((roots) => narrowScopes(CEILING, rootPaths(roots))) };
          }
          return cached.dirs;
        },
      };
    },
    tools: [
      defineTool({
        name: 'cached_scope',
        description: 'The scope, from the per-rootsVersion cache',
        input: z.object({}),
        output: z.object({ dirs: z.array(z.string()) }),
        async handler(_args, ctx) {
          return ctx.result({ dirs: await (ctx as unknown as { dirs(): Promise<string[]> }).dirs() });
        },
      }),
      defineTool({
        name: 'scope',
        description: 'The directories this call may use: the ceiling, narrowed by the client roots',
        input: z.object({ tag: z.string().optional() }),
        output: z.object({ dirs: z.array(z.string()) }),
        async handler(_args, ctx) {
          return ctx.result({ dirs: narrowScopes(CEILING, rootPaths(await ctx.roots())) });
        },
      }),
      defineTool({
        name: 'wipe',
        description: 'Confirms, then records a side effect',
        input: z.object({ what: z.string() }),
        output: z.object({ done: z.boolean() }),
        async handler({ what }, ctx) {
          if (!(await ctx.confirm(`Wipe ${what}?`))) return ctx.result({ done: false });
          effects.push(what);
          return ctx.result({ done: true });
        },
      }),
    ],
  });
  handle = await serveHttp(server, { host: '127.0.0.1', port: 0, logger: silentLogger });
});

afterAll(async () => {
  await handle?.close();
});

type Answer = { status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } };

/** One raw 2026-07-28 tools/call. */
async function call(
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; version?: string; headers?: Record<string, string>; meta?: Record<string, unknown> | null } = {},
): Promise<Answer> {
  const version = options.version ?? MODERN;
  const meta =
    options.meta === null
      ? undefined
      : {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? { roots: {}, elicitation: { form: {} } },
          ...options.meta,
        };
  const response = await fetch(handle.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': 'tools/call',
      'mcp-name': String(params.name),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...params, ...(meta ? { _meta: meta } : {}) } }),
  });
  const text = await response.text();
  // An SSE answer carries the message on a data: line.
  const json = text.startsWith('{') ? text : (text.split('\n').find((line) => line.startsWith('data: {')) ?? 'data: {}').slice(6);
  return { status: response.status, body: JSON.parse(json) };
}

const structured = (answer: Answer) => answer.body.result?.structuredContent as Record<string, unknown> | undefined;

describe('2026-07-28 input_required under attack', () => {
  it('asks a roots-capable client once, and narrows to the roots it answers', async () => {
    const first = await call({ name: 'scope', arguments: {} });
    expect(first.body.result?.resultType).toBe('input_required');
    expect(Object.keys(first.body.result?.inputRequests as object)).toEqual(['roots']);
    const second = await call({
      name: 'scope',
      arguments: {},
      requestState: first.body.result?.requestState,
      inputResponses: { roots: { roots: [{ uri: 'file:///srv/allowed/project' }] } },
    });
    expect(structured(second)).toEqual({ dirs: ['/srv/allowed/project'] });
  });

  it('never widens past the ceiling, whatever roots come back', async () => {
    const first = await call({ name: 'scope', arguments: {} });
    const second = await call({
      name: 'scope',
      arguments: {},
      requestState: first.body.result?.requestState,
      inputResponses: { roots: { roots: [{ uri: 'file:///' }, { uri: 'file:///etc' }] } },
    });
    const dirs = (structured(second)?.dirs ?? []) as string[];
    for (const dir of dirs) expect(dir === '/srv/allowed' || dir.startsWith('/srv/allowed/')).toBe(true);
  });

  it('sends no input request the client did not declare (roots: the ceiling; confirm: as before)', async () => {
    const scope = await call({ name: 'scope', arguments: {} }, { capabilities: {} });
    expect(structured(scope)).toEqual({ dirs: CEILING });
    const wipe = await call({ name: 'wipe', arguments: { what: 'undeclared' } }, { capabilities: {} });
    expect(structured(wipe)).toEqual({ done: true });
    expect(effects).toContain('undeclared');
  });

  it('refuses a tampered requestState with -32602, and nothing happens', async () => {
    const first = await call({ name: 'wipe', arguments: { what: 'tampered' } });
    expect(first.body.result?.resultType).toBe('input_required');
    const state = String(first.body.result?.requestState);
    const [prefix, body, mac] = state.split('.');
    const forged = JSON.parse(Buffer.from(body, 'base64url').toString());
    forged.p.answers = { forged: true };
    const tampered = `${prefix}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
    const key = Object.keys(first.body.result?.inputRequests as object)[0];
    const answer = await call({
      name: 'wipe',
      arguments: { what: 'tampered' },
      requestState: tampered,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    expect(answer.body.error?.code).toBe(-32602);
    expect(effects).not.toContain('tampered');
  });

  it('refuses a state replayed with other arguments with -32602, and nothing happens', async () => {
    const first = await call({ name: 'wipe', arguments: { what: 'harmless' } });
    const key = Object.keys(first.body.result?.inputRequests as object)[0];
    const replayed = await call({
      name: 'wipe',
      arguments: { what: 'everything' },
      requestState: first.body.result?.requestState,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    expect(replayed.body.error?.code).toBe(-32602);
    expect(replayed.body.error?.message).toMatch(/another call/);
    // ...and with another tool.
    const otherTool = await call({ name: 'scope', arguments: {}, requestState: first.body.result?.requestState });
    expect(otherTool.body.error?.code).toBe(-32602);
    expect(effects).not.toContain('everything');
  });

  it('refuses inputResponses without a requestState with -32602, and nothing happens', async () => {
    const first = await call({ name: 'wipe', arguments: { what: 'stateless' } });
    const key = Object.keys(first.body.result?.inputRequests as object)[0];
    const answer = await call({
      name: 'wipe',
      arguments: { what: 'stateless' },
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    expect(answer.body.error?.code).toBe(-32602);
    expect(effects).not.toContain('stateless');
    const roots = await call({ name: 'scope', arguments: {}, inputResponses: { roots: { roots: [{ uri: 'file:///' }] } } });
    expect(roots.body.error?.code).toBe(-32602);
  });

  it('takes no answer to a question it did not ask', async () => {
    const first = await call({ name: 'scope', arguments: {} });
    // The client answers a confirmation nobody asked for, and not the roots.
    const answer = await call({
      name: 'scope',
      arguments: {},
      requestState: first.body.result?.requestState,
      inputResponses: { 'confirm-x': { action: 'accept', content: { confirm: true } } },
    });
    expect(answer.body.result?.isError).toBe(true);
    expect(structured(answer)).toBeUndefined();
  });

  it('completes a confirmed call, and a declined one changes nothing', async () => {
    const first = await call({ name: 'wipe', arguments: { what: 'declined' } });
    const key = Object.keys(first.body.result?.inputRequests as object)[0];
    const declined = await call({
      name: 'wipe',
      arguments: { what: 'declined' },
      requestState: first.body.result?.requestState,
      inputResponses: { [key]: { action: 'decline' } },
    });
    expect(structured(declined)).toEqual({ done: false });
    expect(effects).not.toContain('declined');
    const again = await call({ name: 'wipe', arguments: { what: 'accepted' } });
    const accepted = await call({
      name: 'wipe',
      arguments: { what: 'accepted' },
      requestState: again.body.result?.requestState,
      inputResponses: { [Object.keys(again.body.result?.inputRequests as object)[0]]: { action: 'accept', content: { confirm: true } } },
    });
    expect(structured(accepted)).toEqual({ done: true });
    expect(effects).toContain('accepted');
  });

  it('keeps each request to its own roots, though servers cache the scope per rootsVersion', async () => {
    const withRoots = async (uri: string) => {
      const first = await call({ name: 'cached_scope', arguments: {} });
      return call({ name: 'cached_scope', arguments: {}, requestState: first.body.result?.requestState, inputResponses: { roots: { roots: [{ uri }] } } });
    };
    expect(structured(await withRoots('file:///srv/allowed/a'))).toEqual({ dirs: ['/srv/allowed/a'] });
    expect(structured(await withRoots('file:///srv/allowed/b'))).toEqual({ dirs: ['/srv/allowed/b'] });
    expect(structured(await call({ name: 'cached_scope', arguments: {} }, { capabilities: {} }))).toEqual({ dirs: CEILING });
    // A roots-capable client is asked, never handed a cached scope of another request.
    expect((await call({ name: 'cached_scope', arguments: {} })).body.result?.resultType).toBe('input_required');
    expect(structured(await withRoots('file:///srv/allowed/a'))).toEqual({ dirs: ['/srv/allowed/a'] });
  });

  it('refuses mismatched headers with -32020 and HTTP 400, and an unsupported version with -32022 naming the supported ones', async () => {
    const mismatch = await call({ name: 'scope', arguments: {} }, { headers: { 'mcp-method': 'tools/list' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error?.code).toBe(-32020);
    const missing = await call({ name: 'scope', arguments: {} }, { headers: { 'mcp-name': 'wipe' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.code).toBe(-32020);
    const unsupported = await call({ name: 'scope', arguments: {} }, { version: '2099-01-01' });
    expect(unsupported.body.error?.code).toBe(-32022);
    expect(JSON.stringify(unsupported.body.error?.data)).toContain(MODERN);
  });

  it('refuses a request whose _meta lacks the client capabilities with -32602', async () => {
    const answer = await call({ name: 'scope', arguments: {} }, { meta: { 'io.modelcontextprotocol/clientCapabilities': 'none' } });
    expect(answer.body.error?.code).toBe(-32602);
  });
});
