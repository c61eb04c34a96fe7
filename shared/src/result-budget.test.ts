import { describe, it, expect, afterEach, beforeAll } from 'vitest';
import { z } from 'zod';
import { createServer, type McpServer } from './server.js';
import { defineResourceTemplate, defineTool } from './definitions.js';
import { silentLogger } from './logging.js';
import { connectInMemory, connectStdio, type Connection } from './client/index.js';
import { fitsWithin, jsonBytes } from './result-budget.js';
import { renderJson } from './results.js';
import { ensureFixtureBin } from './testing/fixture-bin.js';

const textOf = (result: unknown) => ((result as { content: { text?: string }[] }).content[0].text ?? '');

describe('jsonBytes', () => {
  it('is the UTF-8 size of JSON.stringify, escapes included', () => {
    const values: unknown[] = [
      { a: 'plain', b: [1, 2.5, -3e21, null, true, false], c: { d: 'é€😀', e: undefined } },
      'quotes " and \\ backslashes\nnewlines\ttabs\u0001control\u001f',
      [[], {}, [{}], ''],
      { toJSON: () => ({ x: 1 }) },
      { nan: Number.NaN, inf: Number.POSITIVE_INFINITY },
      [0, -0, 9, 10, -10, 99, 100, 123456789, -987654321, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e21, 0.1, -1.5e-7],
      ['lone \ud800 high', 'lone \udc00 low', 'pair \ud83d\ude00 ok', '\u007f\u0080\u07ff\u0800\uffff'],      // Long texts take the engine's UTF-8 count unless something in them needs more than a newline's escape.
      ['line é€😀\n'.repeat(300), 'tab\t'.repeat(300), 'quote "'.repeat(300), `${'x'.repeat(300)}\ud800`, 'ÿ'.repeat(1000)],
    ];
    for (const value of values) expect(jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
  });
});

describe('fitsWithin', () => {
  const worst: unknown[] = [
    '\u0001'.repeat(200), // every character a 6-byte escape, under the long-string cut
    '\u0001'.repeat(5000), // and over it (measured exactly)
    '\ud800'.repeat(100), // lone surrogates: \udXXX each
    '€'.repeat(1000), // 3 bytes each, a long string bounded without a count
    `${'"'.repeat(500)}\u0001`, // escapes of 2 bytes and one of 6 in a long string
    `${'😀'.repeat(300)}\ud800`,
    Array.from({ length: 1000 }, () => -0.0000035367576877369353), // the longest a number gets
    [-0.0000035367576877369353, -1.7976931348623157e308, -2.2250738585072014e-308, -Number.MAX_SAFE_INTEGER, Number.NaN],
    { ['\u0002'.repeat(50)]: ['\u001f'.repeat(50), null, true, false, undefined], nested: [[[{ toJSON: () => '\u0003'.repeat(40) }]]] },
    Array.from({ length: 300 }, (_, i) => [i, `item ${i}`, i * 1.37, i % 2 === 0]),
  ];

  it('never clears a value whose JSON is over the limit, at any limit', () => {
    for (const value of worst) {
      const size = Buffer.byteLength(JSON.stringify(value));
      for (let limit = 0; limit <= size + 16; limit += Math.max(1, Math.floor(size / 97))) {
        if (fitsWithin(value, limit)) expect(size, `${JSON.stringify(value).slice(0, 40)} at ${limit}`).toBeLessThanOrEqual(limit);
      }
      expect(fitsWithin(value, size - 1)).toBe(false);
    }
  });

  it('clears rows of small values with room to spare, and a long text by a bound or its exact size', () => {
    const rows = { rows: Array.from({ length: 10_000 }, (_, i) => [i, `item ${i}`, 'b', i * 1.37, i]), text: 'x'.repeat(100_000) };
    const size = Buffer.byteLength(JSON.stringify(rows));
    expect(fitsWithin(rows, 8 * 1024 * 1024)).toBe(true);
    // A long text: 3 bytes a character at most, without counting; one that holds a 6-byte escape is measured.
    expect(fitsWithin({ text: 'x'.repeat(1_000_000) }, 3_000_100)).toBe(true);
    expect(fitsWithin({ text: 'x'.repeat(1_000_000) }, 2_000_000)).toBe(false);
    expect(fitsWithin({ text: `${'x'.repeat(1_000_000)}\u0001` }, 1_000_100)).toBe(true);
    expect(fitsWithin(rows, size - 1)).toBe(false);
  });
});

describe('the result budget', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function budgetServer(maxResultBytes?: number): McpServer {
    return createServer({
      name: 'budget',
      version: '1.0.0',
      logger: silentLogger,
      maxResultBytes,
      templates: [
        defineResourceTemplate({
          uriTemplate: 'mem:///{bytes}',
          name: 'sized',
          read: (uri, { bytes }) => [{ uri, mimeType: 'text/plain', text: 'r'.repeat(Number(bytes)) }],
        }),
      ],
      tools: [
        defineTool({
          name: 'read',
          description: 'Text rendered as itself, as a file read is',
          input: z.object({ bytes: z.number().int() }),
          output: z.object({ content: z.string() }),
          render: (out) => out.content,
          whenTooLarge: 'Pass head or tail to read part of the file.',
          handler: ({ bytes }, ctx) => ctx.result({ content: 'x'.repeat(bytes) }),
        }),
        defineTool({
          name: 'list',
          description: 'Many items, rendered as JSON by default',
          input: z.object({ count: z.number().int() }),
          output: z.object({ items: z.array(z.object({ name: z.string(), size: z.number() })) }),
          handler: ({ count }, ctx) =>
            ctx.result({ items: Array.from({ length: count }, (_, i) => ({ name: `file-${i}.txt`, size: i })) }),
        }),
      ],
    });
  }

  async function connect(server: McpServer): Promise<Connection> {
    const connection = await connectInMemory(server);
    cleanups.push(async () => {
      await connection.close();
      await server.close();
    });
    return connection;
  }

  it('leaves a result under the budget untouched', async () => {
    const connection = await connect(budgetServer(64 * 1024));
    const result = await connection.client.callTool({ name: 'read', arguments: { bytes: 1_000 } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('x'.repeat(1_000));
    expect(result.structuredContent).toEqual({ content: 'x'.repeat(1_000) });
  });

  it('does not send a large payload twice: the text is cut, structuredContent stays whole', async () => {
    const connection = await connect(budgetServer(64 * 1024));
    const result = await connection.client.callTool({ name: 'read', arguments: { bytes: 40 * 1024 } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { content: string }).content).toHaveLength(40 * 1024);
    expect(textOf(result).length).toBeLessThan(20 * 1024);
    expect(textOf(result)).toMatch(/whole result is in structuredContent/);
    expect(jsonBytes(result)).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses a result over the budget with an isError that says how to ask for less', async () => {
    const connection = await connect(budgetServer(64 * 1024));
    const result = await connection.client.callTool({ name: 'read', arguments: { bytes: 100 * 1024 } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(/The result of read is \d+ KB, over the 64 KB a response may carry/);
    expect(textOf(result)).toMatch(/Pass head or tail/);
    const listed = await connection.client.callTool({ name: 'list', arguments: { count: 5_000 } });
    expect(listed.isError).toBe(true);
    expect(textOf(listed)).toMatch(/paging|cursor/);
    await expect(connection.client.ping()).resolves.toBeDefined();
  });

  it('refuses a resource read over the budget with a JSON-RPC error instead of sending it', async () => {
    const connection = await connect(budgetServer(64 * 1024));
    const small = await connection.client.readResource({ uri: 'mem:///1000' });
    expect((small.contents[0] as { text: string }).text).toHaveLength(1000);
    await expect(connection.client.readResource({ uri: 'mem:///100000' })).rejects.toThrow(/mem:\/\/\/100000 is \d+ KB, over the 64 KB a response may carry/);
    await expect(connection.client.ping()).resolves.toBeDefined();
  });

  it('bounds the default JSON rendering of a large structured result', async () => {
    const connection = await connect(budgetServer(32 * 1024 * 1024));
    const result = await connection.client.callTool({ name: 'list', arguments: { count: 50_000 } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(50_000);
    expect(textOf(result).length).toBeLessThan(600 * 1024);
    expect(textOf(result)).toMatch(/cut at .* characters; the whole result is in structuredContent/);
    // A small one is the whole JSON, as before.
    expect(renderJson({ a: [1, 2] })).toBe(JSON.stringify({ a: [1, 2] }, null, 2));
  });

  describe('over stdio with the stock SDK client (10 MiB message limit)', () => {
    let bin: string;
    beforeAll(async () => {
      bin = await ensureFixtureBin();
    });

    it('answers a 9.5 MiB result with an isError instead of a message the client drops', async () => {
      const connection = await connectStdio(process.execPath, [bin]);
      cleanups.push(() => connection.close());
      const result = await connection.client.callTool({ name: 'blob', arguments: { bytes: Math.round(9.5 * 1024 * 1024) } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/over the 8\.0 MB a response may carry/);
      const small = await connection.client.callTool({ name: 'blob', arguments: { bytes: 1024 } });
      expect((small.structuredContent as { data: string }).data).toHaveLength(1024);
    });
  });
});
