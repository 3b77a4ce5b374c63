import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit a per-address limit counts: an IPv4 address as it is, an IPv6 address by its /64.
 * One subscriber is routinely given a whole /64 (and picks addresses in it at will, RFC 4941
 * and 8981), so keying on the full IPv6 address would give one client unlimited budgets.
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports for IPv4
 * clients) is its IPv4 address. Anything else (`unknown`, `stdio:local`) is kept as it is.
 */
export function addressGroup(address: string): string {
  const bare = address.split('%')[0]!; // a zone index (`fe80::1%eth0`) names a link, not a client
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const hextets = expandIPv6(bare.toLowerCase());
  const mapped = hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff;
  if (mapped) return [hextets[6]! >> 8, hextets[6]! & 0xff, hextets[7]! >> 8, hextets[7]! & 0xff].join('.');
  return `${hextets
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` and a dotted IPv4 tail expanded). */
function expandIPv6(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}
