import { isIPv4, isIPv6 } from 'node:net';

/** How many /64 networks' worth of budget one /48 may spend (docs/security.md #11). */
export const IPV6_48_BUDGET_FACTOR = 16;

/** A rate-limit key for a client address, and how many times the route's budget it gets. */
export interface AddressKey {
  key: string;
  factor: number;
}

/**
 * The keys one address counts under (docs/security.md #11). An IPv4 address is its own key.
 * An IPv6 host usually holds a whole /64 (RFC 4291 section 2.5.4; RFC 8981 rotates addresses
 * inside it), so the /64 is the unit; a site usually holds a /48 (RFC 6177), so the /48 gets
 * a second, larger budget that many /64s of one network share. An IPv4-mapped IPv6 address
 * (RFC 4291 section 2.5.5.2) counts as the IPv4 address it carries.
 */
export function addressKeys(ip: string): AddressKey[] {
  const groups = isIPv6(ip) ? ipv6Groups(ip) : undefined;
  if (!groups) return [{ key: `ip:${ip}`, factor: 1 }];
  const mapped = mappedIPv4(groups);
  if (mapped) return [{ key: `ip:${mapped}`, factor: 1 }];
  return [
    { key: `ip6/64:${groups.slice(0, 4).join(':')}`, factor: 1 },
    { key: `ip6/48:${groups.slice(0, 3).join(':')}`, factor: IPV6_48_BUDGET_FACTOR },
  ];
}

/** The eight 16-bit groups of an IPv6 address, lowercase hex without leading zeros. */
export function ipv6Groups(address: string): string[] | undefined {
  const withoutZone = address.split('%')[0]!.toLowerCase();
  let text = withoutZone;
  // RFC 4291 section 2.2 form 3: the last 32 bits may be written as dotted IPv4.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (!isIPv4(dotted[1]!)) return undefined;
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16).toString(16));
}

function mappedIPv4(groups: string[]): string | undefined {
  const prefix = groups.slice(0, 6).join(':');
  if (prefix !== '0:0:0:0:0:ffff') return undefined;
  const high = parseInt(groups[6]!, 16);
  const low = parseInt(groups[7]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
