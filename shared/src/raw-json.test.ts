import { describe, it, expect } from 'vitest';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { RawJson, serializeMessage, withParsedRawJson } from './raw-json.js';
import { jsonBytes } from './result-budget.js';
import { LineTransport } from './transports/stdio-transport.js';
import { createServer } from './server.js';
import { defineTool } from './definitions.js';
import { silentLogger } from './logging.js';
import { connectInMemory } from './client/index.js';

// Values JSON escapes, non-ASCII and astral text, numbers of every kind, nesting.
const ROWS = [
  [1, 'plain', null, 1.5],
  [2, 'quote " backslash \\ newline \n tab \t nul \u0000', true, -0],
  [3, 'é 中文 𝄞 \u2028', false, 1e21],
  [4, 'raw-json:00000000-0000-0000-0000-000000000000:0', [1, [2]], { a: 'b' }],
];

const message = (rows: unknown) => ({
  jsonrpc: '2.0',
  id: 7,
  result: { content: [{ type: 'text', text: 'rows: raw-json:' }], structuredContent: { columns: ['a'], rows, row_count: 4, truncated: false } },
});

describe('RawJson', () => {
  it('is written into a message as its text, and the message reads as if it held the value', () => {
    const raw = new RawJson(JSON.stringify(ROWS), ROWS.slice(0, 1));
    raw.toJSON = () => {
      throw new Error('parsed: the text was not written in as it is');
    };
    const line = serializeMessage(message(raw));
    expect(line).toBe(JSON.stringify(message(ROWS)));
    expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(message(ROWS))));
    // A string that looks like a stand-in, but was not made for this message, is left alone.
    expect(JSON.parse(line).result.structuredContent.rows[3][1]).toBe('raw-json:00000000-0000-0000-0000-000000000000:0');
  });

  it('may be UTF-8 bytes, written in as they are', () => {
    const raw = new RawJson(Buffer.from(JSON.stringify(ROWS), 'utf8'));
    raw.toJSON = () => {
      throw new Error('parsed');
    };
    expect(serializeMessage(message(raw))).toBe(JSON.stringify(message(ROWS)));
    expect(jsonBytes(message(raw))).toBe(Buffer.byteLength(JSON.stringify(message(ROWS))));
    expect(new RawJson(Buffer.from(JSON.stringify(ROWS))).toJSON()).toEqual(JSON.parse(JSON.stringify(ROWS)));
  });

  it('is counted by the result budget as the bytes of its text, without being parsed', () => {
    const raw = new RawJson(JSON.stringify(ROWS));
    raw.toJSON = () => {
      throw new Error('parsed');
    };
    expect(jsonBytes(message(raw))).toBe(Buffer.byteLength(JSON.stringify(message(ROWS))));
  });

  it('is parsed for a transport that hands messages over as objects, leaving the original as it was', () => {
    const original = message(new RawJson(JSON.stringify(ROWS)));
    const parsed = withParsedRawJson(original);
    expect(parsed.result.structuredContent.rows).toEqual(JSON.parse(JSON.stringify(ROWS)));
    expect(original.result.structuredContent.rows).toBeInstanceOf(RawJson);
    // Anything else passes through untouched.
    const plain = message(ROWS);
    expect(withParsedRawJson(plain)).toBe(plain);
    expect(JSON.stringify(original)).toBe(JSON.stringify(message(ROWS)));
  });

  it('reaches a client as the same rows over the stdio transport and in memory', async () => {
    // Over stdio the text is written in, never parsed: parsing it would throw.
    const unparsable = () => {
      const raw = new RawJson(Buffer.from(JSON.stringify(ROWS)));
      raw.toJSON = () => {
        throw new Error('parsed');
      };
      return raw;
    };
    const server = (make = () => new RawJson(JSON.stringify(ROWS))) =>
      createServer({
        name: 'raw',
        version: '1.0.0',
        logger: silentLogger,
        tools: [
          defineTool({
            name: 'rows',
            description: 'Rows serialized elsewhere',
            input: z.object({}),
            output: z.object({ rows: z.array(z.array(z.unknown())), row_count: z.number() }),
            render: (out) => `${out.row_count} rows`,
            handler: (_args, ctx) => ctx.result({ rows: make() as unknown as unknown[][], row_count: ROWS.length }),
          }),
        ],
      });
    const expected = JSON.parse(JSON.stringify(ROWS));

    const memory = await connectInMemory(server());
    try {
      const result = await memory.client.callTool({ name: 'rows', arguments: {} });
      expect(result.structuredContent).toEqual({ rows: expected, row_count: 4 });
    } finally {
      await memory.close();
    }

    const input = new PassThrough();
    const output = new PassThrough();
    const lines: string[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
        lines.push(buffered.slice(0, at));
        buffered = buffered.slice(at + 1);
      }
    });
    const handle = await server(unparsable).connect(new LineTransport(input, output), { era: 'legacy' });
    try {
      const send = (m: unknown) => input.write(`${JSON.stringify(m)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'rows', arguments: {} } });
      await expect.poll(() => lines.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      const answer = JSON.parse(lines.find((line) => JSON.parse(line).id === 2)!);
      expect(answer.result.structuredContent).toEqual({ rows: expected, row_count: 4 });
    } finally {
      await handle.close();
    }
  });
});
