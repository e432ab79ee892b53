import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIPv6, type LookupFunction } from 'node:net';
import { OutboundFetchError } from './outbound-fetch-error.js';

/**
 * RFC 4291 §2.5.5.1 deprecates IPv4-compatible IPv6 addresses (::a.b.c.d), yet ipaddr.js, and so
 * request-filtering-agent, ranks them "unicast". A stack that still tunnels them would deliver to
 * the embedded IPv4 address, which may be private. :: and ::1 are left to the agent.
 */
const ipv4Compatible = new BlockList();
ipv4Compatible.addRange('::2', '::ffff:ffff', 'ipv6');

function isIpv4Compatible(address: string): boolean {
  return isIPv6(address) && ipv4Compatible.check(address, 'ipv6');
}

function refusal(): OutboundFetchError {
  return new OutboundFetchError('address', 'address is not public (IPv4-compatible IPv6)');
}

/** A literal host never reaches a lookup, so it is checked on the URL. */
export function refuseIpv4CompatibleLiteral(target: URL): void {
  if (isIpv4Compatible(target.hostname.replace(/^\[(.*)\]$/, '$1'))) throw refusal();
}

/** dns.lookup that fails when any answer is IPv4-compatible; the agent then checks the rest. */
export const lookupRefusingIpv4Compatible: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options, (error, answer, family) => {
    const answers = error ? [] : typeof answer === 'string' ? [answer] : answer.map(({ address }) => address);
    callback(answers.some(isIpv4Compatible) ? refusal() : error, answer, family);
  });
};
