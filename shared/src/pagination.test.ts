import { describe, it, expect, afterEach } from 'vitest';
import { z } from 'zod';
import { ErrorCodes, ProtocolError } from './errors.js';
import { encodeCursor, itemsAfter, paginateArray, paginateStream, paginateStreams } from './pagination.js';
import { createServer, type McpServer } from './server.js';
import { definePrompt, defineResource, defineResourceTemplate, defineTool } from './definitions.js';
import { silentLogger } from './logging.js';
import { connectInMemory, type Connection } from './client/index.js';
import type { ResourceInfo } from './types.js';

/** A source that resumes strictly after a key, and refuses a key it never produced. */
function resumable(keys: readonly string[]) {
  return (after: string | undefined): Iterable<string> => {
    if (after === undefined) return keys;
    const at = keys.indexOf(after);
    if (at === -1) throw new Error(`source asked to resume after ${after}, which it does not hold`);
    return keys.slice(at + 1);
  };
}

async function expectInvalidCursor(run: () => unknown): Promise<void> {
  const error = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(ProtocolError);
  expect((error as ProtocolError).code).toBe(ErrorCodes.InvalidParams);
  expect((error as ProtocolError).message).toMatch(/Invalid cursor/);
}

describe('paginateArray', () => {
  const items = Array.from({ length: 7 }, (_, i) => `item-${i}`);

  it('walks every item exactly once, in order, whatever the page size', () => {
    for (let pageSize = 1; pageSize <= 9; pageSize++) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = paginateArray('things', items, cursor, pageSize);
        expect(page.items.length).toBeLessThanOrEqual(pageSize);
        seen.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(items);
      expect(pages).toBe(Math.max(1, Math.ceil(items.length / pageSize)));
    }
  });

  it('gives no nextCursor when the last page is exactly full', () => {
    expect(paginateArray('things', items.slice(0, 4), undefined, 4).nextCursor).toBeUndefined();
    expect(paginateArray('things', [], undefined, 4)).toEqual({ items: [], nextCursor: undefined });
  });

  it('refuses garbage, a cursor of another list, a negative or fractional offset and one past the end', async () => {
    await expectInvalidCursor(() => paginateArray('things', items, '!!not a cursor!!', 3));
    await expectInvalidCursor(() => paginateArray('things', items, Buffer.from('not json').toString('base64url'), 3));
    await expectInvalidCursor(() => paginateArray('things', items, Buffer.from('[1,2]').toString('base64url'), 3));
    await expectInvalidCursor(() => paginateArray('things', items, encodeCursor('other-list', { o: 3 }), 3));
    await expectInvalidCursor(() => paginateArray('things', items, encodeCursor('things', { o: -1 }), 3));
    await expectInvalidCursor(() => paginateArray('things', items, encodeCursor('things', { o: 1.5 }), 3));
    await expectInvalidCursor(() => paginateArray('things', items, encodeCursor('things', { o: 8 }), 3));
    // A streamed-list cursor (a key, no offset) is not an offset cursor.
    await expectInvalidCursor(() => paginateArray('things', items, encodeCursor('things', { k: 'item-2' }), 3));
  });
});

describe('paginateStream', () => {
  const keys = Array.from({ length: 10 }, (_, i) => `k${String(i).padStart(2, '0')}`);

  it('walks a resumable stream with no duplicates or gaps', async () => {
    for (const pageSize of [1, 3, 5, 10, 11]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await paginateStream('keys', resumable(keys), (k) => k, cursor, pageSize);
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(keys);
    }
  });

  it('pulls one page plus one item from a generator, then closes it', async () => {
    let pulled = 0;
    let closed = 0;
    function* huge(after: string | undefined) {
      try {
        for (let i = after === undefined ? 0 : Number(after) + 1; i < 1_000_000; i++) {
          pulled++;
          yield String(i);
        }
      } finally {
        closed++;
      }
    }
    const first = await paginateStream('numbers', huge, (k) => k, undefined, 3);
    expect(first.items).toEqual(['0', '1', '2']);
    expect(pulled).toBe(4);
    expect(closed).toBe(1);

    const second = await paginateStream('numbers', huge, (k) => k, first.nextCursor, 3);
    expect(second.items).toEqual(['3', '4', '5']);
    expect(pulled).toBe(8);
    expect(closed).toBe(2);
  });

  it('closes an async generator too', async () => {
    let pulled = 0;
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) {
          pulled++;
          yield `n${i}`;
        }
      } finally {
        closed = true;
      }
    }
    const page = await paginateStream('async', source, (k) => k, undefined, 2);
    expect(page.items).toEqual(['n0', 'n1']);
    expect(page.nextCursor).toBeDefined();
    expect(pulled).toBe(3);
    expect(closed).toBe(true);
  });

  it('refuses a bad cursor before pulling anything', async () => {
    let called = false;
    const source = () => {
      called = true;
      return keys;
    };
    await expectInvalidCursor(() => paginateStream('keys', source, (k) => k, 'garbage!', 3));
    await expectInvalidCursor(() => paginateStream('keys', source, (k) => k, encodeCursor('other', { k: 'k01' }), 3));
    // An offset cursor (from an in-memory list) carries no key to resume after.
    await expectInvalidCursor(() => paginateStream('keys', source, (k) => k, encodeCursor('keys', { o: 2 }), 3));
    expect(called).toBe(false);
  });
});

describe('itemsAfter', () => {
  const rows = ['b', 'a', 'd', 'c'].map((name) => ({ name }));
  const keyOf = (row: { name: string }) => row.name;
  const names = (list: readonly { name: string }[]) => list.map(keyOf);
  const byName = (gone: string) => (row: { name: string }) => row.name > gone;

  it('goes on after the key in the order of the list, not of the keys', () => {
    expect(names(itemsAfter(rows, 'a', keyOf, byName))).toEqual(['d', 'c']);
    expect(names(itemsAfter(rows, 'c', keyOf, byName))).toEqual([]);
  });

  it("asks whenGone only for a key that is gone, and goes on with what it says comes after", () => {
    const asked: string[] = [];
    const spy = (gone: string) => (asked.push(gone), byName(gone));
    expect(names(itemsAfter(rows, 'b', keyOf, spy))).toEqual(['a', 'd', 'c']);
    expect(asked).toEqual([]);
    expect(names(itemsAfter(rows, 'bb', keyOf, spy))).toEqual(['d', 'c']);
    expect(asked).toEqual(['bb']);
  });

  it("refuses with whenGone's error when the list has no order to resume in", () => {
    const refuse = (gone: string): never => {
      throw new Error(`${gone} is gone: start over`);
    };
    expect(() => itemsAfter(rows, 'x', keyOf, refuse)).toThrow('x is gone: start over');
    expect(names(itemsAfter(rows, 'd', keyOf, refuse))).toEqual(['c']);
  });
});

describe('paginateStreams', () => {
  const streams = [['a1', 'a2', 'a3'], ['b1', 'b2'], [], ['d1', 'd2', 'd3', 'd4']];
  const sources = streams.map(resumable);
  const all = streams.flat();

  async function walk(pageSize: number) {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await paginateStreams('multi', sources, (k) => k, cursor, pageSize);
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return pages;
  }

  it('walks several streams with no duplicates or gaps for every page size', async () => {
    for (let pageSize = 1; pageSize <= all.length + 1; pageSize++) {
      const pages = await walk(pageSize);
      expect(pages.flat()).toEqual(all);
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(pageSize);
    }
  });

  it('starts the next page at the top of the next stream when a page ends exactly at a stream end', async () => {
    // Page size 3: the first page is exactly stream a; the second must start at b1, not
    // resume inside stream b after a key of stream a.
    expect(await walk(3)).toEqual([
      ['a1', 'a2', 'a3'],
      ['b1', 'b2', 'd1'],
      ['d2', 'd3', 'd4'],
    ]);
    // Page size 5: the first page ends exactly at the end of stream b, the next stream is empty.
    expect(await walk(5)).toEqual([
      ['a1', 'a2', 'a3', 'b1', 'b2'],
      ['d1', 'd2', 'd3', 'd4'],
    ]);
  });

  it('pulls at most one item past the page from each stream and closes it', async () => {
    const log: string[] = [];
    const tracked = (name: string, n: number) =>
      function* () {
        try {
          for (let i = 0; i < n; i++) {
            log.push(`${name}${i}`);
            yield `${name}${i}`;
          }
        } finally {
          log.push(`${name}:closed`);
        }
      };
    const page = await paginateStreams('tracked', [tracked('x', 2), tracked('y', 1000)], (k) => k, undefined, 3);
    expect(page.items).toEqual(['x0', 'x1', 'y0']);
    expect(log).toEqual(['x0', 'x1', 'x:closed', 'y0', 'y1', 'y:closed']);
  });

  it('refuses a cursor of another list, garbage, or a stream index out of range', async () => {
    await expectInvalidCursor(() => paginateStreams('multi', sources, (k) => k, '%%%', 3));
    await expectInvalidCursor(() => paginateStreams('multi', sources, (k) => k, encodeCursor('tools/list', { s: 1 }), 3));
    await expectInvalidCursor(() => paginateStreams('multi', sources, (k) => k, encodeCursor('multi', { s: -1 }), 3));
    await expectInvalidCursor(() => paginateStreams('multi', sources, (k) => k, encodeCursor('multi', { s: 4 }), 3));
    await expectInvalidCursor(() => paginateStreams('multi', sources, (k) => k, encodeCursor('multi', { o: 1 }), 3));
  });
});

describe('listings through a client', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const out = z.object({ ok: z.boolean() });
  const tool = (name: string) =>
    defineTool({ name, description: `tool ${name}`, input: z.object({}), output: out, handler: (_a, ctx) => ctx.result({ ok: true }) });
  const prompt = (name: string) =>
    definePrompt({ name, description: `prompt ${name}`, args: z.object({}), handler: () => ({ messages: [] }) });
  const template = (name: string, list?: (after: string | undefined) => Iterable<ResourceInfo> | AsyncIterable<ResourceInfo>) =>
    defineResourceTemplate({
      uriTemplate: `${name}:///{id}`,
      name,
      ...(list ? { list: (after: string | undefined) => list(after) } : {}),
      read: (uri) => [{ uri, text: uri }],
    });

  async function open(server: McpServer): Promise<Connection> {
    const connection = await connectInMemory(server);
    cleanups.push(async () => {
      await connection.close();
      await server.close();
    });
    return connection;
  }

  it('pages tools, prompts and templates with pageSize and refuses a bad cursor with -32602', async () => {
    const server = createServer({
      name: 'paged',
      version: '1.0.0',
      logger: silentLogger,
      pageSize: 2,
      tools: ['t1', 't2', 't3'].map(tool),
      prompts: ['p1', 'p2', 'p3'].map(prompt),
      templates: ['x', 'y', 'z'].map((name) => template(name)),
    });
    const { client } = await open(server);

    const tools1 = await client.listTools();
    expect(tools1.tools.map((t) => t.name)).toEqual(['t1', 't2']);
    expect(tools1.nextCursor).toEqual(expect.any(String));
    const tools2 = await client.listTools({ cursor: tools1.nextCursor });
    expect(tools2.tools.map((t) => t.name)).toEqual(['t3']);
    expect(tools2.nextCursor).toBeUndefined();

    const prompts1 = await client.listPrompts();
    expect(prompts1.prompts.map((p) => p.name)).toEqual(['p1', 'p2']);
    const prompts2 = await client.listPrompts({ cursor: prompts1.nextCursor });
    expect(prompts2.prompts.map((p) => p.name)).toEqual(['p3']);
    expect(prompts2.nextCursor).toBeUndefined();

    const templates1 = await client.listResourceTemplates();
    expect(templates1.resourceTemplates.map((t) => t.name)).toEqual(['x', 'y']);
    const templates2 = await client.listResourceTemplates({ cursor: templates1.nextCursor });
    expect(templates2.resourceTemplates.map((t) => t.name)).toEqual(['z']);
    expect(templates2.nextCursor).toBeUndefined();

    const invalid = { code: ErrorCodes.InvalidParams, message: expect.stringMatching(/Invalid cursor/) };
    await expect(client.listTools({ cursor: 'garbage' })).rejects.toMatchObject(invalid);
    await expect(client.listPrompts({ cursor: 'garbage' })).rejects.toMatchObject(invalid);
    await expect(client.listResourceTemplates({ cursor: 'garbage' })).rejects.toMatchObject(invalid);
    await expect(client.listResources({ cursor: 'garbage' })).rejects.toMatchObject(invalid);
    // A cursor from one list is refused by another.
    await expect(client.listPrompts({ cursor: tools1.nextCursor })).rejects.toMatchObject(invalid);
    await expect(client.listTools({ cursor: encodeCursor('tools/list', { o: -2 }) })).rejects.toMatchObject(invalid);
  });

  it('pages resources/list across the fixed resources and each template listing', async () => {
    const items = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i): ResourceInfo => ({ uri: `${prefix}:///${i}`, name: `${prefix}${i}` }));
    const fromArray = (list: ResourceInfo[]) => (after: string | undefined) =>
      after === undefined ? list : list.slice(list.findIndex((r) => r.uri === after) + 1);
    const server = createServer({
      name: 'resources',
      version: '1.0.0',
      logger: silentLogger,
      pageSize: 2,
      resources: ['one', 'two'].map((name) =>
        defineResource({ uri: `fixed:///${name}`, name, read: () => [{ uri: `fixed:///${name}`, text: name }] }),
      ),
      templates: [template('a', fromArray(items('a', 3))), template('b', fromArray(items('b', 1)))],
    });
    const { client } = await open(server);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? undefined : { cursor });
      pages.push(page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual([
      ['fixed:///one', 'fixed:///two'],
      ['a:///0', 'a:///1'],
      ['a:///2', 'b:///0'],
    ]);
  });

  it("pulls resources/list lazily from a template's list generator", async () => {
    const calls: (string | undefined)[] = [];
    let pulled = 0;
    let closed = 0;
    const server = createServer({
      name: 'lazy',
      version: '1.0.0',
      logger: silentLogger,
      pageSize: 5,
      templates: [
        template('big', function* (after) {
          calls.push(after);
          try {
            for (let i = after === undefined ? 0 : Number(after.slice('big:///'.length)) + 1; i < 1_000_000; i++) {
              pulled++;
              yield { uri: `big:///${i}`, name: `item ${i}` };
            }
          } finally {
            closed++;
          }
        }),
      ],
    });
    const { client } = await open(server);
    const first = await client.listResources();
    expect(first.resources.map((r) => r.uri)).toEqual(['big:///0', 'big:///1', 'big:///2', 'big:///3', 'big:///4']);
    expect(pulled).toBe(6);
    expect(closed).toBe(1);

    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.resources.map((r) => r.uri)).toEqual(['big:///5', 'big:///6', 'big:///7', 'big:///8', 'big:///9']);
    expect(calls).toEqual([undefined, 'big:///4']);
    expect(pulled).toBe(12);
    expect(closed).toBe(2);
  });
});
