import { describe, expect, it } from 'vitest';
import { createUrlGuard, writtenHost, type LookupAll } from './url-guard.js';
import { createAddressClassifier } from './ip-address.js';
import { FetchError } from './errors.js';

const lookup: LookupAll = async (name) => {
  if (name === 'public.test') return [{ address: '93.184.216.34', family: 4 }];
  if (name === 'rebind.test') return [{ address: '93.184.216.34', family: 4 }, { address: '::1', family: 6 }];
  if (name === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
  throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
};

const code = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: FetchError) => error.code);

describe('address classifier', () => {
  const { specialKind } = createAddressClassifier();
  it('names special IPv4 and IPv6 ranges, and passes public ones', () => {
    expect(specialKind('127.0.0.1')).toBe('loopback');
    expect(specialKind('10.0.0.1')).toBe('private');
    expect(specialKind('100.64.1.1')).toBe('shared (CGNAT)');
    expect(specialKind('169.254.169.254')).toBe('link-local');
    expect(specialKind('255.255.255.255')).toBe('reserved or broadcast');
    expect(specialKind('0.0.0.0')).toMatch(/unspecified/);
    expect(specialKind('::')).toMatch(/unspecified/);
    expect(specialKind('::1')).toMatch(/loopback/);
    expect(specialKind('::ffff:10.0.0.1')).toBe('private');
    expect(specialKind('::ffff:7f00:1')).toBe('loopback');
    expect(specialKind('64:ff9b::a9fe:a9fe')).toBe('link-local');
    expect(specialKind('2002:c0a8:0101::1')).toBe('private');
    expect(specialKind('fd12::1')).toBe('unique-local');
    expect(specialKind('fe80::1%eth0')).toBe('link-local');
    expect(specialKind('ff02::1')).toBe('multicast');
    expect(specialKind('93.184.216.34')).toBeUndefined();
    expect(specialKind('2606:2800:220:1::1')).toBeUndefined();
    expect(specialKind('::ffff:93.184.216.34')).toBeUndefined();
  });
});

describe('url guard', () => {
  const guard = createUrlGuard({ allowHosts: ['127.0.0.1:8080', 'Intranet.Example', '[::1]:9000'], lookup });

  it('pins a public name to the address it checked', async () => {
    expect(await guard.check('https://public.test/a')).toMatchObject({ address: '93.184.216.34', family: 4, allowedPrivate: false });
  });

  it('refuses a name if any of its addresses is special', async () => {
    expect(await code(guard.check('http://rebind.test/'))).toBe('BLOCKED');
    expect(await code(guard.check('http://metadata.test/latest'))).toBe('BLOCKED');
  });

  it('allows exactly the listed host[:port], case-insensitively, and nothing else', async () => {
    expect((await guard.check('http://127.0.0.1:8080/')).allowedPrivate).toBe(true);
    expect((await guard.check('http://[::1]:9000/')).allowedPrivate).toBe(true);
    expect(await code(guard.check('http://127.0.0.1:8081/'))).toBe('BLOCKED');
    expect(await code(guard.check('http://127.0.0.1/'))).toBe('BLOCKED');
    expect(await code(guard.check('http://localhost:8080/'))).toBe('BLOCKED');
    expect(await code(guard.check('http://[::1]:8080/'))).toBe('BLOCKED');
    // A host allowed without a port still resolves; any port of it may be private.
    expect(await code(guard.check('http://INTRANET.example:3000/'))).toBe('DNS');
  });

  it('matches --allow-host against the host as written, not as the URL parser rewrites it', async () => {
    for (const url of [
      'http://2130706433:8080/',
      'http://127.1:8080/',
      'http://0x7f000001:8080/',
      'http://0177.0.0.1:8080/',
      'http://%31%32%37.0.0.1:8080/',
      'http://127.0.0.1.:8080/',
      'http://[0:0:0:0:0:0:0:1]:9000/',
      'http://[::ffff:127.0.0.1]:8080/',
    ]) {
      expect(await code(guard.check(url)), url).toBe('BLOCKED');
    }
    expect((await guard.check('http://user@127.0.0.1:8080/')).allowedPrivate).toBe(true);
  });

  it('keeps the host as written across a relative redirect, and takes the new one from an absolute one', async () => {
    const first = await guard.check('http://127.0.0.1:8080/start');
    expect((await guard.check('/next', first)).allowedPrivate).toBe(true);
    expect(await code(guard.check('//2130706433:8080/next', first))).toBe('BLOCKED');
    expect(await code(guard.check('http://2130706433:8080/next', first))).toBe('BLOCKED');
  });

  it('reads the host as written from every form of URL', () => {
    expect(writtenHost('http://2130706433:8080/x')).toBe('2130706433');
    expect(writtenHost('HTTPS://User:pw@Site.Test:443/x?y#z')).toBe('site.test');
    expect(writtenHost('http:\\\\127.1/x')).toBe('127.1');
    expect(writtenHost('http://[::1]:9000/')).toBe('[::1]');
    expect(writtenHost('//evil.test/x')).toBe('evil.test');
    expect(writtenHost('/relative/path')).toBeUndefined();
    expect(writtenHost('relative?x')).toBeUndefined();
  });

  it('refuses other schemes and unparsable URLs', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://public.test/', 'gopher://public.test/', 'data:text/plain,hi', 'javascript:alert(1)']) {
      expect(await code(guard.check(url)), url).toBe('BAD_URL');
    }
    expect(await code(guard.check('http//missing-colon'))).toBe('BAD_URL');
  });
});
