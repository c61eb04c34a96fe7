import { BlockList, isIP } from 'node:net';

/**
 * Address ranges a fetch must not reach unless the operator allowed the host: a model
 * that can make the server connect there can read internal services (SSRF).
 */
const IPV4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved or broadcast'],
];

const IPV6_RANGES: [string, number, string][] = [
  // ::/96 holds :: (unspecified), ::1 (loopback) and the deprecated IPv4-compatible form.
  ['::', 96, 'unspecified, loopback or IPv4-compatible'],
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

export interface AddressClassifier {
  /** Why `address` is not a public unicast address, or undefined when it is. */
  specialKind(address: string): string | undefined;
}

export function createAddressClassifier(): AddressClassifier {
  const lists = [...IPV4_RANGES.map(([net, prefix, kind]) => ({ kind, list: subnet(net, prefix, 'ipv4') }))];
  const v6 = IPV6_RANGES.map(([net, prefix, kind]) => ({ kind, list: subnet(net, prefix, 'ipv6') }));
  const classify = (address: string): string | undefined => {
    const family = isIP(address);
    if (family === 0) return 'not an IP address';
    if (family === 4) return lists.find(({ list }) => list.check(address, 'ipv4'))?.kind;
    // IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::)
    // carry an IPv4 address that the connection may end up at: judge that one.
    const embedded = embeddedIpv4(address);
    if (embedded) return classify(embedded);
    return v6.find(({ list }) => list.check(address, 'ipv6'))?.kind;
  };
  return { specialKind: classify };
}

function subnet(network: string, prefix: number, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return list;
}

/** The 16-bit groups of an IPv6 address (with an optional dotted IPv4 tail). */
function groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

function embeddedIpv4(address: string): string | undefined {
  const g = groups(address);
  if (g.length !== 8) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return undefined;
}
