import { describe, expect, it } from 'vitest';
import { addressKeys, IPV6_48_BUDGET_FACTOR, ipv6Groups } from './address-keys.js';

describe('rate-limit keys of an address (docs/security.md #11)', () => {
  it('keys an IPv4 address by itself', () => {
    expect(addressKeys('203.0.113.7')).toEqual([{ key: 'ip:203.0.113.7', factor: 1 }]);
  });

  it('keys an IPv6 address by its /64, with a larger /48 ceiling', () => {
    expect(addressKeys('2001:db8:1:2:aaaa::1')).toEqual([
      { key: 'ip6/64:2001:db8:1:2', factor: 1 },
      { key: 'ip6/48:2001:db8:1', factor: IPV6_48_BUDGET_FACTOR },
    ]);
  });

  it('gives every spelling of one /64 the same key', () => {
    const spellings = ['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff:0:0:9', '2001:db8:1:2:0:0:0.0.0.1'];
    const keys = new Set(spellings.map((ip) => addressKeys(ip)[0]!.key));
    expect([...keys]).toEqual(['ip6/64:2001:db8:1:2']);
  });

  it('puts two /64s of one /48 under the same ceiling and different budgets', () => {
    const [first64, first48] = addressKeys('2001:db8:1:2::1');
    const [second64, second48] = addressKeys('2001:db8:1:3::1');
    expect(first64!.key).not.toBe(second64!.key);
    expect(first48!.key).toBe(second48!.key);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressKeys('::ffff:198.51.100.4')).toEqual([{ key: 'ip:198.51.100.4', factor: 1 }]);
  });

  it('expands the compressed forms', () => {
    expect(ipv6Groups('::1')).toEqual(['0', '0', '0', '0', '0', '0', '0', '1']);
    expect(ipv6Groups('fe80::1%eth0')).toEqual(['fe80', '0', '0', '0', '0', '0', '0', '1']);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(ipv6Groups('1::2::3')).toBeUndefined();
  });
});
