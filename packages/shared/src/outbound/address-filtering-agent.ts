import type { Agent } from 'node:http';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { lookupRefusingIpv4Compatible } from './ipv4-compatible-address.js';
import type { OutboundPolicy } from './outbound-policy.js';

/**
 * Exact addresses, not 127.0.0.0/8 and ::1/128: the agent matches a CIDR against an address of the
 * other family by catching the throw and printing a warning to the console.
 */
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

/**
 * An agent that connects only to public unicast addresses (SSRF). request-filtering-agent checks
 * a literal host in createConnection and every resolved address inside the socket's lookup, so
 * the address checked is the address connected to and DNS rebinding cannot slip between the two.
 * It refuses every ipaddr.js range but "unicast": private, loopback, link-local (cloud metadata),
 * unique-local, CGNAT, unspecified, multicast, broadcast, reserved, IPv4-mapped, NAT64, 6to4,
 * Teredo. A fresh agent per fetch: with keep-alive off it pools nothing, and no socket outlives
 * the fetch.
 */
export function createAddressFilteringAgent(target: URL, policy: OutboundPolicy): Agent {
  const options = {
    keepAlive: false,
    lookup: lookupRefusingIpv4Compatible,
    allowIPAddressList: policy.allowInsecureLoopback ? LOOPBACK_ADDRESSES : [],
  };
  return target.protocol === 'https:'
    ? new RequestFilteringHttpsAgent(options)
    : new RequestFilteringHttpAgent(options);
}

/**
 * The agent refuses with a plain Error whose message is the only mark it leaves
 * ("DNS lookup 10.0.0.1(family:…, host:…) is not allowed. Because, …"); the tests pin it.
 */
export function isAddressRefusal(error: unknown): boolean {
  return error instanceof Error && /^DNS lookup .* is not allowed\./.test(error.message);
}
