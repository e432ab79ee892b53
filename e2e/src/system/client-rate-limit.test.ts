import { describe, expect, it } from 'vitest';
import { newDeveloper } from '../support/clients.js';
import { basicAuth, INVALID_CLIENT, newClient, requestToken } from '../support/tokens.js';
import { useSuite } from '../support/use-suite.js';

// docs/security.md #11: the token, introspection and revocation endpoints are limited per
// authenticated client (in oauth) and failed client authentication per address (gateway).
const CLIENT_BUDGET = 5;
const FAILURE_BUDGET = 3;
const context = useSuite({
  // Windows are fixed and aligned on the clock (docs/security.md #11): an hour makes a window
  // boundary inside the test, which would rightly reset the count, all but impossible.
  serviceEnv: { CLIENT_RATE_LIMIT: String(CLIENT_BUDGET), CLIENT_RATE_WINDOW: '3600' },
  gatewayEnv: {
    CLIENT_AUTH_FAILURE_RATE_LIMIT: String(FAILURE_BUDGET),
    CLIENT_AUTH_FAILURE_RATE_WINDOW: '300',
    TRUST_PROXY: '127.0.0.1',
  },
});

const OAUTH_RATE_LIMITED = { error: 'rate_limited', statusCode: 429, code: 'RATE_LIMITED' };
const CLIENT_CREDENTIALS: [string, string][] = [['grant_type', 'client_credentials']];

async function twoClients() {
  const developer = await newDeveloper(context.suite);
  const first = await newClient(context.suite, developer.token);
  const second = await newClient(context.suite, developer.token);
  return {
    first: basicAuth(first.clientId, first.clientSecret!),
    second: basicAuth(second.clientId, second.clientSecret!),
    secondId: second.clientId,
  };
}

async function introspect(headers: Record<string, string>, address: string) {
  const response = await fetch(context.url('/oauth/introspect'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address, ...headers },
    body: 'token=not-a-token',
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe('per-client and per-address budgets of the client-authenticated endpoints', () => {
  it('refuses a client over its budget and serves another one from the same address', async () => {
    const { first, second } = await twoClients();
    for (let request = 0; request < CLIENT_BUDGET; request += 1) {
      expect((await requestToken(context.suite, CLIENT_CREDENTIALS, first)).status).toBe(200);
    }
    const limited = await requestToken(context.suite, CLIENT_CREDENTIALS, first);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(OAUTH_RATE_LIMITED);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // One budget for the client at every endpoint it authenticates to.
    expect((await introspect(first, '127.0.0.1')).status).toBe(429);

    expect((await requestToken(context.suite, CLIENT_CREDENTIALS, second)).status).toBe(200);
  });

  it('counts failed client authentication against the address, then refuses even a right secret', async () => {
    const { second, secondId } = await twoClients();
    const guesser = '203.0.113.50';
    const wrong = basicAuth(secondId, 'f'.repeat(64));
    for (let attempt = 0; attempt < FAILURE_BUDGET; attempt += 1) {
      const refused = await requestToken(context.suite, CLIENT_CREDENTIALS, {
        ...wrong,
        'x-forwarded-for': guesser,
      });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(INVALID_CLIENT);
    }
    const limited = await requestToken(context.suite, CLIENT_CREDENTIALS, {
      ...second,
      'x-forwarded-for': guesser,
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(OAUTH_RATE_LIMITED);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await introspect(second, guesser)).status).toBe(429);

    // The client itself, elsewhere, is not affected: failures count against the address.
    const served = await requestToken(context.suite, CLIENT_CREDENTIALS, {
      ...second,
      'x-forwarded-for': '203.0.113.51',
    });
    expect(served.status).toBe(200);
  });
});
