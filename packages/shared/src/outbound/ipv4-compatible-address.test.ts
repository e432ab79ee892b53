import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { lookupRefusingIpv4Compatible } from './ipv4-compatible-address.js';

// dns.lookup answers an IP literal with itself, which stands in for a DNS answer here.
function lookupAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookupRefusingIpv4Compatible(hostname, { all: true }, (error, answer) => {
      if (error) reject(error);
      else resolve(answer as LookupAddress[]);
    });
  });
}

describe('lookupRefusingIpv4Compatible', () => {
  it.each(['::127.0.0.1', '::10.0.0.1', '::8.8.8.8'])(
    'refuses the IPv4-compatible answer %s',
    async (host) => {
      await expect(lookupAll(host)).rejects.toMatchObject({ reason: 'address' });
    },
  );

  it.each(['2001:4860:4860::8888', '::1', '93.184.215.14'])('passes %s on to the agent', async (host) => {
    expect((await lookupAll(host)).length).toBe(1);
  });
});
