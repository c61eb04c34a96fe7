import { isIP } from 'node:net';
import { FetchError } from './errors.js';
import { createAddressClassifier } from './ip-address.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (injectable: tests cannot rely on DNS). */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

// dns/promises is loaded by the first lookup, not at start-up (see http-get.ts).
export const systemLookup: LookupAll = async (hostname) =>
  (await process.getBuiltinModule('node:dns/promises').lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** A URL that passed the guard, with the one address the connection must use. */
export interface CheckedTarget extends ResolvedAddress {
  url: URL;
  /** The host was named by --allow-host, so a private address was accepted. */
  allowedPrivate: boolean;
  /** The host as the URL's author wrote it (a relative redirect keeps the previous one). */
  writtenHost: string;
}

export interface UrlGuard {
  /**
   * Parses and checks `input`: http(s) only, and every address the host resolves to must
   * be public unless the host[:port] was allowed. The caller connects to the returned
   * address, never resolving the name again, so DNS cannot change the answer in between.
   * A redirect passes the target it came from, against which a relative `input` resolves.
   */
  check(input: string | URL, from?: CheckedTarget): Promise<CheckedTarget>;
}

export interface UrlGuardOptions {
  /** `HOST[:PORT]` entries that may be private; compared with the URL's host as written. */
  allowHosts: readonly string[];
  lookup?: LookupAll;
}

export function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** `host` or `host:port`, lower-cased, brackets kept for IPv6: the form --allow-host takes. */
function parseAllowEntry(entry: string): { host: string; port?: string } {
  const text = entry.trim().toLowerCase();
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] };
  const withPort = /^([^:]+):(\d+)$/.exec(text);
  if (withPort) return { host: withPort[1], port: withPort[2] };
  return { host: text };
}

/**
 * The host of `input` as written, lower-cased: the URL parser turns `2130706433`, `127.1`
 * or `%31%32%37.0.0.1` into `127.0.0.1`, and --allow-host names the host as written, so
 * `--allow-host 127.0.0.1:8080` must not let those other spellings through. Undefined for
 * a reference without a host of its own (a relative redirect).
 */
export function writtenHost(input: string): string | undefined {
  const trimmed = input.replace(/^[\x00-\x20]+/, '');
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(trimmed);
  let rest = scheme ? trimmed.slice(scheme[0].length) : trimmed;
  const slashes = /^[/\\]*/.exec(rest)![0];
  // Without a scheme only `//host` names a host; after http: or https: the parser takes a
  // host whatever the number of slashes, none included.
  if (!scheme && slashes.length < 2) return undefined;
  rest = rest.slice(slashes.length);
  let authority = /^[^/\\?#]*/.exec(rest)![0];
  authority = authority.slice(authority.lastIndexOf('@') + 1);
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:[^:]*$/, '');
  return host.toLowerCase();
}

export function createUrlGuard(options: UrlGuardOptions): UrlGuard {
  const allow = options.allowHosts.map(parseAllowEntry);
  const lookup = options.lookup ?? systemLookup;
  const classifier = createAddressClassifier();
  // Both the host as written and the host as parsed must be the allowed one.
  const isAllowed = (url: URL, written: string) => {
    const port = defaultPort(url);
    return (
      written === url.hostname.toLowerCase() &&
      allow.some((entry) => entry.host === written && (entry.port === undefined || entry.port === port))
    );
  };
  return {
    async check(input, from) {
      let url: URL;
      try {
        url = typeof input === 'string' ? new URL(input, from?.url) : input;
      } catch {
        throw new FetchError('BAD_URL', `Not a valid URL: ${String(input).slice(0, 200)}. Give an absolute http:// or https:// URL.`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new FetchError('BAD_URL', `Only http:// and https:// URLs can be fetched, not ${url.protocol}`);
      }
      const written = (typeof input === 'string' ? writtenHost(input) : undefined) ?? from?.writtenHost ?? url.hostname.toLowerCase();
      const allowedPrivate = isAllowed(url, written);
      // The WHATWG parser already turned 127.1, 2130706433, 0x7f000001 and 0177.0.0.1 into
      // 127.0.0.1; IPv6 literals arrive bracketed.
      const bare = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
      const refuse = (why: string) =>
        new FetchError(
          'BLOCKED',
          `Refused to fetch ${url.origin}: ${why}. Only public addresses can be fetched; the operator can allow a host with --allow-host HOST[:PORT].`,
        );
      let addresses: ResolvedAddress[];
      if (isIP(bare)) {
        addresses = [{ address: bare, family: isIP(bare) === 6 ? 6 : 4 }];
      } else {
        if (!allowedPrivate && (bare === 'localhost' || bare.endsWith('.localhost'))) throw refuse(`${bare} is a loopback name`);
        try {
          addresses = await lookup(bare);
        } catch (error) {
          throw new FetchError('DNS', `Cannot resolve ${bare}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Check the host name.`);
        }
        if (addresses.length === 0) throw new FetchError('DNS', `Cannot resolve ${bare}: no addresses. Check the host name.`);
      }
      if (!allowedPrivate) {
        for (const { address } of addresses) {
          const kind = classifier.specialKind(address);
          if (kind) throw refuse(addresses.length === 1 && isIP(bare) ? `${address} is a ${kind} address` : `${bare} resolves to ${address}, a ${kind} address`);
        }
      }
      return { url, ...addresses[0], allowedPrivate, writtenHost: written };
    },
  };
}
