import { isIP } from 'node:net';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** `::1` -> `[::1]`; names and IPv4 stay as they are. */
export function formatHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

/**
 * The `Host` header values a request may carry (lower case). On loopback, the bound port
 * under the three loopback names; on another interface, that interface's name too. A
 * DNS-rebinding page reaches us under its own name (`evil.example:PORT`) and is refused.
 */
export function allowedHostHeaders(host: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (!isLoopback(host) && host !== '0.0.0.0' && host !== '::') names.add(formatHost(host).toLowerCase());
  const allowed = new Set<string>();
  for (const name of names) {
    allowed.add(`${name}:${port}`);
    if (port === 80) allowed.add(name);
  }
  return allowed;
}

/** The `Origin` values allowed: the same host names and port over http or https. */
export function allowedOrigins(host: string, port: number): Set<string> {
  const allowed = new Set<string>();
  for (const hostHeader of allowedHostHeaders(host, port)) {
    allowed.add(`http://${hostHeader}`);
    allowed.add(`https://${hostHeader}`);
  }
  return allowed;
}
