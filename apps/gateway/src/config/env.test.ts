import { describe, expect, it } from 'vitest';
import { loadGatewayEnv } from './env.js';
import { parseTrustProxy } from './trust-proxy.js';

describe('gateway environment', () => {
  it('defaults the issuer to http://localhost:$PORT and services to the port base', () => {
    const env = loadGatewayEnv({ REDIS_URL: 'redis://127.0.0.1:6379', PORT: '4000', GRPC_PORT_BASE: '6000' });
    expect(env.issuer).toBe('http://localhost:4000');
    expect(env.services).toEqual({
      identity: '127.0.0.1:6001',
      oauth: '127.0.0.1:6002',
      clients: '127.0.0.1:6003',
      'consent-ui': '127.0.0.1:6004',
      'wallet-bridge': '127.0.0.1:6005',
    });
  });

  it('ships the rate limits of docs/security.md #11', () => {
    const { rateLimit } = loadGatewayEnv({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(rateLimit).toMatchObject({
      enabled: true,
      defaultBudget: { points: 6000, durationSeconds: 60 },
      notFound: { points: 300, durationSeconds: 60 },
      clientAuthFailure: { points: 20, durationSeconds: 300 },
      invalidToken: { points: 6000, durationSeconds: 60 },
      login: { points: 10, durationSeconds: 300 },
      register: { points: 10, durationSeconds: 3600 },
      registerClient: { points: 20, durationSeconds: 60 },
      walletFlow: { points: 10, durationSeconds: 300 },
    });
  });

  it('names each bad variable', () => {
    const load = () => loadGatewayEnv({ REDIS_URL: 'http://x', JWT_ISSUER: 'https://issuer.example/' });
    expect(load).toThrow(/REDIS_URL: expected a redis or rediss URL/);
    expect(load).toThrow(/JWT_ISSUER: expected an absolute URL without trailing slash, query or fragment/);
  });

  it('reads TRUST_PROXY as off, on, a hop count or an address list', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    const twoHops = parseTrustProxy('2') as (address: string, hop: number) => boolean;
    expect([twoHops('x', 0), twoHops('x', 1), twoHops('x', 2)]).toEqual([true, true, false]);
  });
});
