import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UI_EXTENSION_ID, VIEW_MIME_TYPE } from '@mcp-reference/shared';
import { startHttpFixture, type HttpFixture } from '@mcp-reference/test-harness';
import { articlePage, open, sentences, type Session } from './test-support.js';

const APPS = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } } };

describe('page view (MCP Apps)', () => {
  let site: HttpFixture;
  let apps: Session;
  let plain: Session;
  beforeEach(async () => {
    site = await startHttpFixture({
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      '/long': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(articlePage('Long Read', sentences(100))),
    });
    apps = await open({ allowHost: [`127.0.0.1:${site.port}`] }, APPS);
    plain = await open({ allowHost: [`127.0.0.1:${site.port}`] });
  });
  afterEach(async () => {
    await apps.close();
    await plain.close();
    await site.close();
  });

  it('fetch names ui://fetch/preview; fetch_continue is listed to Apps clients only', async () => {
    const tools = (await apps.client.listTools()).tools;
    expect(tools.find((t) => t.name === 'fetch')?._meta).toEqual({ ui: { resourceUri: 'ui://fetch/preview' } });
    expect(tools.find((t) => t.name === 'fetch_continue')?._meta).toEqual({ ui: { visibility: ['app'] } });
    const plainTools = (await plain.client.listTools()).tools;
    expect(plainTools.map((t) => t.name)).toEqual(['fetch', 'fetch_many']);
    const { contents } = await apps.client.readResource({ uri: 'ui://fetch/preview' });
    expect(contents).toMatchObject([{ uri: 'ui://fetch/preview', mimeType: VIEW_MIME_TYPE, _meta: { ui: {} } }]);
  });

  it('fetch_continue returns the next piece, the same as fetch with start_index', async () => {
    const url = `${site.origin}/long`;
    const first = await apps.ok('fetch', { url, max_length: 1000 });
    const next = await apps.ok('fetch_continue', { url, start_index: first.next_start_index, max_length: 1000 });
    const same = await plain.ok('fetch', { url, max_length: 1000, start_index: 1000 });
    expect(next.start_index).toBe(1000);
    expect(next.content).toBe(same.content);
  });

  it('fetch_continue is held to the same URL guard as fetch', async () => {
    expect(await apps.refused('fetch_continue', { url: 'http://127.0.0.1:1/secret', start_index: 0 })).toMatch(/127\.0\.0\.1|private|loopback|allow-host/i);
    expect(await apps.refused('fetch_continue', { url: 'http://169.254.169.254/latest/meta-data', start_index: 0 })).toMatch(/169\.254|link-local|allow-host/i);
  });
});
