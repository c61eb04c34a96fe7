// SSRF: a model (or a page it fetched) tries to make the server reach local services.
// Each refusal is checked twice: the call fails, and the trap server saw nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERAS, startHttpFixture, type HttpFixture } from '@mcp-reference/test-harness';
import { open, type Session } from './test-support.js';
import type { LookupAll } from './lib/url-guard.js';

// The whole table runs with both clients (2025 and 2026-07-28), in memory.
describe.each(ERAS)('SSRF attacks (%s client)', (era) => {
  let trap: HttpFixture;
  let site: HttpFixture;
  let other: HttpFixture;
  let session: Session;
  const lookups: string[] = [];
  // Test names: `*.internal.test` resolve to loopback, `mixed.test` to a public and a
  // private address, `site.test` to the allowed fixture; everything else does not exist.
  const lookup: LookupAll = async (name) => {
    lookups.push(name);
    if (name.endsWith('internal.test')) return [{ address: '127.0.0.1', family: 4 }];
    if (name === 'v6.internal-test') return [{ address: '::1', family: 6 }];
    if (name === 'mixed.test') return [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.1', family: 4 }];
    if (name === 'site.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    trap = await startHttpFixture({ '/secret': (_req, res) => void res.end('INTERNAL SECRET') });
    other = await startHttpFixture({
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      '/echo': (req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)),
    });
    site = await startHttpFixture({
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      '/echo': (req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)),
      '/to-same': (_req, res) => void res.writeHead(302, { location: '/echo' }).end(),
      '/to-other': (_req, res) => void res.writeHead(302, { location: `${other.origin}/echo` }).end(),
      '/loop': (_req, res) => void res.writeHead(302, { location: '/loop' }).end(),
    });
    for (const [path, target] of Object.entries({
      '/to-trap': `http://127.0.0.1:${trap.port}/secret`,
      '/to-trap-localhost': `http://localhost:${trap.port}/secret`,
      '/to-trap-decimal': `http://2130706433:${trap.port}/secret`,
      '/to-trap-name': `http://db.internal.test:${trap.port}/secret`,
      '/to-trap-v6': `http://[::ffff:127.0.0.1]:${trap.port}/secret`,
      '/to-self-decimal': `http://2130706433:${site.port}/echo`,
      '/to-file': 'file:///etc/passwd',
    })) {
      site.route(path, (_req, res) => void res.writeHead(302, { location: target }).end());
    }
    session = await open(
      {
        allowHost: [`127.0.0.1:${site.port}`, `site.test:${site.port}`, `127.0.0.1:${other.port}`],
        lookup,
        timeoutMs: 5_000,
      },
      { era },
    );
  });
  afterAll(async () => {
    await session.close();
    await session.server.close();
    await Promise.all([trap.close(), site.close(), other.close()]);
  });

  const spellings = () => [
    `http://127.0.0.1:${trap.port}/secret`,
    `http://127.1:${trap.port}/secret`,
    `http://2130706433:${trap.port}/secret`,
    `http://0x7f000001:${trap.port}/secret`,
    `http://0177.0.0.1:${trap.port}/secret`,
    `http://0x7f.0.0.1:${trap.port}/secret`,
    `http://[::ffff:127.0.0.1]:${trap.port}/secret`,
    `http://[::ffff:7f00:1]:${trap.port}/secret`,
    `http://[::1]:${trap.port}/secret`,
    `http://[::]:${trap.port}/secret`,
    `http://0.0.0.0:${trap.port}/secret`,
    `http://0:${trap.port}/secret`,
    `http://localhost:${trap.port}/secret`,
    `http://LOCALHOST.:${trap.port}/secret`,
    `http://app.localhost:${trap.port}/secret`,
    `http://db.internal.test:${trap.port}/secret`,
    `http://mixed.test:${trap.port}/secret`,
    `http://v6.internal-test:${trap.port}/secret`,
    `https://127.0.0.1:${trap.port}/secret`,
  ];

  it('refuses every spelling of a loopback or private address, before connecting', async () => {
    for (const url of spellings()) {
      expect(await session.refused('fetch', { url }), url).toMatch(/Refused to fetch/);
    }
    expect(trap.requests).toEqual([]);
  });

  it('refuses private, link-local, CGNAT, multicast, broadcast and unique-local addresses', async () => {
    for (const host of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '224.0.0.1', '255.255.255.255', '[fc00::1]', '[fe80::1]', '[ff02::1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
      expect(await session.refused('fetch', { url: `http://${host}/latest/meta-data/` }), host).toMatch(/Refused to fetch/);
    }
  });

  it('refuses redirects into the trap at every hop, and non-http redirects', async () => {
    for (const path of ['/to-trap', '/to-trap-localhost', '/to-trap-decimal', '/to-trap-name', '/to-trap-v6']) {
      expect(await session.refused('fetch', { url: `${site.origin}${path}` }), path).toMatch(/Refused to fetch/);
    }
    expect(await session.refused('fetch', { url: `${site.origin}/to-file` })).toMatch(/Only http/);
    expect(await session.refused('fetch', { url: `${site.origin}/loop` })).toMatch(/redirected more than 10 times/);
    expect(trap.requests).toEqual([]);
  });

  it('allows only the exact host[:port] given with --allow-host', async () => {
    expect(await session.refused('fetch', { url: `http://localhost:${site.port}/echo` })).toMatch(/Refused/);
    expect(await session.refused('fetch', { url: `http://127.0.0.1:${trap.port}/echo` })).toMatch(/Refused/);
    const before = site.requests.length;
    await session.ok('fetch', { url: `http://SITE.test:${site.port}/echo` });
    expect(site.requests.length).toBeGreaterThan(before);
  });

  it('does not let another spelling of an allowed host:port through, directly or by redirect', async () => {
    const before = site.requests.length;
    for (const host of ['2130706433', '127.1', '0x7f000001', '0177.0.0.1', '[::ffff:127.0.0.1]']) {
      const url = `http://${host}:${site.port}/echo`;
      expect(await session.refused('fetch', { url }), url).toMatch(/Refused to fetch/);
    }
    expect(site.requests.length).toBe(before);
    expect(await session.refused('fetch', { url: `${site.origin}/to-self-decimal` })).toMatch(/Refused to fetch/);
    expect(site.requests.slice(before)).toEqual(['GET /to-self-decimal']);
  });

  it('connects to the address it checked, resolving the name once per hop', async () => {
    lookups.length = 0;
    const out = await session.ok<{ content: string }>('fetch', { url: `http://site.test:${site.port}/echo` });
    expect(JSON.parse(out.content).host).toBe(`site.test:${site.port}`);
    expect(lookups).toEqual(['site.test']);
  });

  it('sends per-call headers to the requested host only, never after a redirect elsewhere', async () => {
    const headers = { authorization: 'Bearer TOKEN-123', 'x-custom': 'yes' };
    const same = await session.ok<{ content: string }>('fetch', { url: `${site.origin}/to-same`, headers });
    expect(JSON.parse(same.content)).toMatchObject({ authorization: 'Bearer TOKEN-123', 'x-custom': 'yes' });
    const elsewhere = await session.ok<{ content: string }>('fetch', { url: `${site.origin}/to-other`, headers });
    const seen = JSON.parse(elsewhere.content);
    expect(seen.authorization).toBeUndefined();
    expect(seen['x-custom']).toBeUndefined();
  });

  it('refuses headers that would change the request framing or target', async () => {
    for (const headers of [{ host: 'evil' }, { 'content-length': '5' }, { 'x-a': 'b\r\nx-injected: 1' }, { 'bad name': 'x' }]) {
      expect(await session.refused('fetch', { url: `${site.origin}/echo`, headers }), JSON.stringify(headers)).toMatch(/header/i);
    }
  });

  it('says when a name does not resolve', async () => {
    expect(await session.refused('fetch', { url: 'http://no-such-host.invalid/' })).toMatch(/Cannot resolve no-such-host.invalid/);
  });

  it('does not list pages fetched with per-call headers as resources', async () => {
    await session.ok('fetch', { url: `${site.origin}/echo`, headers: { cookie: 'session=SECRET' } });
    const listed = (await session.client.listResources()).resources.map((r) => r.uri);
    expect(listed).not.toContain(`fetch://page/${site.origin}/echo`);
  });
});
