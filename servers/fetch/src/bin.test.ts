// The published bin: one bundled file that also serves as its own conversion worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, startHttpFixture, type Connection, type HttpFixture } from '@mcp-reference/test-harness';
import { articlePage, bin, sentences } from './test-support.js';

describe('bundled bin', () => {
  let site: HttpFixture;
  let connection: Connection;
  const paragraphs = sentences(20_000); // about 2.5 MB of HTML: converted in a worker
  beforeAll(async () => {
    site = await startHttpFixture({
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      '/huge': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(articlePage('Huge', paragraphs)),
    });
    connection = await connectStdio(process.execPath, [bin, '--allow-host', `127.0.0.1:${site.port}`]);
  });
  afterAll(async () => {
    await connection?.close();
    await site?.close();
  });

  it('converts a large page in a worker started from the bundle, answering pings meanwhile', async () => {
    const call = connection.client.callTool({ name: 'fetch', arguments: { url: `${site.origin}/huge`, max_length: 2000 } });
    await expect(connection.client.ping()).resolves.toBeDefined();
    const result = await call;
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const out = result.structuredContent as { content: string; total_length: number; next_start_index: number };
    expect(out.content).toContain(paragraphs[0]);
    expect(out.total_length).toBeGreaterThan(2_000_000);
    const last = await connection.client.callTool({
      name: 'fetch',
      arguments: { url: `${site.origin}/huge`, start_index: out.total_length - 500, max_length: 2000 },
    });
    expect((last.structuredContent as { content: string }).content).toContain('the related story');
    expect(site.requests.filter((r) => r === 'GET /huge')).toHaveLength(1);
  });
});
